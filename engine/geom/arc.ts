// Circular arcs given as KiCad gives them (start, mid, end; integer nm): centre, radius and
// sweep, nearest points to points, segments and other arcs, and polyline approximation.
// Arc geometry is evaluated in doubles (the centre is generally not an integer point), so the
// results are accurate to a tiny fraction of a nm but not exact; see collide.ts.

import { nearestOnSegment, offer, type NearestPair } from './nearest.ts';
import { orient2d } from './predicates.ts';
import { kicadArcLength } from './kicad-arc-centre.ts';
import { kiRound } from './units.ts';

const TWO_PI = 2 * Math.PI;
// Angular slack when asking whether a direction lies on the arc's sweep: about 1e-12 rad is
// 1.5e-3 nm at a 1.5e9 nm radius, far below anything that matters, and it keeps endpoints
// (whose angles are recomputed) on the arc.
const ANGLE_SLACK = 1e-12;

/** Derived circle data of an arc: centre (double nm), radius (nm), start angle a0 (radians,
 *  atan2 of board coordinates) and sweep ≥ 0 going from a0 towards increasing angle. */
export interface ArcGeometry {
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  readonly a0: number;
  readonly sweep: number;
  /** True when start → mid → end runs towards increasing angle (so a0 is the start's angle). */
  readonly ccw: boolean;
}

/**
 * Circle through start, mid and end (integer nm). Returns undefined when the three points are
 * collinear and start ≠ end (a straight "arc": callers treat it as a segment start–end).
 * start === end is a full circle whose diameter is start–mid (KiCad's convention).
 */
export function arcGeometry(sx: number, sy: number, mx: number, my: number, ex: number, ey: number): ArcGeometry | undefined {
  if (sx === ex && sy === ey) {
    const cx = (sx + mx) / 2;
    const cy = (sy + my) / 2;
    return { cx, cy, r: Math.hypot(sx - cx, sy - cy), a0: Math.atan2(sy - cy, sx - cx), sweep: TWO_PI, ccw: true };
  }
  const turn = orient2d(sx, sy, mx, my, ex, ey);
  if (turn === 0) return undefined;
  // Circumcentre relative to start, as exact rationals in BigInt then divided once: a nearly
  // straight arc has a tiny denominator that doubles would get badly wrong (its centre may lie
  // 1e12 nm away), while this keeps the centre to a few ulps.
  const bx = BigInt(mx - sx),
    by = BigInt(my - sy),
    qx = BigInt(ex - sx),
    qy = BigInt(ey - sy);
  const den = 2n * (bx * qy - by * qx);
  const b2 = bx * bx + by * by;
  const q2 = qx * qx + qy * qy;
  const dn = Number(den);
  const ux = Number(qy * b2 - by * q2) / dn;
  const uy = Number(bx * q2 - qx * b2) / dn;
  const cx = sx + ux;
  const cy = sy + uy;
  const r = Math.hypot(ux, uy);
  const as = Math.atan2(sy - cy, sx - cx);
  const ae = Math.atan2(ey - cy, ex - cx);
  // turn > 0: start→mid→end turns towards increasing atan2 angle.
  let a0: number;
  let sweep: number;
  if (turn > 0) {
    a0 = as;
    sweep = ae - as;
  } else {
    a0 = ae;
    sweep = as - ae;
  }
  if (sweep <= 0) sweep += TWO_PI;
  return { cx, cy, r, a0, sweep, ccw: turn > 0 };
}

/** True when the direction θ (radians) from the centre falls on the arc's sweep. */
export function arcHasAngle(g: ArcGeometry, theta: number): boolean {
  if (g.sweep >= TWO_PI) return true;
  let t = (theta - g.a0) % TWO_PI;
  if (t < 0) t += TWO_PI;
  return t <= g.sweep + ANGLE_SLACK || t >= TWO_PI - ANGLE_SLACK;
}

/** Nearest arc point to (px, py) offered into out as (arc point, p). */
export function nearestArcPoint(g: ArcGeometry, ends: readonly number[], px: number, py: number, out: NearestPair, arcFirst: boolean): void {
  const vx = px - g.cx;
  const vy = py - g.cy;
  const len = Math.hypot(vx, vy);
  if (len > 0) {
    const theta = Math.atan2(vy, vx);
    if (arcHasAngle(g, theta)) {
      const qx = g.cx + (vx / len) * g.r;
      const qy = g.cy + (vy / len) * g.r;
      if (arcFirst) offer(out, qx, qy, px, py);
      else offer(out, px, py, qx, qy);
      return;
    }
  } else {
    // At the centre every arc point is at distance r; the start will do.
    if (arcFirst) offer(out, ends[0], ends[1], px, py);
    else offer(out, px, py, ends[0], ends[1]);
    return;
  }
  if (arcFirst) {
    offer(out, ends[0], ends[1], px, py);
    offer(out, ends[2], ends[3], px, py);
  } else {
    offer(out, px, py, ends[0], ends[1]);
    offer(out, px, py, ends[2], ends[3]);
  }
}

/**
 * Nearest pair between segment a–b and the arc, offered into out as (segment point, arc point).
 * Candidates: crossings (distance 0); each end of either against the other; and the radial
 * line through the foot of the perpendicular from the centre, the only place where the
 * interiors of both can hold a nearest pair.
 */
export function nearestSegmentArc(ax: number, ay: number, bx: number, by: number, g: ArcGeometry, ends: readonly number[], out: NearestPair): void {
  const ux = bx - ax;
  const uy = by - ay;
  const len2 = ux * ux + uy * uy;
  if (len2 === 0) {
    nearestArcPoint(g, ends, ax, ay, out, false);
    return;
  }
  // Line–circle crossings: |a + t·u − c|² = r².
  const fx = ax - g.cx;
  const fy = ay - g.cy;
  const B = fx * ux + fy * uy;
  const C = fx * fx + fy * fy - g.r * g.r;
  const disc = B * B - len2 * C;
  if (disc >= 0) {
    const sq = Math.sqrt(disc);
    for (const t of [(-B - sq) / len2, (-B + sq) / len2]) {
      if (t >= 0 && t <= 1) {
        const x = ax + t * ux;
        const y = ay + t * uy;
        if (arcHasAngle(g, Math.atan2(y - g.cy, x - g.cx))) {
          offer(out, x, y, x, y);
          return;
        }
      }
    }
  }
  nearestArcPoint(g, ends, ax, ay, out, false);
  nearestArcPoint(g, ends, bx, by, out, false);
  for (let k = 0; k < 4; k += 2) {
    const [qx, qy] = nearestOnSegment(ax, ay, bx, by, ends[k], ends[k + 1]);
    offer(out, qx, qy, ends[k], ends[k + 1]);
  }
  const t = -B / len2;
  if (t > 0 && t < 1) {
    const px = ax + t * ux;
    const py = ay + t * uy;
    const vx = px - g.cx;
    const vy = py - g.cy;
    const len = Math.hypot(vx, vy);
    if (len > 0) {
      for (const sgn of [1, -1]) {
        const qx = g.cx + (sgn * vx * g.r) / len;
        const qy = g.cy + (sgn * vy * g.r) / len;
        if (arcHasAngle(g, Math.atan2(qy - g.cy, qx - g.cx))) offer(out, px, py, qx, qy);
      }
    }
  }
}

/**
 * Nearest pair between two arcs, offered into out as (point of first, point of second).
 * Candidates: circle crossings on both sweeps (distance 0); ends against the other arc; and
 * the pairs on the line through both centres (where interior nearest pairs must lie).
 */
export function nearestArcArc(g: ArcGeometry, ge: readonly number[], h: ArcGeometry, he: readonly number[], out: NearestPair): void {
  const dx = h.cx - g.cx;
  const dy = h.cy - g.cy;
  const dc = Math.hypot(dx, dy);
  if (dc > 0 && dc <= g.r + h.r && dc >= Math.abs(g.r - h.r)) {
    // Two crossings of the circles, symmetric about the centre line.
    const a = (dc * dc + g.r * g.r - h.r * h.r) / (2 * dc);
    const hh = Math.sqrt(Math.max(0, g.r * g.r - a * a));
    const mx = g.cx + (a * dx) / dc;
    const my = g.cy + (a * dy) / dc;
    for (const sgn of [1, -1]) {
      const x = mx - (sgn * hh * dy) / dc;
      const y = my + (sgn * hh * dx) / dc;
      if (arcHasAngle(g, Math.atan2(y - g.cy, x - g.cx)) && arcHasAngle(h, Math.atan2(y - h.cy, x - h.cx))) {
        offer(out, x, y, x, y);
        return;
      }
    }
  }
  nearestArcPoint(h, he, ge[0], ge[1], out, false);
  nearestArcPoint(h, he, ge[2], ge[3], out, false);
  // Second arc's ends against the first: offered as (first-arc point, end).
  nearestArcPoint(g, ge, he[0], he[1], out, true);
  nearestArcPoint(g, ge, he[2], he[3], out, true);
  if (dc > 0) {
    const ux = dx / dc;
    const uy = dy / dc;
    for (const s of [1, -1]) {
      const px = g.cx + s * ux * g.r;
      const py = g.cy + s * uy * g.r;
      if (!arcHasAngle(g, Math.atan2(s * uy, s * ux))) continue;
      for (const t of [1, -1]) {
        const qx = h.cx + t * ux * h.r;
        const qy = h.cy + t * uy * h.r;
        if (arcHasAngle(h, Math.atan2(t * uy, t * ux))) offer(out, px, py, qx, qy);
      }
    }
  } else {
    // Concentric: wherever the sweeps overlap the gap is |r1 − r2| along a shared direction.
    for (const theta of [g.a0, g.a0 + g.sweep, h.a0, h.a0 + h.sweep]) {
      if (arcHasAngle(g, theta) && arcHasAngle(h, theta)) {
        const c = Math.cos(theta);
        const s = Math.sin(theta);
        offer(out, g.cx + c * g.r, g.cy + s * g.r, h.cx + c * h.r, h.cy + s * h.r);
      }
    }
  }
}

/** Bounding box of the arc's centre line (doubles): ends plus the axis extremes it sweeps. */
export function arcBounds(g: ArcGeometry, ends: readonly number[]): [number, number, number, number] {
  let minX = Math.min(ends[0], ends[2]);
  let maxX = Math.max(ends[0], ends[2]);
  let minY = Math.min(ends[1], ends[3]);
  let maxY = Math.max(ends[1], ends[3]);
  if (arcHasAngle(g, 0)) maxX = g.cx + g.r;
  if (arcHasAngle(g, Math.PI / 2)) maxY = g.cy + g.r;
  if (arcHasAngle(g, Math.PI)) minX = g.cx - g.r;
  if (arcHasAngle(g, -Math.PI / 2)) minY = g.cy - g.r;
  return [minX, minY, maxX, maxY];
}

/**
 * Polyline through the arc with chord error at most maxError nm (points on the arc, chords
 * inside it, like KiCad's ERROR_INSIDE), as integer nm x,y pairs from start to end. Rounding
 * the vertices to integers adds at most 0.71 nm. maxError defaults to KiCad's 5000 nm.
 */
export function arcToPolyline(sx: number, sy: number, mx: number, my: number, ex: number, ey: number, maxError = 5000): Float64Array {
  const g = arcGeometry(sx, sy, mx, my, ex, ey);
  if (g === undefined) return Float64Array.of(sx, sy, ex, ey);
  const err = Math.min(Math.max(maxError, 1), g.r);
  // Sagitta of a chord spanning angle φ is r(1 − cos(φ/2)); keep it ≤ err.
  const step = 2 * Math.acos(1 - err / g.r);
  const n = Math.max(1, Math.ceil(g.sweep / step - 1e-9));
  const out = new Float64Array(2 * (n + 1));
  // Walk from the given start, whichever way the sweep runs.
  const aStart = Math.atan2(sy - g.cy, sx - g.cx);
  const dir = g.ccw ? 1 : -1;
  for (let i = 0; i <= n; i++) {
    const a = aStart + (dir * g.sweep * i) / n;
    out[2 * i] = kiRound(g.cx + g.r * Math.cos(a));
    out[2 * i + 1] = kiRound(g.cy + g.r * Math.sin(a));
  }
  out[0] = sx;
  out[1] = sy;
  out[2 * n] = ex;
  out[2 * n + 1] = ey;
  return out;
}

/** Length (nm, a double: for reports and totals, never for decisions) of a track from `start` to
 *  `end`, an arc through `mid` when it has one, as KiCad measures it (kicad-arc-centre.ts: its
 *  centre may lie some nanometres off the true one, and its lengths follow it). */
export function trackLength(t: { start: { x: number; y: number }; end: { x: number; y: number }; mid?: { x: number; y: number } }): number {
  const g = t.mid ? arcGeometry(t.start.x, t.start.y, t.mid.x, t.mid.y, t.end.x, t.end.y) : undefined;
  if (!g) return Math.hypot(t.end.x - t.start.x, t.end.y - t.start.y);
  return g.sweep >= TWO_PI ? g.r * g.sweep : kicadArcLength(t.start, t.mid!, t.end);
}
