// Nearest pairs between points and segments in doubles, for reporting distances and marker
// positions. Decisions never come from here: exact comparisons live in predicates.ts.

import { segmentsIntersect } from './predicates.ts';

/** Mutable nearest-pair record: distance d (nm, double) between point (ax, ay) of the first
 *  operand and (bx, by) of the second. Reused across candidates to avoid allocation. */
export interface NearestPair {
  d: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

/** A record with d = Infinity, ready to be offered candidates. */
export function newPair(): NearestPair {
  return { d: Infinity, ax: 0, ay: 0, bx: 0, by: 0 };
}

/** Keeps the candidate pair if it is nearer than what out holds. */
export function offer(out: NearestPair, ax: number, ay: number, bx: number, by: number): void {
  const d = Math.hypot(bx - ax, by - ay);
  if (d < out.d) {
    out.d = d;
    out.ax = ax;
    out.ay = ay;
    out.bx = bx;
    out.by = by;
  }
}

/** Nearest point of segment a–b to (px, py), doubles. */
export function nearestOnSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): [number, number] {
  const ux = bx - ax;
  const uy = by - ay;
  const len2 = ux * ux + uy * uy;
  if (len2 === 0) return [ax, ay];
  const t = ((px - ax) * ux + (py - ay) * uy) / len2;
  if (t <= 0) return [ax, ay];
  if (t >= 1) return [bx, by];
  return [ax + t * ux, ay + t * uy];
}

/** Offers the pair (p, nearest point of segment a–b). */
export function nearestPointSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number, out: NearestPair): void {
  const [qx, qy] = nearestOnSegment(ax, ay, bx, by, px, py);
  offer(out, px, py, qx, qy);
}

/** Offers the nearest pair between segments a–b and c–d (a point of a–b first). Touching or
 *  crossing segments (decided exactly) give distance 0 at a shared point. */
export function nearestSegmentSegment(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number, out: NearestPair): void {
  if (segmentsIntersect(ax, ay, bx, by, cx, cy, dx, dy)) {
    const ux = bx - ax,
      uy = by - ay,
      vx = dx - cx,
      vy = dy - cy;
    const den = ux * vy - uy * vx;
    if (den !== 0) {
      const t = Math.min(1, Math.max(0, ((cx - ax) * vy - (cy - ay) * vx) / den));
      const x = ax + t * ux;
      const y = ay + t * uy;
      offer(out, x, y, x, y);
      return;
    }
    // Parallel and touching: some endpoint lies on the other segment; the nearest of the
    // endpoint candidates below is that one, at distance 0.
  }
  let [qx, qy] = nearestOnSegment(cx, cy, dx, dy, ax, ay);
  offer(out, ax, ay, qx, qy);
  [qx, qy] = nearestOnSegment(cx, cy, dx, dy, bx, by);
  offer(out, bx, by, qx, qy);
  [qx, qy] = nearestOnSegment(ax, ay, bx, by, cx, cy);
  offer(out, qx, qy, cx, cy);
  [qx, qy] = nearestOnSegment(ax, ay, bx, by, dx, dy);
  offer(out, qx, qy, dx, dy);
}
