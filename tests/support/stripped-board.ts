// A bench board as the plugin meets it: its reference routing with the selected nets' tracks and
// vias taken away (bench/strip-board.ts, as `npm run bench -- --selected` strips it), loaded.
import { readFileSync } from 'node:fs';
import { stripBoard } from '../../bench/strip-board.ts';
import type { Design } from '../../engine/board/design.ts';
import { checkAdded } from '../../engine/drc/drc.ts';
import { loadDesign } from '../../engine/kicad/load.ts';
import { benchBoards } from './bench.ts';

/** The stripped design and its stripped nets' numbers: the benchmark's nets, or `only`. */
export function strippedBench(name: string, only?: readonly string[]): { design: Design; nets: number[] } {
  const b = benchBoards().find((x) => x.name === name);
  if (!b) throw new Error(`no bench board ${name}`);
  const { text, nets } = stripBoard(readFileSync(b.ref, 'utf8'), b.ref, only);
  const design = loadDesign({ board: text, boardName: b.ref, project: readFileSync(b.pro, 'utf8'), projectName: b.pro });
  return { design, nets: nets.map((n) => design.board.netByName.get(n)!) };
}

/** The error-level findings engine/drc has against copper added to the design. */
export function errorsAdded(design: Design, r: { tracks: Parameters<typeof checkAdded>[1]; vias: Parameters<typeof checkAdded>[2] }): string[] {
  return checkAdded(design, r.tracks, r.vias)
    .violations.filter((v) => v.severity === 'error')
    .map((v) => `${v.type}: ${v.description}`);
}
