// A generated board routed by the engine, with custom rules added to its own, and the engine's
// DRC of the result; and KiCad's judgement of it: the bare board and the routed one, each written
// with the board's project and rules, checked by `kicad-cli pcb drc` of the version given. Routing
// may clear the bare board's errors (nets too short, unrouted), never add one. The judgement serves
// any board given as text with its project and rules (bench boards under a rule file too).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { withCopper } from '../../engine/board/added-copper.ts';
import type { Design } from '../../engine/board/design.ts';
import { runDrc } from '../../engine/drc/drc.ts';
import { generateBoard, type GenerateOptions } from '../../engine/kicad/generate-board.ts';
import { loadDesign } from '../../engine/kicad/load.ts';
import { addCopper } from '../../engine/kicad/write-board.ts';
import { routeDesign, type RouteResult } from '../../engine/route/index.ts';
import { benchBoards } from './bench.ts';
import { kicadDrc } from './kicad-drc.ts';
import type { Kicad } from './kicad.ts';

/** The board `o` generates, with `extra` custom rules after its own, routed whole; `after` is the
 *  engine's DRC of the routed board. */
export function routeGenerated(o: GenerateOptions, extra = '') {
  const g = generateBoard(o);
  const dru = (g.rules ?? '') + extra;
  const design = loadDesign({ board: g.board, boardName: 'p.kicad_pcb', project: g.project, projectName: 'p.kicad_pro', dru, druName: 'p.kicad_dru' });
  const result = routeDesign(design);
  const after = runDrc({ ...design, board: withCopper(design.board, result.tracks, result.vias) });
  return { g, dru, design, result, after };
}

/** Bench board `name` with `dru` for its rules, routed whole; `after` is the engine's DRC of the
 *  routed board. */
export function routeBench(name: string, dru: string) {
  const bench = benchBoards().find((b) => b.name === name);
  if (!bench) throw new Error(`no bench board ${name}`);
  const g = { board: readFileSync(bench.bare, 'utf8'), project: readFileSync(bench.pro, 'utf8') };
  const design = loadDesign({ board: g.board, boardName: bench.bare, project: g.project, projectName: bench.pro, dru, druName: 'b.kicad_dru' });
  const result = routeDesign(design);
  const after = runDrc({ ...design, board: withCopper(design.board, result.tracks, result.vias) });
  return { g, dru, design, result, after };
}

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
