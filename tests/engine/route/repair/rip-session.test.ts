// Session copper of the nets a call names may be ripped: when the route with it fixed leaves a
// connection open that the route without it makes, the call redoes those nets and says what it
// ripped; copper it may not rip is never touched.
import { describe, expect, it } from 'vitest';
import { generateBoard } from '../../../../engine/kicad/generate-board.ts';
import { loadDesign } from '../../../../engine/kicad/load.ts';
import type { NewTrack } from '../../../../engine/board/added-copper.ts';
import { routeDesign } from '../../../../engine/route/index.ts';

const g = generateBoard({ nets: 4, padsPerNet: 2, layers: 2, width: 40, height: 30, seed: 5 });
const design = loadDesign({ board: g.board, project: g.project });
const pads = design.board.pads;
const netsWithPads = [...new Set(pads.filter((p) => p.net > 0).map((p) => p.net))].sort((a, b) => a - b);

// B: the net whose two pads lie furthest apart in x; A: another net. A wall of A's copper on
// both layers, across the whole board between B's pads, cuts B in two while it stays.
const span = (n: number) => {
  const xs = pads.filter((p) => p.net === n).map((p) => p.at.x);
  return { lo: Math.min(...xs), hi: Math.max(...xs) };
};
const B = [...netsWithPads].sort((a, b) => span(b).hi - span(b).lo - (span(a).hi - span(a).lo) || a - b)[0];
const A = netsWithPads.find((n) => n !== B)!;
const x = Math.round((span(B).lo + span(B).hi) / 2);
const ys = pads.map((p) => p.at.y);
const wall = (rippable: boolean): (NewTrack & { rippable: boolean })[] =>
  [0, 1].map((layer) => ({
    start: { x, y: Math.min(...ys) - 50_000_000 },
    end: { x, y: Math.max(...ys) + 50_000_000 },
    width: 250_000,
    layer,
    net: A,
    locked: true,
    rippable,
  }));

describe('session copper the call may rip', () => {
  it('stays put when it may not be ripped, and the connection it fences off stays open', () => {
    const r = routeDesign(design, { nets: [A, B], session: { tracks: wall(false), vias: [] } });
    expect(r.ripped).toEqual({ tracks: [], vias: [] });
    expect(r.open.some((c) => c.net === B)).toBe(true);
  });

  it('is ripped and the nets redone when that leaves fewer connections open', () => {
    const fixed = routeDesign(design, { nets: [A, B], session: { tracks: wall(false), vias: [] } });
    const r = routeDesign(design, { nets: [A, B], session: { tracks: wall(true), vias: [] } });
    expect(r.ripped).toEqual({ tracks: [0, 1], vias: [] });
    expect(r.open.length).toBeLessThan(fixed.open.length);
    expect(r.open.some((c) => c.net === B)).toBe(false);
  });

  it('is left alone when the route with it fixed leaves nothing open', () => {
    // A short stub on one of A's pads: in nobody's way, so nothing is redone.
    const p = pads.find((q) => q.net === A)!;
    const stub = { start: p.at, end: { x: p.at.x, y: p.at.y + 300_000 }, width: 250_000, layer: 0, net: A, locked: true, rippable: true };
    const r = routeDesign(design, { nets: [A, B], session: { tracks: [stub], vias: [] } });
    expect(r.open).toEqual([]);
    expect(r.ripped).toEqual({ tracks: [], vias: [] });
  });
});
