import { describe, expect, it } from 'vitest';
import {
  MAX_COORD_NM as M,
  comparePolygonPolygon,
  comparePolygonSegment,
  convexHull,
  pointInPolygon,
  pointInRing,
  polygon,
  polygonArea,
  polygonPolygonDistance,
  polygonSegmentDistance,
  ringArea2,
  ringOrientation,
} from '../../../engine/geom/index.ts';

const sq = Float64Array.of(0, 0, 10, 0, 10, 10, 0, 10);

describe('point in polygon', () => {
  it('classifies inside, boundary (edges and vertices) and outside', () => {
    expect(pointInRing(sq, 5, 5)).toBe(1);
    expect(pointInRing(sq, 0, 5)).toBe(0);
    expect(pointInRing(sq, 5, 10)).toBe(0);
    expect(pointInRing(sq, 10, 10)).toBe(0);
    expect(pointInRing(sq, 0, 0)).toBe(0);
    expect(pointInRing(sq, 11, 5)).toBe(-1);
    expect(pointInRing(sq, -1, 10)).toBe(-1);
    expect(pointInRing(sq, 5, -0)).toBe(0);
  });
  it('handles rays through vertices of non-convex rings', () => {
    const zig = Float64Array.of(0, 0, 4, 4, 8, 0, 8, 8, 0, 8);
    expect(pointInRing(zig, 2, 4)).toBe(1); // ray along y = 4 passes the reflex vertex (4, 4)
    expect(pointInRing(zig, 4, 2)).toBe(-1);
    expect(pointInRing(zig, 4, 4)).toBe(0);
    expect(pointInRing(zig, -1, 4)).toBe(-1);
  });
  it('respects holes: the hole boundary belongs to the material', () => {
    const p = polygon([0, 0, 100, 0, 100, 100, 0, 100], [[40, 40, 60, 40, 60, 60, 40, 60]]);
    expect(pointInPolygon(p, 50, 50)).toBe(-1);
    expect(pointInPolygon(p, 40, 50)).toBe(0);
    expect(pointInPolygon(p, 20, 50)).toBe(1);
  });
  it('is exact for a sliver at the coordinate limit', () => {
    const thin = Float64Array.of(-M, -M, M, M - 1, M, M);
    expect(pointInRing(thin, M - 1, M - 1)).toBe(0); // on the edge from (−M,−M) to (M,M)
    expect(pointInRing(thin, 0, 0)).toBe(0);
    expect(pointInRing(thin, 1, 0)).toBe(-1); // below the thin wedge... just off it
    expect(pointInRing(thin, M - 1, M - 2)).toBe(-1);
  });
});

describe('area, orientation, hull', () => {
  it('computes signed area and orientation', () => {
    expect(ringArea2(sq)).toBe(200);
    expect(ringOrientation(sq)).toBe(1);
    expect(
      ringOrientation(
        sq
          .slice()
          .reverse()
          .map((_, i, a) => a[i ^ 1]),
      ),
    ).toBe(-1);
    expect(polygonArea(polygon([0, 0, 100, 0, 100, 100, 0, 100], [[40, 40, 60, 40, 60, 60, 40, 60]]))).toBe(9600);
  });
  it('orientation is exact for a nearly flat triangle at the limit', () => {
    const k = 2_500_000_002;
    const t = Float64Array.of(-M, -M, -M + k, -M + k - 1, -M + k + 1, -M + k);
    expect(ringOrientation(t)).toBe(1);
  });
  it('convex hull drops interior and collinear points', () => {
    const h = convexHull([0, 0, 10, 0, 5, 0, 10, 10, 0, 10, 5, 5, 0, 5]);
    expect(Array.from(h)).toEqual([0, 0, 10, 0, 10, 10, 0, 10]);
    expect(ringOrientation(h)).toBe(1);
    expect(Array.from(convexHull([3, 3, 3, 3]))).toEqual([3, 3]);
  });
});

describe('polygon distances', () => {
  it('segment and polygon distances with containment', () => {
    const p = polygon([0, 0, 100, 0, 100, 100, 0, 100]);
    expect(polygonSegmentDistance(p, 150, 50, 300, 50)).toBe(50);
    expect(polygonSegmentDistance(p, 10, 10, 20, 20)).toBe(0);
    expect(polygonSegmentDistance(p, -10, 50, 110, 50)).toBe(0);
    expect(comparePolygonSegment(p, 150, 50, 300, 50, 50)).toBe(0);
    expect(comparePolygonSegment(p, 150, 50, 300, 50, 50.5)).toBe(-1);
    const q = polygon([200, 0, 300, 0, 300, 100]);
    expect(polygonPolygonDistance(p, q)).toBe(100);
    expect(comparePolygonPolygon(p, q, 100)).toBe(0);
    expect(comparePolygonPolygon(p, polygon([10, 10, 20, 10, 20, 20]), 1)).toBe(-1);
  });
});

describe('large polygons (edge index path)', () => {
  // A star with 400 spikes and two star-shaped holes: non-convex, many edges.
  function star(cx: number, cy: number, n: number, r0: number, r1: number, phase: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < 2 * n; i++) {
      const a = phase + (Math.PI * i) / n;
      const r = i % 2 === 0 ? r1 : r0;
      out.push(Math.round(cx + r * Math.cos(a)), Math.round(cy + r * Math.sin(a)));
    }
    return out;
  }
  const outline = star(0, 0, 400, 80_000_000, 100_000_000, 0);
  const holes = [star(-30_000_000, 0, 60, 8_000_000, 12_000_000, 0.1), star(30_000_000, 5_000_000, 60, 8_000_000, 12_000_000, 0.2)];
  const p = polygon(outline, holes);
  const refPIP = (x: number, y: number): number => {
    const s = pointInRing(p.outline, x, y);
    if (s <= 0) return s;
    for (const h of p.holes) {
      const t = pointInRing(h, x, y);
      if (t === 0) return 0;
      if (t > 0) return -1;
    }
    return 1;
  };
  const allEdges: number[][] = [];
  for (const ring of [p.outline, ...p.holes]) {
    const n = ring.length;
    for (let i = 0; i < n; i += 2) allEdges.push([ring[i], ring[i + 1], ring[(i + 2) % n], ring[(i + 3) % n]]);
  }
  it('point in polygon agrees with the ring scan, including vertices and edge points', async () => {
    const { int, rng } = await import('./rng.ts');
    const r = rng(9);
    for (let i = 0; i < 3000; i++) {
      let x: number, y: number;
      if (i % 3 === 0) {
        const e = allEdges[int(r, 0, allEdges.length - 1)];
        [x, y] = i % 2 === 0 ? [e[0], e[1]] : [Math.round((e[0] + e[2]) / 2), Math.round((e[1] + e[3]) / 2)];
      } else {
        x = int(r, -110_000_000, 110_000_000);
        y = int(r, -110_000_000, 110_000_000);
      }
      expect(pointInPolygon(p, x, y)).toBe(refPIP(x, y));
    }
  });
  it('segment closer-than-d agrees with a brute-force edge scan', async () => {
    const { compareSegmentSegment } = await import('../../../engine/geom/index.ts');
    const { int, rng } = await import('./rng.ts');
    const r = rng(10);
    for (let i = 0; i < 1000; i++) {
      const ax = int(r, -110_000_000, 110_000_000),
        ay = int(r, -110_000_000, 110_000_000);
      const bx = ax + int(r, -3_000_000, 3_000_000),
        by = ay + int(r, -3_000_000, 3_000_000);
      const d = int(r, 0, 4_000_000);
      let want = refPIP(ax, ay) >= 0 ? (d > 0 ? -1 : 0) : 1;
      if (want === 1) for (const e of allEdges) want = Math.min(want, compareSegmentSegment(e[0], e[1], e[2], e[3], ax, ay, bx, by, d));
      expect(comparePolygonSegment(p, ax, ay, bx, by, d)).toBe(want);
    }
  });
  it("polygon against polygon uses the bigger one's index and stays exact", () => {
    const small = polygon([1_000_000, 100_500_000, 5_000_000, 100_500_000, 5_000_000, 104_000_000]); // just outside a spike
    const ref = Math.min(...allEdges.map((e) => polygonSegmentDistance(small, e[0], e[1], e[2], e[3])));
    expect(ref).toBeGreaterThan(0);
    expect(polygonPolygonDistance(p, small)).toBeCloseTo(ref, 6);
    const d = Math.ceil(ref);
    expect(comparePolygonPolygon(p, small, d)).toBe(ref < d ? -1 : 0);
    expect(comparePolygonPolygon(small, p, Math.floor(ref))).toBe(ref > Math.floor(ref) ? 1 : 0);
  });
});
