// The page's files (index.html, app.js, app.css), read once from the bundled ui folder into
// memory. Requests pick from this fixed table by name: no request path reaches the file system.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/ui beside the bundled CLI (scripts/build.mjs writes it). */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('./ui/', import.meta.url));

const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

export interface StaticFile {
  type: string;
  body: Buffer;
}

export class StaticFiles {
  readonly #files = new Map<string, StaticFile>();
  /** Set when the ui is not built: pages get this sentence instead. */
  readonly missing: string | undefined;

  constructor(dir: string) {
    const absent = Object.values(FILES).filter((f) => !existsSync(join(dir, f.file)));
    this.missing = absent.length > 0 ? `the panel's page is not built (${absent.map((f) => f.file).join(', ')} missing): run npm run build` : undefined;
    if (this.missing) return;
    for (const [path, f] of Object.entries(FILES)) this.#files.set(path, { type: f.type, body: readFileSync(join(dir, f.file)) });
  }

  get(path: string): StaticFile | undefined {
    return this.#files.get(path === '/index.html' ? '/' : path);
  }
}
