// A coupled pair's meanders: both tracks bent round one centre line. Each net gains 2·h a bump,
// the two nets stay at least the pair's gap apart through every bump, and each track's copper still
// runs from its old ends, whichever way the pair runs and whichever way each track was drawn. At a
// pitch with room for them, a run gets rounded corners that KiCad couples like the straights (each
// corner's two arcs round one centre, on the 100 nm grid along the axes); at 45° only where both
// tracks' arcs can end on whole nanometres, else the corners stay square.
import { describe, expect, it } from 'vitest';
import type { NewTrack } from '../../../../engine/board/added-copper.ts';
import { pairMeander, pairRuns, roundedPitch } from '../../../../engine/route/pairs/pair-meander.ts';
import { pairCoupling } from '../../../../engine/drc/pair-coupling.ts';
import { trackShape } from '../../../../engine/drc/item-shapes.ts';
import { trackLength } from '../../../../engine/geom/arc.ts';
import { kicadArcCentre } from '../../../../engine/geom/kicad-arc-centre.ts';
import { segment } from '../../../../engine/geom/shapes.ts';
import { collides } from '../../../../engine/geom/collide.ts';
import { generateBoard } from '../../../../engine/kicad/generate-board.ts';
import { kicads } from '../../../support/kicad.ts';
import { kicadFindings } from '../../../support/kicad-findings.ts';
import { enginePairFindings, PAIR_TYPES, STRICT_PAIR_RULE } from '../../../support/strict-pair-rule.ts';

const W = 200_000;
const GAP = 250_000;
const track = (net: number, x1: number, y1: number, x2: number, y2: number): NewTrack => ({
  net,
  layer: 0,
  width: W,
  start: { x: x1, y: y1 },
  end: { x: x2, y: y2 },
});
const length = (ts: NewTrack[]) => ts.reduce((s, t) => s + Math.hypot(t.end.x - t.start.x, t.end.y - t.start.y), 0);

/** The pair along direction (dx, dy) (unit, scaled by 1e6), the minus track `GAP + W` to its left,
 *  from an odd point on the board (KiCad's arc centres are worked out on a board's positive side). */
function pair(dx: number, dy: number, reversed: boolean, X = 30_123_457, Y = 40_765_431, nets = [1, 2]): NewTrack[] {
  const L = 20_000_000;
  const n = { x: -dy, y: dx };
  const o = GAP + W;
  const p = track(nets[0], X, Y, X + Math.round(dx * L), Y + Math.round(dy * L));
  const a = { x: X + Math.round(n.x * o), y: Y + Math.round(n.y * o) };
  const b = { x: X + Math.round(dx * L + n.x * o), y: Y + Math.round(dy * L + n.y * o) };
  const m = reversed ? track(nets[1], b.x, b.y, a.x, a.y) : track(nets[1], a.x, a.y, b.x, b.y);
  return [p, m];
}

describe('pair meanders', () => {
  const s = Math.SQRT1_2;
  it.each([
    ['along x', 1, 0, false],
    ['along y, the minus track drawn the other way', 0, 1, true],
    ['at 45°', s, s, false],
    ['at 135°, drawn the other way', -s, s, true],
  ] as const)('keep the gap and lengthen both nets alike, %s', (_name, dx, dy, reversed) => {
    const tracks = pair(dx, dy, reversed);
    const runs = pairRuns(tracks, 1, 2, GAP);
    expect(runs).toHaveLength(1);
    expect(Math.abs(runs[0].shared - 20_000_000)).toBeLessThan(3);
    const p = runs[0].apart + 3 * W;
    for (const side of [1, -1]) {
      const h = 2_000_000;
      const out = pairMeander(tracks, runs[0], 3, h, p, side, p + runs[0].apart / 2);
      for (const [ts, old] of [
        [out.a, tracks[0]],
        [out.b, tracks[1]],
      ] as const) {
        expect(Math.abs(length(ts) - 20_000_000 - 6 * h), `side ${side}`).toBeLessThan(40);
        // One chain from one old end to the other.
        for (let i = 0; i + 1 < ts.length; i++) expect(ts[i + 1].start).toEqual(ts[i].end);
        expect([ts[0].start, ts.at(-1)!.end]).toEqual(expect.arrayContaining([old.start, old.end]));
      }
      for (const a of out.a)
        for (const b of out.b) {
          const sa = segment(a.start.x, a.start.y, a.end.x, a.end.y, W);
          const sb = segment(b.start.x, b.start.y, b.end.x, b.end.y, W);
          expect(collides(sa, sb, GAP - 3), `side ${side}`).toBe(false);
        }
    }
  });

  it('finds no run where the tracks are not parallel or not at the gap', () => {
    expect(pairRuns([track(1, 0, 0, 10_000_000, 0), track(2, 0, 500_000, 10_000_000, 600_000)], 1, 2, GAP)).toEqual([]);
    expect(pairRuns([track(1, 0, 0, 10_000_000, 0), track(2, 0, 600_000, 10_000_000, 600_000)], 1, 2, GAP)).toEqual([]);
    expect(pairRuns([track(1, 0, 0, 10_000_000, 0), track(2, 12_000_000, 450_000, 20_000_000, 450_000)], 1, 2, GAP)).toEqual([]);
  });

  it.each([
    ['along x', 1, 0, false, 30_123_457, true],
    ['along y, the minus track drawn the other way', 0, 1, true, 30_123_457, true],
    ['at 45°', s, s, false, 30_123_457, true],
    ['at 135°, drawn the other way', -s, s, true, 30_123_457, true],
    ['at 45°, on a line between the whole-nanometre points of its corners', s, s, false, 30_123_458, false],
  ] as const)('round their corners where there is room, %s', (_name, dx, dy, reversed, x, rounded) => {
    const tracks = pair(dx, dy, reversed, x);
    const [run] = pairRuns(tracks, 1, 2, GAP);
    const p = roundedPitch(run.apart);
    const h = 2_000_000;
    for (const side of [1, -1]) {
      const out = pairMeander(tracks, run, 3, h, p, side, p + run.apart / 2);
      const arcs = [...out.a, ...out.b].filter((t) => t.mid);
      expect(arcs.length, `side ${side}`).toBe(rounded ? 24 : 0);
      for (const ts of [out.a, out.b]) {
        const added = ts.reduce((n, t) => n + trackLength(t), 0) - 20_000_000;
        // Each bump a little taller than asked, its top on the 100 nm grid.
        expect(added, `side ${side}`).toBeGreaterThanOrEqual(6 * h - 40);
        expect(added, `side ${side}`).toBeLessThan(6 * h + 6 * 100 + 40);
        for (let i = 0; i + 1 < ts.length; i++) expect(ts[i + 1].start).toEqual(ts[i].end);
      }
      if (dx === 0 || dy === 0)
        for (const a of arcs) {
          const c = kicadArcCentre(a.start, a.mid!, a.end);
          expect([c.x % 100, c.y % 100].map(Math.abs)).toEqual([0, 0]);
        }
      // Rounded, every stretch is coupled at the gap (the arcs too, as KiCad couples them, to
      // within the few nanometres by which KiCad's centres for a diagonal's two arcs differ).
      const c = pairCoupling(out.a, out.b, { min: GAP - 3, max: GAP + 3 });
      if (rounded) expect(c.uncoupled, `side ${side}`).toBeLessThan(20);
      for (const a of out.a) for (const b of out.b) expect(collides(trackShape(a), trackShape(b), GAP - 3), `side ${side}`).toBe(false);
    }
  });
});

// Eight pairs, one each way along the axes and diagonals, meandered with room for rounded corners,
// and a ninth at 45° whose corners stay square; KiCad's coupling check, with no uncoupled length
// allowed, finds only the ninth.

function meanderBoard(): { board: string; project: string; rounded: number[] } {
  const s = Math.SQRT1_2;
  const dirs = [
    [1, 0],
    [0, 1],
    [-1, 0],
    [0, -1],
    [s, s],
    [s, -s],
    [-s, s],
    [-s, -s],
    [s, s],
  ];
  const mm = (v: number) => (v / 1e6).toFixed(6);
  let uid = 0;
  const text = (t: NewTrack) =>
    `\t(${t.mid ? 'arc' : 'segment'} (start ${mm(t.start.x)} ${mm(t.start.y)})${t.mid ? ` (mid ${mm(t.mid.x)} ${mm(t.mid.y)})` : ''} (end ${mm(t.end.x)} ${mm(t.end.y)}) (width 0.2) (layer "F.Cu") (net ${t.net}) (uuid "00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}"))\n`;
  let copper = '';
  const rounded: number[] = [];
  dirs.forEach(([dx, dy], i) => {
    // The last pair's lines fall between the whole-nanometre points its arcs would need.
    const x = 60_000_000 + 25_000_000 * (i % 3) + (i === 8 ? 1 : 0);
    const y = 30_000_000 + 25_000_000 * Math.floor(i / 3);
    const tracks = pair(dx, dy, i % 2 === 1, x, y, [2 * i + 1, 2 * i + 2]);
    const [run] = pairRuns(tracks, 2 * i + 1, 2 * i + 2, GAP);
    const p = roundedPitch(run.apart);
    const out = pairMeander(tracks, run, 3, 2_000_000, p, i % 4 < 2 ? 1 : -1, p + run.apart / 2);
    if (out.a.some((t) => t.mid)) rounded.push(i);
    copper += [...out.a, ...out.b].map(text).join('');
  });
  const g = generateBoard({ nets: 18, padsPerNet: 2, layers: 2, width: 60, height: 50, seed: 3, pairs: 9 });
  return { board: g.board.trimEnd().replace(/\)$/, `${copper})\n`), project: g.project, rounded };
}

describe.each(kicads().map((k) => [k.version, k] as const))('rounded pair meanders judged by kicad-cli %s', (_v, k) => {
  it('are coupled all through, as the engine finds them', () => {
    const { board, project, rounded } = meanderBoard();
    expect(rounded).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const judged = kicadFindings(k, { board, project, dru: STRICT_PAIR_RULE }, PAIR_TYPES);
    const kicad = judged.findings.map((v) => v.description).sort();
    const engine = enginePairFindings({ board: judged.board, project, dru: STRICT_PAIR_RULE })
      .map((v) => `${v.nets.join(' ')}: ${v.description}`)
      .sort();
    // Only the square pair's corners run uncoupled.
    expect(engine).toHaveLength(1);
    expect(engine[0]).toMatch(/^\/DP9_P \/DP9_N: Differential uncoupled length too long/);
    expect(engine.map((e) => e.replace(/^.*?: /, ''))).toEqual(kicad);
  });
});
