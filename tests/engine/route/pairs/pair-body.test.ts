// A coupled pair's two tracks from its centre line (engine/route/pair-body.ts): offsets that keep
// the pair's pitch round every corner and stay within half of it from the line, short jogs cut
// within the slack the search kept, and a via pair across the run with each track fanned to its via.
import { describe, expect, it } from 'vitest';
import type { Pt } from '../../../../engine/board/model.ts';
import { offsetLine, pairBody, straighten, trimEnds } from '../../../../engine/route/pairs/pair-body.ts';

const MM = 1_000_000;
const p = (x: number, y: number): Pt => ({ x: Math.round(x * MM), y: Math.round(y * MM) });

/** Distance from a point to a segment. */
function toSegment(q: Pt, a: Pt, b: Pt): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((q.x - a.x) * dx + (q.y - a.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(a.x + t * dx - q.x, a.y + t * dy - q.y);
}

/** Least distance between two polylines (they do not cross). */
function apart(a: Pt[], b: Pt[]): number {
  let d = Infinity;
  for (let i = 0; i + 1 < a.length; i++) for (const q of b) d = Math.min(d, toSegment(q, a[i], a[i + 1]));
  for (let i = 0; i + 1 < b.length; i++) for (const q of a) d = Math.min(d, toSegment(q, b[i], b[i + 1]));
  return d;
}

/** Greatest distance from a polyline's points (and its segments' midpoints) to another. */
function straysFrom(line: Pt[], from: Pt[]): number {
  let worst = 0;
  const pts = line.flatMap((q, i) => (i + 1 < line.length ? [q, { x: (q.x + line[i + 1].x) / 2, y: (q.y + line[i + 1].y) / 2 }] : [q]));
  for (const q of pts) {
    let d = Infinity;
    for (let i = 0; i + 1 < from.length; i++) d = Math.min(d, toSegment(q, from[i], from[i + 1]));
    worst = Math.max(worst, d);
  }
  return worst;
}

describe('offsetLine', () => {
  // Right, a 45° turn, down, a 90° turn left: turns both ways and both angles.
  const line = [p(0, 0), p(5, 0), p(8, 3), p(8, 8), p(3, 8)];
  const h = 225_000;

  it('keeps the two sides 2h apart round every corner and each within h of the line', () => {
    const left = offsetLine(line, h);
    const right = offsetLine(line, -h);
    expect(apart(left, right)).toBeGreaterThanOrEqual(2 * h - 2);
    expect(straysFrom(left, line)).toBeLessThanOrEqual(h + 2);
    expect(straysFrom(right, line)).toBeLessThanOrEqual(h + 2);
    // A corner is bevelled (two points) on its outer side and mitred (one) on its inner: five
    // points a side, and one more for each of the three corners.
    expect(left.length + right.length).toBe(13);
  });

  it('runs each side parallel to the line, segment for segment, away from the corners', () => {
    const left = offsetLine([p(0, 0), p(10, 0)], h);
    expect(left).toEqual([
      { x: 0, y: -h },
      { x: 10 * MM, y: -h },
    ]);
  });
});

describe('straighten', () => {
  const h = 225_000;

  it('cuts a jog shorter than the offset straight, within the slack', () => {
    // A 20 µm sidestep a third of the way along: its offsets would fold back.
    const line = [p(0, 0), p(3, 0), p(3.02, 0.02), p(8, 0.02)];
    const out = straighten(line, h, 25_000);
    expect(out).not.toBeNull();
    expect(out!.length).toBeLessThan(line.length);
    expect(straysFrom(line, out!)).toBeLessThanOrEqual(25_000);
    expect(out![0]).toEqual(line[0]);
    expect(out![out!.length - 1]).toEqual(line[line.length - 1]);
  });

  it('refuses where a cut would stray further than the slack', () => {
    // A 0.3 mm hook: no straight cut stays within 25 µm of it.
    expect(straighten([p(0, 0), p(3, 0), p(3, 0.3), p(3.2, 0.3)], h, 25_000)).toBeNull();
  });
});

describe('pairBody', () => {
  const g = { width: 200_000, gap: 250_000, viaDiameter: 600_000, viaDrill: 300_000, viaGap: 250_000 };

  it('changes layer with a via pair across the run, each track fanned out to its own via', () => {
    const line = {
      legs: [
        { layer: 0, pts: [p(0, 0), p(5, 0)] },
        { layer: 1, pts: [p(5, 0), p(10, 0)] },
      ],
      vias: [{ at: p(5, 0), from: 0, to: 1 }],
    };
    const body = pairBody(line, g, 1, 2, 25_000)!;
    const hv = (g.viaDiameter + g.viaGap) / 2;
    expect(body.left.vias.map((v) => v.at)).toEqual([{ x: 5 * MM, y: -hv }]);
    expect(body.right.vias.map((v) => v.at)).toEqual([{ x: 5 * MM, y: hv }]);
    expect(body.left.vias[0].net).toBe(1);
    expect(body.right.vias[0].net).toBe(2);
    // Each side: along at h, 45° out to its via on the first layer; back in at 45° on the second.
    for (const side of [body.left, body.right]) {
      const onVia = side.tracks.filter((t) => [t.start, t.end].some((q) => q.x === side.vias[0].at.x && q.y === side.vias[0].at.y));
      expect(onVia.map((t) => t.layer).sort()).toEqual([0, 1]);
      for (const t of onVia) expect(Math.abs(Math.abs(t.end.x - t.start.x) - Math.abs(t.end.y - t.start.y))).toBeLessThanOrEqual(2);
    }
    // The two sides' tracks never come nearer than the pair's gap, edge to edge.
    for (const a of body.left.tracks)
      for (const b of body.right.tracks) if (a.layer === b.layer) expect(apart([a.start, a.end], [b.start, b.end]) - g.width).toBeGreaterThanOrEqual(g.gap - 2);
  });
});

describe('trimEnds', () => {
  const t = (a: Pt, b: Pt) => ({ start: a, end: b, width: 200_000, layer: 0, net: 1 });
  // Bad while any of it lies left of x = 1 mm (the start's pad) or right of x = 9 mm (the end's).
  const badStart = (x: { start: Pt; end: Pt }) => Math.min(x.start.x, x.end.x) < MM;
  const badEnd = (x: { start: Pt; end: Pt }) => Math.max(x.start.x, x.end.x) > 9 * MM;

  it('cuts a line back at either end while it is bad there, to the micrometre', () => {
    const out = trimEnds([t(p(0, 0), p(4, 0)), t(p(4, 0), p(10, 0))], badStart, badEnd);
    expect(out).toHaveLength(2);
    expect(Math.abs(out[0].start.x - MM)).toBeLessThanOrEqual(1_000);
    expect(Math.abs(out[1].end.x - 9 * MM)).toBeLessThanOrEqual(1_000);
    // A stretch bad all along goes.
    expect(trimEnds([t(p(0, 0), p(0.5, 0)), t(p(0.5, 0), p(5, 0))], badStart, badEnd).map((x) => x.start.x)).toEqual([expect.any(Number)]);
  });

  it('cuts where the line first runs over the end pad, a stretch or two short of its end', () => {
    // Out past x = 9 mm and back, then on up: the last stretch is clear, the one before is not.
    const line = [t(p(2, 0), p(10, 0)), t(p(10, 0), p(8, 0)), t(p(8, 0), p(8, 3))];
    const out = trimEnds(line, badStart, badEnd);
    expect(out).toHaveLength(1);
    expect(out[0].start).toEqual(p(2, 0));
    expect(Math.abs(out[0].end.x - 9 * MM)).toBeLessThanOrEqual(1_000);
    // And at the start: the line comes back over the start pad after leaving it.
    const back = [t(p(3, 3), p(3, 0)), t(p(3, 0), p(0, 0)), t(p(0, 0), p(6, 0))];
    const cut = trimEnds(back, badStart, badEnd);
    expect(cut).toHaveLength(1);
    expect(Math.abs(cut[0].start.x - MM)).toBeLessThanOrEqual(1_000);
    expect(cut[0].end).toEqual(p(6, 0));
  });
});
