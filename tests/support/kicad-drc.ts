// Runs KiCad's own DRC (`kicad-cli pcb drc --format json`, of the KiCad version given) on a board
// staged with its rules under one stem in a temp folder, and counts findings per "type:severity".
// Runs are cached for the life of the process only and at most two kicad-cli processes run at once,
// whichever versions they are. Past kicad-cli's 499-item cap the unconnected count comes from that
// version's pcbnew connectivity.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Kicad } from './kicad.ts';

const run = promisify(execFile);
/** kicad-cli 9 and 10 list at most this many unconnected items. */
export const UNCONNECTED_CAP = 499;

export interface KicadDrc {
  /** The version that judged, as `kicad-cli version` says it. */
  version: string;
  /** Findings per "type:severity". */
  counts: Record<string, number>;
  unconnected: number;
  seconds: number;
}

export interface DrcInput {
  board: string;
  pro?: string;
  dru?: string;
}

const RATSNEST = `import sys, pcbnew
b = pcbnew.LoadBoard(sys.argv[1]); c = b.GetConnectivity(); c.RecalculateRatsnest()
print(c.GetUnconnectedCount(False))`;

let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const cache = new Map<string, Promise<KicadDrc>>();

/** `kicad`'s DRC of a board with its rules; cached per version and input within this process. */
export function kicadDrc(kicad: Kicad, input: DrcInput): Promise<KicadDrc> {
  const key = `${kicad.version}|${input.board}|${input.pro ?? ''}|${input.dru ?? ''}`;
  let p = cache.get(key);
  if (!p) cache.set(key, (p = slot(() => runOnce(kicad, input))));
  return p;
}

async function runOnce(kicad: Kicad, input: DrcInput): Promise<KicadDrc> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-kdrc-'));
  try {
    const board = join(dir, 'board.kicad_pcb');
    copyFileSync(input.board, board);
    if (input.pro) copyFileSync(input.pro, join(dir, 'board.kicad_pro'));
    if (input.dru) copyFileSync(input.dru, join(dir, 'board.kicad_dru'));
    const out = join(dir, 'drc.json');
    const t0 = performance.now();
    await run(kicad.cli, ['pcb', 'drc', '--format', 'json', '--units', 'mm', '-o', out, board], { maxBuffer: 64 << 20 });
    const seconds = (performance.now() - t0) / 1000;
    const data = JSON.parse(readFileSync(out, 'utf8')) as { violations: { type: string; severity: string }[]; unconnected_items: unknown[] };
    const counts: Record<string, number> = {};
    for (const v of data.violations) counts[`${v.type}:${v.severity}`] = (counts[`${v.type}:${v.severity}`] ?? 0) + 1;
    let unconnected = data.unconnected_items.length;
    if (unconnected >= UNCONNECTED_CAP) {
      const r = await run(kicad.python, ['-c', RATSNEST, board], { maxBuffer: 16 << 20 });
      unconnected = Math.max(unconnected, Number(r.stdout.trim().split('\n').pop()));
    }
    return { version: kicad.version, counts, unconnected, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
