// A route depends on where a board's items lie and what its nets are named, not on the order its
// file lists them in or the codes it gives its nets (connectivity.ts orders each net's pieces by
// place; core/net-rank.ts breaks ties between nets by name): the same board and selection, read
// from KiCad 9 or 10, saved again or renumbered, must give the same copper.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDesign } from '../../../../engine/kicad/load.ts';
import { routeDesign } from '../../../../engine/route/plan/variants.ts';
import { BENCH, KICAD10_BENCH } from '../../../support/bench.ts';

const NAME = 'nanoSwinSidC_nanoSwinSidC';
const dir = join(BENCH, 'B', NAME);
const text = readFileSync(join(dir, `${NAME}.kicad_pcb`), 'utf8');

/** The top-level lists of a board text, as [start, end) offsets. */
function topLevel(board: string): [number, number][] {
  const out: [number, number][] = [];
  let depth = 0;
  let start = 0;
  let quoted = false;
  for (let i = 0; i < board.length; i++) {
    const c = board[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(' && ++depth === 2) start = i;
    else if (c === ')' && depth-- === 2) out.push([start, i + 1]);
  }
  return out;
}

/** The same board with its footprints listed in the opposite order. */
function reversedFootprints(board: string): string {
  const fps = topLevel(board).filter(([a]) => board.startsWith('(footprint', a));
  const reversed = fps.map(([a, b]) => board.slice(a, b)).reverse();
  let out = '';
  let at = 0;
  fps.forEach(([a, b], i) => {
    out += board.slice(at, a) + reversed[i];
    at = b;
  });
  return out + board.slice(at);
}

/** The same board with its net codes in the opposite order (net 0 stays the unconnected net). */
function reversedNetCodes(board: string): string {
  const top = Math.max(...[...board.matchAll(/\(net (\d+)[ )]/g)].map((m) => Number(m[1])));
  return board.replace(/\(net (\d+)([ )])/g, (_m, n: string, end: string) => `(net ${Number(n) === 0 ? 0 : top + 1 - Number(n)}${end}`);
}

/** The route's copper, by net name, in a fixed order, and how many connections it left open. */
function routed(board: string, project = readFileSync(join(dir, `${NAME}.kicad_pro`), 'utf8')) {
  const design = loadDesign({ board, project });
  const r = routeDesign(design, { variants: 1 });
  const name = (net: number) => design.board.nets[net]?.name;
  const tracks = r.tracks.map((t) => `${name(t.net)} ${t.layer} ${t.start.x},${t.start.y} ${t.end.x},${t.end.y} ${t.width}`).sort();
  const vias = r.vias.map((v) => `${name(v.net)} ${v.at.x},${v.at.y} ${v.size}`).sort();
  return { tracks, vias, open: r.open.length };
}

let first: ReturnType<typeof routed> | undefined;
const asRead = () => (first ??= routed(text));

describe('a route and the order of the board it routes', () => {
  it('gives the same copper with the footprints listed backwards', () => {
    const again = reversedFootprints(text);
    expect(again).not.toBe(text);
    expect(asRead().tracks.length).toBeGreaterThan(0);
    expect(routed(again)).toEqual(asRead());
  }, 180_000);

  it('gives the same copper with the nets numbered backwards', () => {
    const again = reversedNetCodes(text);
    expect(again).not.toBe(text);
    expect(routed(again)).toEqual(asRead());
  }, 180_000);

  // KiCad 10 writes no net table and numbers nets as it meets them: other codes, same nets.
  it('gives the same copper for the board as KiCad 10 saved it', () => {
    const k10 = join(KICAD10_BENCH, 'B', NAME);
    if (!existsSync(k10)) throw new Error(`${k10} not found: run node scripts/kicad10-corpus.mjs`);
    const board = readFileSync(join(k10, `${NAME}.kicad_pcb`), 'utf8');
    expect(board).not.toMatch(/^\s*\(net 1 /m);
    expect(routed(board, readFileSync(join(k10, `${NAME}.kicad_pro`), 'utf8'))).toEqual(asRead());
  }, 180_000);
});
