// Reads a board file and the `.kicad_pro` / `.kicad_dru` beside it (same stem; for X.ref.kicad_pcb
// also X.kicad_pro) into the engine's design. File access lives here, never in engine/.

import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type Design, type DesignFiles, loadDesign } from '../engine/kicad/load.ts';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `<stem>.<ext>` beside the board, trying the stem without .ref/.bare/.nozones/.routed too. */
export function sidecar(boardPath: string, ext: string): string | undefined {
  const dir = dirname(boardPath);
  let stem = basename(boardPath).replace(/\.kicad_pcb$/, '');
  const direct = join(dir, stem + ext);
  if (existsSync(direct)) return direct;
  for (const suffix of ['.ref', '.bare', '.nozones', '.routed']) {
    if (stem.endsWith(suffix)) {
      stem = stem.slice(0, -suffix.length);
      const p = join(dir, stem + ext);
      if (existsSync(p)) return p;
    }
  }
  return undefined;
}

export function readDesignFiles(boardPath: string): DesignFiles {
  if (!existsSync(boardPath)) throw new UsageError(`board file not found: ${boardPath}`);
  const pro = sidecar(boardPath, '.kicad_pro');
  const dru = sidecar(boardPath, '.kicad_dru');
  return {
    board: readFileSync(boardPath, 'utf8'),
    boardName: boardPath,
    project: pro ? readFileSync(pro, 'utf8') : undefined,
    projectName: pro ?? boardPath.replace(/\.kicad_pcb$/, '.kicad_pro'),
    dru: dru ? readFileSync(dru, 'utf8') : undefined,
    druName: dru,
  };
}

export function loadDesignFile(boardPath: string): Design {
  return loadDesign(readDesignFiles(boardPath));
}
