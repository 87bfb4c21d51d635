import { describe, expect, it } from 'vitest';
import {
  MAX_COORD_NM as M,
  comparePointPoint,
  comparePointSegment,
  compareSegmentSegment,
  compareSquaredLengths,
  orient2d,
  pointSegmentWithin,
  segmentsCrossProperly,
  segmentsIntersect,
  segmentSegmentWithin,
} from '../../../engine/geom/index.ts';
import { int, rng } from './rng.ts';

const B = BigInt;
const sgn = (v: bigint): number => (v > 0n ? 1 : v < 0n ? -1 : 0);
const refOrient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number =>
  sgn((B(bx) - B(ax)) * (B(cy) - B(ay)) - (B(by) - B(ay)) * (B(cx) - B(ax)));

// Reference: sign(dist(P, AB) − d) in rationals (d given doubled as an integer).
function refPS(px: number, py: number, ax: number, ay: number, bx: number, by: number, d2x: number): number {
  const [PX, PY, AX, AY, BX, BY, D] = [px, py, ax, ay, bx, by, d2x].map(B);
  const ux = BX - AX,
    uy = BY - AY,
    vx = PX - AX,
    vy = PY - AY;
  const len2 = ux * ux + uy * uy;
  const dot = ux * vx + uy * vy;
  const D2 = D * D;
  if (len2 === 0n || dot <= 0n) return sgn(4n * (vx * vx + vy * vy) - D2);
  if (dot >= len2) {
    const wx = PX - BX,
      wy = PY - BY;
    return sgn(4n * (wx * wx + wy * wy) - D2);
  }
  const c = ux * vy - uy * vx;
  return sgn(4n * c * c - D2 * len2);
}

describe('orient2d', () => {
  it('has the documented sign', () => {
    expect(orient2d(0, 0, 10, 0, 5, 5)).toBe(1);
    expect(orient2d(0, 0, 10, 0, 5, -5)).toBe(-1);
    expect(orient2d(0, 0, 10, 0, 20, 0)).toBe(0);
  });
  it('is exact on near-collinear points at ±1.5e9 where doubles fail', () => {
    // a = (-M, -M + 1), b = (M, M), c on or just off the diagonal: products ≈ 9e18 > 2^53.
    const cases: [number, number, number, number, number, number][] = [
      [-M, -M, M, M, M - 1, M - 1],
      [-M, -M, M, M - 1, M - 2, M - 3],
      [-M, -M + 1, M, M, M - 3, M - 3],
      [-M, M, M, -M + 1, 1, 0],
      [M, -M, -M, M, 3, -3],
      [M - 7, -M + 3, -M + 5, M - 1, 2, 0],
    ];
    for (const c of cases) expect(orient2d(...c)).toBe(refOrient(...c));
    // k² − (k−1)(k+1) = 1, but both products round to the same double past 2^53: the plain
    // double formula says collinear, the exact answer is a left turn.
    const k = 2_500_000_002;
    const naive = k * k - (k - 1) * (k + 1);
    expect(naive).toBe(0);
    expect(orient2d(-M, -M, -M + k, -M + k - 1, -M + k + 1, -M + k)).toBe(1);
    expect(orient2d(-M, -M, -M + k + 1, -M + k, -M + k, -M + k - 1)).toBe(-1);
    const r = rng(7);
    for (let i = 0; i < 20000; i++) {
      const ax = int(r, -M, M),
        ay = int(r, -M, M),
        bx = int(r, -M, M),
        by = int(r, -M, M);
      const t = r();
      const cx = Math.round(ax + t * (bx - ax)) + int(r, -1, 1);
      const cy = Math.round(ay + t * (by - ay)) + int(r, -1, 1);
      expect(orient2d(ax, ay, bx, by, cx, cy)).toBe(refOrient(ax, ay, bx, by, cx, cy));
    }
  });
});

describe('segmentsIntersect / segmentsCrossProperly', () => {
  it('handles crossing, touching, collinear and disjoint cases', () => {
    expect(segmentsIntersect(0, 0, 10, 10, 0, 10, 10, 0)).toBe(true);
    expect(segmentsCrossProperly(0, 0, 10, 10, 0, 10, 10, 0)).toBe(true);
    expect(segmentsIntersect(0, 0, 10, 0, 10, 0, 20, 5)).toBe(true); // endpoint touch
    expect(segmentsCrossProperly(0, 0, 10, 0, 10, 0, 20, 5)).toBe(false);
    expect(segmentsIntersect(0, 0, 10, 0, 5, 0, 5, 5)).toBe(true); // T junction
    expect(segmentsCrossProperly(0, 0, 10, 0, 5, 0, 5, 5)).toBe(false);
    expect(segmentsIntersect(0, 0, 10, 0, 5, 0, 15, 0)).toBe(true); // collinear overlap
    expect(segmentsIntersect(0, 0, 10, 0, 11, 0, 15, 0)).toBe(false); // collinear gap
    expect(segmentsIntersect(0, 0, 10, 0, 0, 1, 10, 1)).toBe(false);
    expect(segmentsIntersect(3, 3, 3, 3, 0, 0, 6, 6)).toBe(true); // point on segment
    expect(segmentsIntersect(3, 4, 3, 4, 0, 0, 6, 6)).toBe(false);
  });
  it('is exact for long near-collinear segments at the limit', () => {
    // c–d passes 1 nm beside the end of a long diagonal, or through it.
    expect(segmentsIntersect(-M, -M, M, M, M, M + 0, M + 5, M - 5)).toBe(true);
    expect(segmentsIntersect(-M, -M, M - 1, M, M, M, M + 5, M - 5)).toBe(false);
    expect(segmentsIntersect(-M, -M, M, M - 1, M - 2, M - 3, M, M)).toBe(true);
    // Two diagonals 1 nm apart at one end and meeting nowhere: parallel-ish, disjoint.
    expect(segmentsIntersect(-M, -M + 1, M, M, -M, -M, M, M - 1)).toBe(false);
    // Crossing near the middle at a shallow angle.
    expect(segmentsIntersect(-M, -M + 1, M, M - 1, -M, -M, M, M)).toBe(true);
    expect(segmentsCrossProperly(-M, -M + 1, M, M - 1, -M, -M, M, M)).toBe(true);
    // Adversarial: c lies 1/(2.5e9)-ish off a–b; doubles would call it collinear.
    const k = 2_500_000_002;
    expect(segmentsIntersect(-M, -M, -M + k, -M + k - 1, -M + k + 1, -M + k, -M + k + 2, -M + k + 2)).toBe(false);
  });
});

describe('distance comparisons', () => {
  it('treat exactly-d as not closer (KiCad: violation only when actual < clearance)', () => {
    expect(comparePointPoint(0, 0, 3, 4, 5)).toBe(0);
    expect(comparePointPoint(0, 0, 3, 4, 5.5)).toBe(-1);
    expect(comparePointSegment(5, 200, 0, 0, 10, 0, 200)).toBe(0);
    expect(pointSegmentWithin(5, 200, 0, 0, 10, 0, 200)).toBe(false);
    expect(pointSegmentWithin(5, 199, 0, 0, 10, 0, 200)).toBe(true);
    expect(segmentSegmentWithin(0, 0, 10, 0, 0, 100, 10, 100, 100)).toBe(false);
    expect(segmentSegmentWithin(0, 0, 10, 0, 0, 100, 10, 99, 100)).toBe(true);
    expect(compareSegmentSegment(0, 0, 10, 0, 0, 100, 10, 100, 100)).toBe(0);
  });
  it('support half-nm thresholds (half of an odd width)', () => {
    expect(comparePointPoint(0, 0, 0, 3, 2.5)).toBe(1);
    expect(comparePointPoint(0, 0, 0, 2, 2.5)).toBe(-1);
    expect(() => comparePointPoint(0, 0, 0, 2, 2.25)).toThrow(/multiple of 0.5/);
  });
  it('touching or crossing segments are at distance 0', () => {
    expect(compareSegmentSegment(0, 0, 10, 10, 0, 10, 10, 0, 0)).toBe(0);
    expect(compareSegmentSegment(0, 0, 10, 10, 0, 10, 10, 0, 1)).toBe(-1);
    expect(compareSegmentSegment(0, 0, 10, 0, 0, 1, 10, 1, 0)).toBe(1);
  });
  it('is exact at 3-4-5 distances scaled to the coordinate limit', () => {
    // |(−9e8, −1.2e9) − (9e8... )|: pick P, Q with distance exactly 1.5e9·2 = 3e9? Use 3-4-5 × 6e8.
    expect(comparePointPoint(-M, -M, -M + 1_800_000_000, -M + 2_400_000_000, 3_000_000_000)).toBe(0);
    expect(comparePointPoint(-M, -M, -M + 1_800_000_000, -M + 2_400_000_000, 2_999_999_999.5)).toBe(1);
    expect(comparePointPoint(-M, -M, -M + 1_800_000_000, -M + 2_399_999_999, 3_000_000_000)).toBe(-1);
    // Point at exact perpendicular distance from a long diagonal segment (3-4-5 direction).
    const [ax, ay, bx, by] = [-M, -M, -M + 3 * 900_000_000, -M + 4 * 700_000_000 + 0];
    void bx;
    void by;
    const ux = 3 * 600_000_000,
      uy = 4 * 600_000_000; // direction (3,4), length 3e9
    const px = ax + ux / 2 - 4 * 1000,
      py = ay + uy / 2 + 3 * 1000; // 5000 nm to the left
    expect(comparePointSegment(px, py, ax, ay, ax + ux, ay + uy, 5000)).toBe(0);
    expect(comparePointSegment(px, py, ax, ay, ax + ux, ay + uy, 5000.5)).toBe(-1);
    expect(comparePointSegment(px, py, ax, ay, ax + ux, ay + uy, 4999.5)).toBe(1);
  });
  it('matches a BigInt reference on adversarial random cases', () => {
    const r = rng(11);
    for (let i = 0; i < 20000; i++) {
      const ax = int(r, -M, M),
        ay = int(r, -M, M),
        bx = int(r, -M, M),
        by = int(r, -M, M);
      const t = r();
      // P near the segment's line, at a distance close to the threshold.
      const d2x = int(r, 0, 2_000_000);
      const len = Math.hypot(bx - ax, by - ay) || 1;
      const off = d2x / 2 + int(r, -2, 2);
      const px = Math.round(ax + t * (bx - ax) - ((by - ay) / len) * off);
      const py = Math.round(ay + t * (by - ay) + ((bx - ax) / len) * off);
      if (Math.abs(px) > M || Math.abs(py) > M) continue;
      expect(comparePointSegment(px, py, ax, ay, bx, by, d2x / 2)).toBe(refPS(px, py, ax, ay, bx, by, d2x));
    }
  });
  it('compareSquaredLengths is exact past 2^53', () => {
    expect(compareSquaredLengths(0, 0, M, M, 0, 0, M, M)).toBe(0);
    expect(compareSquaredLengths(-M, -M, M, M, -M, -M, M, M - 1)).toBe(1);
    // 3e9² + 1 vs 3e9²: differ by less than an ulp at 9e18.
    expect(compareSquaredLengths(-M, 0, M, 1, -M, 0, M, 0)).toBe(1);
  });
});
