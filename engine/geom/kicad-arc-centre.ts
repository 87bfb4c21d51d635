// An arc as KiCad works it out from start, mid and end. Its centre: through the slopes of the two
// chords, then moved to the nearest multiple of 100 nm (else of 10 nm) when that lies within the
// error the points' rounding to whole nanometres could have caused, then rounded to whole
// nanometres; a direction's angle, exact on the axes and diagonals; and the arc's length from that
// centre. Checks that compare two arcs' angles (the diff-pair coupling check) need this centre, not
// the exact circumcentre: a few nanometres off it turns an angle by 1e-4°.

import { kiRound } from './units.ts';

const EPS = Number.EPSILON;

/** KiCad's centre in doubles (before rounding to whole nanometres). */
function centreOf(sx: number, sy: number, mx: number, my: number, ex: number, ey: number): [number, number] {
  const dy21 = my - sy;
  let dx21 = mx - sx;
  const dy32 = ey - my;
  let dx32 = ex - mx;
  // A mid halfway along a right angle: the centre lies midway between the ends.
  if ((dx21 === 0 && dy32 === 0) || (dy21 === 0 && dx32 === 0)) return [(sx + ex) / 2, (sy + ey) / 2];
  if (dx21 === 0) dx21 = EPS;
  if (dx32 === 0) dx32 = -EPS;
  let a = dy21 / dx21;
  let b = dy32 / dx32;
  // Each slope's uncertainty from its points' ±0.5 nm rounding, to first order.
  const da = a * Math.hypot(0.5 / dy21, 0.5 / dx21);
  const db = b * Math.hypot(0.5 / dy32, 0.5 / dx32);
  if (a === b) {
    if (sx === ex && sy === ey) return [(sx + mx) / 2, (sy + my) / 2];
    a += EPS;
    b -= EPS;
  }
  if (a === 0) a = 1e-10;
  if (b === 0) b = 1e-10;
  const h = Math.SQRT1_2;
  const t1 = a * b * (sy - ey);
  const dt1 = t1 * Math.sqrt((da / a) ** 2 + (db / b) ** 2 + (h / (sy - ey)) ** 2);
  const t2 = b * (sx + mx);
  const dt2 = t2 * Math.sqrt((db / b) ** 2 + (h / (sx + mx)) ** 2);
  const t3 = a * (mx + ex);
  const dt3 = t3 * Math.sqrt((da / a) ** 2 + (h / (mx + ex)) ** 2);
  const den = 2 * (b - a);
  const dden = 2 * Math.hypot(db, da);
  const num = t1 + t2 - t3;
  const dnum = Math.sqrt(dt1 * dt1 + dt2 * dt2 + dt3 * dt3);
  const cx = (t1 + t2 - t3) / den;
  const dcx = cx * Math.sqrt((dnum / num) ** 2 + (dden / den) ** 2);
  const ny = (sx + mx) / 2 - cx;
  const dny = Math.sqrt(1 / 8 + dcx * dcx);
  const first = ny / a;
  const dfirst = first * Math.sqrt((dny / ny) ** 2 + (da / a) ** 2);
  const cy = first + (sy + my) / 2;
  const dcy = Math.sqrt(dfirst * dfirst + 1 / 8);
  // Round numbers within the uncertainty are as true as any: prefer them (dcx may be negative,
  // as it is in KiCad, and then no round number is taken).
  for (const step of [100, 10]) {
    const rx = Math.floor((cx + step / 2) / step) * step;
    const ry = Math.floor((cy + step / 2) / step) * step;
    if (Math.abs(rx - cx) < dcx && Math.abs(ry - cy) < dcy) return [rx, ry];
  }
  return [cx, cy];
}

/** The centre KiCad gives the arc start → mid → end, in whole nanometres. */
export function kicadArcCentre(start: { x: number; y: number }, mid: { x: number; y: number }, end: { x: number; y: number }): { x: number; y: number } {
  const [cx, cy] = centreOf(start.x, start.y, mid.x, mid.y, end.x, end.y);
  return { x: kiRound(cx), y: kiRound(cy) };
}

/** The direction of (x, y) in degrees as KiCad's EDA_ANGLE gives it: exact on the axes and
 *  diagonals, atan2 elsewhere. */
export function kicadDirection(x: number, y: number): number {
  if (y === 0) return x >= 0 ? 0 : -180;
  if (x === 0) return y >= 0 ? 90 : -90;
  if (x === y) return x >= 0 ? 45 : -135;
  if (x === -y) return x >= 0 ? -45 : 135;
  return Math.atan2(y, x) / (Math.PI / 180);
}

/** An angle in degrees brought into (−180, 180]. */
const half = (a: number) => {
  let r = a % 360;
  if (r <= -180) r += 360;
  else if (r > 180) r -= 360;
  return r;
};

/** An arc track's length as KiCad gives it: the radius from KiCad's centre to the start, times
 *  the sweep from start through mid to end seen from that centre. */
export function kicadArcLength(start: { x: number; y: number }, mid: { x: number; y: number }, end: { x: number; y: number }): number {
  const c = kicadArcCentre(start, mid, end);
  const at = (p: { x: number; y: number }) => kicadDirection(p.x - c.x, p.y - c.y);
  const sweep = half(at(mid) - at(start)) + half(at(end) - at(mid));
  return Math.hypot(start.x - c.x, start.y - c.y) * Math.abs((sweep * Math.PI) / 180);
}
