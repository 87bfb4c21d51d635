// Exact geometric predicates on integer nm coordinates: orientation, segment intersection, and
// "is this distance < d" comparisons. Everything that decides a clearance goes through here.
// Method: evaluate in doubles, and recompute in BigInt only when a forward error bound says the
// double's sign may be wrong. No square roots: distances are compared squared.
//
// Domain: coordinates are integers with |v| ≤ 2^51 (boards use ±1.5e9), so every coordinate
// difference is exact in a double; a distance threshold d may be an integer or a half-integer
// (half a track width), d ≥ 0 unless stated.

/** -1, 0 or 1. */
export type Sign = -1 | 0 | 1;

// Forward error bound for a +,-,× expression tree of depth k evaluated in doubles from exact
// inputs: |computed − exact| ≤ γ_k · M, where M is the same tree evaluated on absolute values
// with every − turned into + and γ_k = kε/(1−kε), ε = 2^-53. Our trees have depth ≤ 8, so
// γ_8 < 9e-16; 1e-14 leaves a wide margin for the rounding of M·REL itself.
const REL = 1e-14;
// When M ≤ 2^50 every intermediate is a multiple of 1/4 (thresholds may be half-integers, so
// their squares are quarters) of magnitude ≤ M: the double result is exact.
const EXACT_LIMIT = 2 ** 50;

function signOfNumber(v: number): Sign {
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

function signOfBig(v: bigint): Sign {
  return v > 0n ? 1 : v < 0n ? -1 : 0;
}

/** Sign of value if the bound proves it, else undefined (the caller recomputes exactly). */
function filtered(value: number, magnitude: number): Sign | undefined {
  if (magnitude <= EXACT_LIMIT) return signOfNumber(value);
  const bound = magnitude * REL;
  if (value > bound) return 1;
  if (value < -bound) return -1;
  return undefined;
}

/**
 * Orientation of c relative to the directed line a→b: the sign of (b−a)×(c−a).
 * +1 when c lies to the left of a→b in a y-up frame (counter-clockwise turn a→b→c in math axes;
 * on KiCad's y-down screen that turn looks clockwise), −1 to the right, 0 when collinear.
 */
export function orient2d(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): Sign {
  const l = (bx - ax) * (cy - ay);
  const r = (by - ay) * (cx - ax);
  const s = filtered(l - r, Math.abs(l) + Math.abs(r));
  if (s !== undefined) return s;
  return signOfBig(BigInt(bx - ax) * BigInt(cy - ay) - BigInt(by - ay) * BigInt(cx - ax));
}

/** Sign of the dot product (b−a)·(c−a): +1 when c projects ahead of a along a→b. */
export function dotSign(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): Sign {
  const l = (bx - ax) * (cx - ax);
  const r = (by - ay) * (cy - ay);
  const s = filtered(l + r, Math.abs(l) + Math.abs(r));
  if (s !== undefined) return s;
  return signOfBig(BigInt(bx - ax) * BigInt(cx - ax) + BigInt(by - ay) * BigInt(cy - ay));
}

// Is (px, py) inside the axis-aligned box of segment a–b? Used only after a collinearity test.
function inBox(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return px >= Math.min(ax, bx) && px <= Math.max(ax, bx) && py >= Math.min(ay, by) && py <= Math.max(ay, by);
}

/** True when the closed segments a–b and c–d share at least one point (crossing, touching,
 *  an endpoint on the other, or collinear overlap). Degenerate segments (points) are allowed. */
export function segmentsIntersect(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  // Cheap box rejection first: most pairs in a DRC sweep are far apart.
  if (Math.max(ax, bx) < Math.min(cx, dx) || Math.max(cx, dx) < Math.min(ax, bx)) return false;
  if (Math.max(ay, by) < Math.min(cy, dy) || Math.max(cy, dy) < Math.min(ay, by)) return false;
  const o1 = orient2d(ax, ay, bx, by, cx, cy);
  const o2 = orient2d(ax, ay, bx, by, dx, dy);
  const o3 = orient2d(cx, cy, dx, dy, ax, ay);
  const o4 = orient2d(cx, cy, dx, dy, bx, by);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  if (o1 === 0 && inBox(ax, ay, bx, by, cx, cy)) return true;
  if (o2 === 0 && inBox(ax, ay, bx, by, dx, dy)) return true;
  if (o3 === 0 && inBox(cx, cy, dx, dy, ax, ay)) return true;
  if (o4 === 0 && inBox(cx, cy, dx, dy, bx, by)) return true;
  return false;
}

/** True when the segments cross at a single point interior to both (a proper crossing: no
 *  endpoint lies on the other segment). KiCad reports such pairs as "tracks crossing". */
export function segmentsCrossProperly(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const o1 = orient2d(ax, ay, bx, by, cx, cy);
  const o2 = orient2d(ax, ay, bx, by, dx, dy);
  if (o1 * o2 >= 0) return false;
  const o3 = orient2d(cx, cy, dx, dy, ax, ay);
  const o4 = orient2d(cx, cy, dx, dy, bx, by);
  return o3 * o4 < 0;
}

function checkThreshold(d: number): void {
  if (!Number.isInteger(2 * d)) throw new RangeError(`distance threshold must be a multiple of 0.5 nm, got ${d}`);
}

// Sign of dist − d when dist is 0.
function zeroVersus(d: number): Sign {
  return d > 0 ? -1 : d < 0 ? 1 : 0;
}

/** Sign of (|PQ| − d), exactly: −1 closer than d, 0 exactly d, +1 farther. d: nm, k/2. */
export function comparePointPoint(px: number, py: number, qx: number, qy: number, d: number): Sign {
  checkThreshold(d);
  if (d < 0) return 1;
  return cmpPP(qx - px, qy - py, d);
}

// dx, dy are exact differences; d ≥ 0 a half-integer.
function cmpPP(dx: number, dy: number, d: number): Sign {
  const a = dx * dx;
  const b = dy * dy;
  const dd = d * d;
  const s = filtered(a + b - dd, a + b + dd);
  if (s !== undefined) return s;
  const X = BigInt(dx);
  const Y = BigInt(dy);
  const D2 = BigInt(2 * d);
  return signOfBig(4n * (X * X + Y * Y) - D2 * D2);
}

/** Sign of (distance from P to the closed segment AB − d), exactly. d: nm, integer or half. */
export function comparePointSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number, d: number): Sign {
  checkThreshold(d);
  if (d < 0) return 1;
  return cmpPS(px, py, ax, ay, bx, by, d);
}

function cmpPS(px: number, py: number, ax: number, ay: number, bx: number, by: number, d: number): Sign {
  if (ax === bx && ay === by) return cmpPP(px - ax, py - ay, d);
  // The nearest point is A, B or the foot of the perpendicular, decided by exact dot signs.
  if (dotSign(ax, ay, bx, by, px, py) <= 0) return cmpPP(px - ax, py - ay, d);
  if (dotSign(bx, by, ax, ay, px, py) <= 0) return cmpPP(px - bx, py - by, d);
  const ux = bx - ax;
  const uy = by - ay;
  const vx = px - ax;
  const vy = py - ay;
  // dist² = cross² / len²; compare cross² with d²·len² to stay in integers.
  const l = ux * vy;
  const r = uy * vx;
  const cross = l - r;
  const len2 = ux * ux + uy * uy;
  const dd = d * d;
  const cm = Math.abs(l) + Math.abs(r);
  const s = filtered(cross * cross - dd * len2, cm * cm + dd * len2);
  if (s !== undefined) return s;
  const c = BigInt(ux) * BigInt(vy) - BigInt(uy) * BigInt(vx);
  const D2 = BigInt(2 * d);
  const L2 = BigInt(ux) * BigInt(ux) + BigInt(uy) * BigInt(uy);
  return signOfBig(4n * c * c - D2 * D2 * L2);
}

/** Sign of (distance between closed segments AB and CD − d), exactly. d: nm, integer or half. */
export function compareSegmentSegment(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number, d: number): Sign {
  checkThreshold(d);
  if (d < 0) return 1;
  return cmpSS(ax, ay, bx, by, cx, cy, dx, dy, d);
}

function cmpSS(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number, d: number): Sign {
  if (segmentsIntersect(ax, ay, bx, by, cx, cy, dx, dy)) return zeroVersus(d);
  // Disjoint segments: the nearest pair always has an endpoint of one of them, and the sign of
  // (min of four distances − d) is the min of the four signs.
  let best = cmpPS(ax, ay, cx, cy, dx, dy, d);
  if (best < 0) return best;
  let s = cmpPS(bx, by, cx, cy, dx, dy, d);
  if (s < best) {
    if (s < 0) return s;
    best = s;
  }
  s = cmpPS(cx, cy, ax, ay, bx, by, d);
  if (s < best) {
    if (s < 0) return s;
    best = s;
  }
  s = cmpPS(dx, dy, ax, ay, bx, by, d);
  return s < best ? s : best;
}

/**
 * True when the distance from P to segment AB is strictly less than d (nm).
 * This is KiCad's clearance rule: a violation is actual < required, so a gap of exactly the
 * clearance passes.
 */
export function pointSegmentWithin(px: number, py: number, ax: number, ay: number, bx: number, by: number, d: number): boolean {
  return comparePointSegment(px, py, ax, ay, bx, by, d) < 0;
}

/** True when segments AB and CD are strictly closer than d (nm); touching counts as distance 0. */
export function segmentSegmentWithin(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number, d: number): boolean {
  return compareSegmentSegment(ax, ay, bx, by, cx, cy, dx, dy, d) < 0;
}

/** True when |PQ| < d strictly (nm). */
export function pointPointWithin(px: number, py: number, qx: number, qy: number, d: number): boolean {
  return comparePointPoint(px, py, qx, qy, d) < 0;
}

/** Exact sign of (|PQ|² − |RS|²): which of two point pairs is farther apart. */
export function compareSquaredLengths(px: number, py: number, qx: number, qy: number, rx: number, ry: number, sx: number, sy: number): Sign {
  const ax = qx - px,
    ay = qy - py,
    bx = sx - rx,
    by = sy - ry;
  const l = ax * ax + ay * ay;
  const r = bx * bx + by * by;
  const s = filtered(l - r, l + r);
  if (s !== undefined) return s;
  const A = BigInt(ax),
    B = BigInt(ay),
    C = BigInt(bx),
    D = BigInt(by);
  return signOfBig(A * A + B * B - C * C - D * D);
}

// Internal entry points without the threshold validation, for shape code that has already
// checked its inputs (the hot path of collides()).
export { cmpPP as comparePointPointUnchecked, cmpPS as comparePointSegmentUnchecked, cmpSS as compareSegmentSegmentUnchecked };

/** What one edge does to the ray from (px, py) to +x: the point lies on it, it crosses the ray, or neither. */
export const ON_EDGE = 0;
export const CROSSES = 1;
export const MISSES = -1;

/** Exact even-odd step of the point-in-ring test for edge (x1,y1)–(x2,y2); shared by the plain and the indexed ring walks. */
export function rayCrossing(x1: number, y1: number, x2: number, y2: number, px: number, py: number): number {
  // Only edges spanning py (half-open in y) can cross the ray to +x or hold the point.
  if (y1 > py !== y2 > py) {
    const o = orient2d(x1, y1, x2, y2, px, py);
    if (o === 0) return ON_EDGE;
    // Upward edge: point left of it ⇔ crossing lies to the point's right.
    return o > 0 === y2 > y1 ? CROSSES : MISSES;
  }
  if (y1 === py && y2 === py) return px >= Math.min(x1, x2) && px <= Math.max(x1, x2) ? ON_EDGE : MISSES;
  return (y1 === py && x1 === px) || (y2 === py && x2 === px) ? ON_EDGE : MISSES;
}
