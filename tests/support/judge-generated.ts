// KiCad's judgement of a generated board routed by the engine: the bare board and the routed one,
// each written with the board's project and custom rules, checked by `kicad-cli pcb drc` of the
// version given. Routing may clear the bare board's errors (nets too short, unrouted), never add one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Design } from '../../engine/board/design.ts';
import { addCopper } from '../../engine/kicad/write-board.ts';
import type { RouteResult } from '../../engine/route/index.ts';
import { kicadDrc } from './kicad-drc.ts';
import type { Kicad } from './kicad.ts';

/** Expects KiCad `k` to find no error on the routed board that the bare one lacks, and as many
 *  unconnected items as the route left open. */
export async function expectNoErrorAdded(k: Kicad, g: { board: string; project: string }, dru: string, design: Design, result: RouteResult): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-judged-'));
  const write = (name: string, text: string) => {
    const f = { board: join(dir, `${name}.kicad_pcb`), pro: join(dir, `${name}.kicad_pro`), dru: join(dir, `${name}.kicad_dru`) };
    writeFileSync(f.board, text);
    writeFileSync(f.pro, g.project);
    writeFileSync(f.dru, dru);
    return f;
  };
  const bare = await kicadDrc(k, write('bare', g.board));
  const after = await kicadDrc(k, write('routed', addCopper(design.board, result.tracks, result.vias)));
  for (const [key, n] of Object.entries(after.counts)) if (key.endsWith(':error')) expect(n, key).toBeLessThanOrEqual(bare.counts[key] ?? 0);
  expect(after.unconnected).toBe(result.open.length);
}
