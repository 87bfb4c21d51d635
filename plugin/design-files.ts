// Reads a board file and the `.kicad_pro` / `.kicad_dru` beside it (same stem; for X.ref.kicad_pcb
// also X.kicad_pro) into the engine's design. File access lives here, never in engine/.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type DesignFiles, loadDesign } from '../engine/kicad/load.ts';
import type { Design } from '../engine/board/design.ts';

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

/**
 * The rules a board was read with, written beside a board written from it (`<stem>.kicad_pro`,
 * `<stem>.kicad_dru`) where none is there yet, so KiCad and `tracemaker drc` judge the output by
 * the same rules. Returns the files written.
 */
export function writeRulesBeside(outPath: string, files: DesignFiles): string[] {
  const stem = outPath.replace(/\.kicad_pcb$/, '');
  const written: string[] = [];
  for (const [ext, text] of [
    ['.kicad_pro', files.project],
    ['.kicad_dru', files.dru],
  ] as const) {
    if (text === undefined || sidecar(outPath, ext) !== undefined) continue;
    writeFileSync(stem + ext, text);
    written.push(stem + ext);
  }
  return written;
}

/** What `drc` and `info --json` say of a board with no `.kicad_pro` beside it. */
export const DEFAULT_RULES = 'KiCad defaults: no .kicad_pro beside the board';

/** The first line a command prints for a board with no `.kicad_pro` beside it, else undefined. */
export function noRulesNote(boardPath: string): string | undefined {
  return sidecar(boardPath, '.kicad_pro') === undefined ? `note: no .kicad_pro beside ${boardPath}: KiCad's default rules are used` : undefined;
}
