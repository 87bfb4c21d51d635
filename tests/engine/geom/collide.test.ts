import { describe, expect, it } from 'vitest';
import {
  MAX_COORD_NM as M,
  arc,
  bbox,
  circle,
  collides,
  compareDistance,
  compound,
  distance,
  inflate,
  nearest,
  overlaps,
  polygon,
  rect,
  segment,
  type Shape,
} from '../../../engine/geom/index.ts';
import { int, rng } from './rng.ts';

describe('collides: KiCad clearance semantics (actual < required)', () => {
  it('circle–circle: exactly at clearance passes, 1 nm closer fails', () => {
    const a = circle(0, 0, 300_000);
    const b = circle(800_000, 0, 300_000); // gap 200 000
    expect(distance(a, b)).toBe(200_000);
    expect(collides(a, b, 200_000)).toBe(false);
    expect(collides(a, b, 200_001)).toBe(true);
    expect(compareDistance(a, b, 200_000)).toBe(0);
    expect(collides(a, circle(799_999, 0, 300_000), 200_000)).toBe(true);
  });
  it('parallel tracks: 0.2 mm gap at 0.2 mm clearance passes', () => {
    const a = segment(0, 0, 10_000_000, 0, 200_000);
    const b = segment(0, 400_000, 10_000_000, 400_000, 200_000);
    expect(distance(a, b)).toBe(200_000);
    expect(collides(a, b, 200_000)).toBe(false);
    expect(collides(a, segment(0, 399_999, 10_000_000, 400_000, 200_000), 200_000)).toBe(true);
  });
  it('odd widths give half-nm radii and stay exact', () => {
    const a = segment(0, 0, 1000, 0, 101); // radius 50.5
    const b = segment(0, 201, 1000, 201, 101);
    expect(distance(a, b)).toBe(100);
    expect(collides(a, b, 100)).toBe(false);
    expect(collides(a, b, 101)).toBe(true);
  });
  it('overlapping or touching copper is at distance 0; clearance 0 never collides', () => {
    const a = segment(0, 0, 10, 10, 2);
    const b = segment(0, 10, 10, 0, 2);
    expect(distance(a, b)).toBe(0);
    expect(collides(a, b, 1)).toBe(true);
    expect(collides(a, b, 0)).toBe(false);
    expect(overlaps(a, b)).toBe(true);
    expect(overlaps(circle(0, 0, 5), circle(10, 0, 5))).toBe(true); // touching rims
    expect(overlaps(circle(0, 0, 5), circle(11, 0, 5))).toBe(false);
  });
  it('rect against circle, segment and rect (corner distances are Euclidean)', () => {
    const r = rect(0, 0, 1000, 500);
    expect(distance(r, circle(1300, 900, 100))).toBe(400); // corner (1000,500) → (1300,900) = 500
    expect(collides(r, circle(1300, 900, 100), 400)).toBe(false);
    expect(collides(r, circle(1300, 900, 100), 401)).toBe(true);
    expect(distance(r, segment(-300, -400, -600, -800, 0))).toBe(500);
    expect(distance(r, segment(500, 250, 600, 260, 10))).toBe(0); // inside
    expect(distance(r, rect(1300, 900, 2000, 2000))).toBe(500);
    expect(collides(r, segment(-100, 600, 1100, 600, 0), 100)).toBe(false);
    expect(collides(r, segment(-100, 599, 1100, 600, 0), 100)).toBe(true);
  });
  it('rounded rect = inner rect grown by its radius', () => {
    const rr = rect(-750, -250, 750, 250, 250); // a 2000×1000 pad with r = 250
    expect(bbox(rr)).toEqual({ minX: -1000, minY: -500, maxX: 1000, maxY: 500 });
    expect(distance(rr, circle(1100, 0, 0))).toBe(100);
    // Corner: centre of the rounding at (750, 250); a point along the diagonal.
    expect(distance(rr, circle(750 + 600, 250 + 800, 0))).toBe(750);
  });
  it('polygon: containment, holes and non-convex notches', () => {
    // U shape opening upwards (y down: opening at small y).
    const u = polygon([0, 0, 300, 0, 300, 1000, 700, 1000, 700, 0, 1000, 0, 1000, 1200, 0, 1200]);
    const inNotch = segment(500, 100, 500, 800, 100); // radius 50, 150 from each wall
    expect(distance(u, inNotch)).toBe(150);
    expect(collides(u, inNotch, 150)).toBe(false);
    expect(collides(u, inNotch, 151)).toBe(true);
    expect(distance(u, circle(150, 600, 10))).toBe(0); // inside the left arm
    const holed = polygon([0, 0, 2000, 0, 2000, 2000, 0, 2000], [[500, 500, 1500, 500, 1500, 1500, 500, 1500]]);
    expect(distance(holed, circle(1000, 1000, 100))).toBe(400);
    expect(collides(holed, circle(1000, 1000, 100), 400)).toBe(false);
    expect(collides(holed, circle(1000, 1000, 100), 401)).toBe(true);
    expect(distance(holed, circle(250, 250, 10))).toBe(0);
    // A polygon inside another's hole, and one wholly inside the material.
    const island = polygon([900, 900, 1100, 900, 1100, 1100]);
    expect(distance(holed, island)).toBe(400);
    expect(distance(polygon([0, 0, 5000, 0, 5000, 5000, 0, 5000]), polygon([10, 10, 20, 10, 20, 20]))).toBe(0);
    expect(distance(polygon([0, 0, 100, 0, 0, 100], [], 10), rect(200, 0, 300, 100))).toBe(90);
  });
  it('compound shapes take the nearest part', () => {
    const c = compound([circle(0, 0, 100), segment(1000, 0, 2000, 0, 200)]);
    expect(distance(c, circle(2300, 0, 100))).toBe(100);
    expect(collides(c, circle(2300, 0, 100), 101)).toBe(true);
    expect(collides(c, circle(2300, 0, 100), 100)).toBe(false);
    expect(bbox(c)).toEqual({ minX: -100, minY: -100, maxX: 2100, maxY: 100 });
  });
  it('inflate adds exactly to the distance', () => {
    const a = segment(0, 0, 1000, 0, 100);
    const b = rect(0, 500, 1000, 600);
    expect(distance(a, b)).toBe(450);
    expect(distance(inflate(a, 50), b)).toBe(400);
    expect(distance(inflate(b, 25.5), a)).toBe(424.5);
    expect(overlaps(inflate(a, 225), inflate(b, 225))).toBe(true);
  });
  it('is exact for tracks near the ±1.5e9 limit', () => {
    // Long diagonal track and a pad exactly `c` away from its copper edge, in a 3-4-5 frame.
    const ax = -M,
      ay = -M,
      ux = 3 * 600_000_000,
      uy = 4 * 600_000_000;
    const t = segment(ax, ay, ax + ux, ay + uy, 200_000); // radius 100 000
    const off = 5 * 60_000; // 300 000 from the centre line along the normal (−4, 3)/5
    const pad = circle(ax + ux / 2 - 4 * 60_000, ay + uy / 2 + 3 * 60_000, 50_000);
    expect(compareDistance(t, pad, off - 150_000)).toBe(0);
    expect(collides(t, pad, 150_000)).toBe(false);
    expect(collides(t, pad, 150_001)).toBe(true);
  });
  it('nearest reports points on each copper edge, or a shared point when overlapping', () => {
    const n = nearest(circle(0, 0, 100), circle(1000, 0, 200));
    expect(n).toEqual({ distance: 700, ax: 100, ay: 0, bx: 800, by: 0 });
    const o = nearest(circle(0, 0, 100), circle(250, 0, 200));
    expect(o.distance).toBe(0);
    expect(o.ax).toBeCloseTo(75, 9); // middle of the overlap [50, 100]
    expect(o.ax).toBe(o.bx);
  });
});

describe('arcs', () => {
  // Quarter arc of radius 5e6 about the origin, from (5e6, 0) through (3e6, 4e6) to (0, 5e6).
  const q = arc(5_000_000, 0, 3_000_000, 4_000_000, 0, 5_000_000, 200_000);
  it('derives centre, radius and box', () => {
    expect(q.kind).toBe('arc');
    if (q.kind !== 'arc') return;
    expect(q.geom.cx).toBeCloseTo(0, 6);
    expect(q.geom.cy).toBeCloseTo(0, 6);
    expect(q.geom.r).toBeCloseTo(5_000_000, 6);
    expect(bbox(q)).toEqual({ minX: -100_000, minY: -100_000, maxX: 5_100_000, maxY: 5_100_000 });
  });
  it('point distances: inside the sweep radially, outside it to an end', () => {
    expect(distance(q, circle(0, 0, 0))).toBeCloseTo(4_900_000, 3);
    expect(distance(q, circle(6_000_000, 8_000_000, 0))).toBeCloseTo(4_900_000, 3);
    expect(distance(q, circle(-5_000_000, 0, 0))).toBeCloseTo(Math.hypot(5e6, 5e6) - 100_000, 3);
    expect(collides(q, circle(6_000_000, 8_000_000, 100_000), 4_800_000)).toBe(false);
    expect(collides(q, circle(6_000_000, 8_000_000, 100_000), 4_800_001)).toBe(true);
  });
  it('segment and arc distances, including crossings', () => {
    expect(distance(q, segment(0, 0, 1_000_000, 0, 0))).toBeCloseTo(3_900_000, 3);
    expect(distance(q, segment(-1_000_000, 6_000_000, 7_000_000, 6_000_000, 0))).toBeCloseTo(900_000, 3);
    expect(distance(q, segment(0, 0, 7_000_000, 7_000_000, 0))).toBe(0);
    const q2 = arc(-5_000_000, 0, -3_000_000, -4_000_000, 0, -5_000_000, 0); // opposite quarter
    expect(distance(q, q2)).toBeCloseTo(Math.hypot(5e6, 5e6) - 100_000, 3);
    const concentric = arc(6_000_000, 0, 3_600_000, 4_800_000, 0, 6_000_000, 0);
    expect(distance(q, concentric)).toBeCloseTo(900_000, 3);
  });
  it('collinear start/mid/end gives a straight track; start = end a full circle', () => {
    expect(arc(0, 0, 5, 5, 10, 10, 2).kind).toBe('segment');
    const ring = arc(1000, 0, -1000, 0, 1000, 0, 100);
    expect(distance(ring, circle(0, 0, 0))).toBeCloseTo(950, 6);
    expect(distance(ring, circle(0, 3000, 0))).toBeCloseTo(1950, 6);
  });
  it('large-radius arcs stay accurate; nearly straight ones become exact chords', () => {
    // Chord 20 mm, sagitta 1 µm: radius 5e10 nm, centre 50 m away.
    const big = arc(-10_000_000, 0, 0, 1000, 10_000_000, 0, 0);
    expect(big.kind).toBe('arc');
    expect(distance(big, circle(0, 1500, 0))).toBeCloseTo(500, 4);
    expect(distance(big, circle(0, -1500, 0))).toBeCloseTo(2500, 4);
    expect(distance(big, segment(-20_000_000, 2000, 20_000_000, 2000, 0))).toBeCloseTo(1000, 4);
    // Sagitta 1 nm over 20 mm: each half strays 0.25 nm, so two exact chords stand in.
    const flat = arc(-10_000_000, 0, 0, 1, 10_000_000, 0, 200);
    expect(flat.kind).toBe('compound');
    expect(collides(flat, circle(0, 201, 0), 100)).toBe(false);
    expect(collides(flat, circle(0, 200, 0), 100)).toBe(true);
  });
  it('agrees with a dense polyline on random cases', () => {
    const r = rng(5);
    for (let i = 0; i < 200; i++) {
      const cx = int(r, -1e8, 1e8),
        cy = int(r, -1e8, 1e8),
        rad = int(r, 1e5, 1e7);
      const a0 = r() * 2 * Math.PI,
        sw = 0.1 + r() * 5.5;
      const p = (t: number) => [Math.round(cx + rad * Math.cos(a0 + sw * t)), Math.round(cy + rad * Math.sin(a0 + sw * t))];
      const [sx, sy] = p(0),
        [mx, my] = p(0.5),
        [ex, ey] = p(1);
      const a = arc(sx, sy, mx, my, ex, ey, 0);
      if (a.kind !== 'arc') continue;
      const other: Shape =
        i % 3 === 0
          ? circle(int(r, -2e8, 2e8), int(r, -2e8, 2e8), 0)
          : i % 3 === 1
            ? segment(int(r, -2e8, 2e8), int(r, -2e8, 2e8), int(r, -2e8, 2e8), int(r, -2e8, 2e8), 0)
            : arc(
                ...([0, 0.5, 1].flatMap((t) => [Math.round(cx / 2 + rad * Math.cos(1 + 2 * t)), Math.round(cy / 3 + rad * Math.sin(1 + 2 * t))]) as [
                  number,
                  number,
                  number,
                  number,
                  number,
                  number,
                ]),
                0,
              );
      const N = 4000;
      let best = Infinity;
      for (let k = 0; k <= N; k++) {
        const t = k / N;
        const g = a.geom;
        const ang = g.a0 + g.sweep * t;
        const pt = circle(Math.round(g.cx + g.r * Math.cos(ang)), Math.round(g.cy + g.r * Math.sin(ang)), 0);
        best = Math.min(best, distance(pt, other));
      }
      const d = distance(a, other);
      // Sampling error: chord spacing rad·sweep/N, plus 1 nm of rounding.
      expect(d).toBeLessThanOrEqual(best + 1);
      expect(d).toBeGreaterThanOrEqual(best - (rad * a.geom.sweep) / N - 1);
    }
  });
});

describe('exact decisions agree with reported distances', () => {
  it('on random mixed shapes', () => {
    const r = rng(3);
    const shape = (): Shape => {
      const x = int(r, -M + 2e7, M - 2e7),
        y = int(r, -M + 2e7, M - 2e7);
      switch (int(r, 0, 4)) {
        case 0:
          return circle(x, y, int(r, 0, 1e6));
        case 1:
          return segment(x, y, x + int(r, -1e7, 1e7), y + int(r, -1e7, 1e7), int(r, 0, 5e5));
        case 2:
          return rect(x, y, x + int(r, 0, 1e7), y + int(r, 0, 1e7), int(r, 0, 1e5));
        default:
          return polygon([x, y, x + int(r, 1, 1e7), y, x + int(r, 0, 1e7), y + int(r, 1, 1e7)], [], int(r, 0, 2) * 1000);
      }
    };
    for (let i = 0; i < 3000; i++) {
      const a = shape();
      // Put b near a so distances are small and decisions interesting.
      const bb = bbox(a);
      const b = ((): Shape => {
        const s = shape();
        const sb = bbox(s);
        const dx = Math.round(bb.minX - sb.minX) + int(r, -2e7, 2e7),
          dy = Math.round(bb.minY - sb.minY) + int(r, -2e7, 2e7);
        return translate(s, dx, dy);
      })();
      const d = distance(a, b);
      const c = Math.round(d) + int(r, -1, 1);
      const s = compareDistance(a, b, c);
      if (Math.abs(d - c) > 1e-3) expect(s).toBe(Math.sign(d - c));
      expect(collides(a, b, Math.max(1, c))).toBe(compareDistance(a, b, Math.max(1, c)) < 0);
    }
  });
});

function clampC(v: number): number {
  return Math.max(-M, Math.min(M, v));
}

function translate(s: Shape, dx: number, dy: number): Shape {
  switch (s.kind) {
    case 'circle':
      return circle(clampC(s.x + dx), clampC(s.y + dy), s.r);
    case 'segment':
      return segment(clampC(s.ax + dx), clampC(s.ay + dy), clampC(s.bx + dx), clampC(s.by + dy), s.width);
    case 'rect':
      return rect(clampC(s.minX + dx), clampC(s.minY + dy), clampC(s.maxX + dx), clampC(s.maxY + dy), s.radius);
    case 'polygon':
      return polygon(
        Array.from(s.outline, (v, i) => clampC(v + (i % 2 === 0 ? dx : dy))),
        [],
        s.radius,
      );
    default:
      return s;
  }
}

describe('arcToPolyline', () => {
  it('keeps every chord within maxError of the arc (KiCad ERROR_INSIDE)', async () => {
    const { arcToPolyline, arcGeometry } = await import('../../../engine/geom/index.ts');
    for (const maxError of [5000, 1000, 10]) {
      const pts = arcToPolyline(5_000_000, 0, 3_000_000, -4_000_000, -5_000_000, 0, maxError); // half circle, y < 0
      const g = arcGeometry(5_000_000, 0, 3_000_000, -4_000_000, -5_000_000, 0)!;
      expect([pts[0], pts[1]]).toEqual([5_000_000, 0]);
      expect([pts[pts.length - 2], pts[pts.length - 1]]).toEqual([-5_000_000, 0]);
      for (let i = 0; i + 3 < pts.length; i += 2) {
        expect(Math.abs(Math.hypot(pts[i] - g.cx, pts[i + 1] - g.cy) - g.r)).toBeLessThanOrEqual(0.71);
        const mx = (pts[i] + pts[i + 2]) / 2,
          my = (pts[i + 1] + pts[i + 3]) / 2;
        expect(g.r - Math.hypot(mx - g.cx, my - g.cy)).toBeLessThanOrEqual(maxError + 1);
        expect(my).toBeLessThanOrEqual(0); // walks the given side, through mid
      }
    }
  });
});
