// The built command as the tests run it: `node dist/tracemaker.js …` with optional stdin, its
// exit code and output; a missing build is a clear error rather than a confusing failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const CLI = resolve(import.meta.dirname, '..', '..', 'dist', 'tracemaker.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tracemaker(args: string[], input?: string): CliRun {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', maxBuffer: 256 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** stdout as JSON lines (one JSON value a line, blank lines skipped). */
export function jsonLines(text: string): any[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** A JSON-lines session's input: one `{"tool", "args"}` a line. */
export function calls(list: [string, object?][]): string {
  return list.map(([tool, args]) => JSON.stringify({ tool, args: args ?? {} })).join('\n') + '\n';
}
