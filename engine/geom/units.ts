// Unit edges and angles: mm ↔ integer nm with KiCad's rounding, the ±1.5e9 nm coordinate guard,
// and KiCad's RotatePoint (exact at multiples of 90°, KiROUND elsewhere).
// Only file readers, IPC adapters and tool boundaries should convert units; the engine works in nm.

/** Largest coordinate magnitude the engine accepts, in nm (1.5 m: past any board, and cross
 *  products of coordinate differences stay below 2^63). */
export const MAX_COORD_NM = 1_500_000_000;

/** Thrown when a coordinate or size is not an integer nm value inside ±MAX_COORD_NM. */
export class CoordinateRangeError extends RangeError {
  readonly value: number;
  readonly what: string;
  constructor(what: string, value: number) {
    super(`${what}: expected an integer nm coordinate within ±${MAX_COORD_NM}, got ${value}`);
    this.name = 'CoordinateRangeError';
    this.value = value;
    this.what = what;
  }
}

/** KiCad's KiROUND: round half away from zero (2.5 → 3, -2.5 → -3). Math.round would send
 *  -2.5 to -2 and disagree with KiCad on negative coordinates. */
export function kiRound(v: number): number {
  return v < 0 ? -Math.floor(-v + 0.5) : Math.floor(v + 0.5);
}

/** Millimetres to integer nanometres the way KiCad's board parser does: KiROUND(mm × 1e6).
 *  Throws CoordinateRangeError when the result is outside ±MAX_COORD_NM or not finite. */
export function mmToNm(mm: number): number {
  return lengthToNm(mm, 1e6, 'mmToNm');
}

/** A length in any unit (`nmPerUnit` nm each: 1e6 for mm, 25 400 for mil) to integer nanometres
 *  the way KiCad's parsers do: KiROUND(value × nmPerUnit). Throws CoordinateRangeError, naming
 *  `what`, when the result is outside ±MAX_COORD_NM or not finite. */
export function lengthToNm(value: number, nmPerUnit: number, what = 'lengthToNm'): number {
  const nm = kiRound(value * nmPerUnit);
  if (!Number.isFinite(nm) || Math.abs(nm) > MAX_COORD_NM) throw new CoordinateRangeError(what, value * nmPerUnit);
  // -0 would print as "0" but compare oddly in Object.is-based tests; normalise it.
  return nm === 0 ? 0 : nm;
}

/** Nanometres to millimetres, rounded to the nanometre (for display and tool results only). */
export function nmToMm(nm: number): number {
  return Math.round(nm) / 1e6;
}

/** A length or coordinate in nm as text for people, in millimetres: `digits` decimals (four by
 *  default, as KiCad prints them: "0.2000 mm"); with `trim`, trailing zeros dropped ("0.2 mm",
 *  and a value that rounds to zero as "0"); with `unit: false`, the number alone. */
export function mmText(nm: number, digits = 4, options: { trim?: boolean; unit?: boolean } = {}): string {
  const fixed = (nm / 1e6).toFixed(digits);
  const text = options.trim ? String(+fixed) : fixed;
  return options.unit === false ? text : `${text} mm`;
}

/** Throws CoordinateRangeError unless v is an integer with |v| ≤ MAX_COORD_NM. Returns v. */
export function assertCoord(v: number, what = 'coordinate'): number {
  if (!Number.isInteger(v) || v > MAX_COORD_NM || v < -MAX_COORD_NM) throw new CoordinateRangeError(what, v);
  return v;
}

/** True when v is an integer nm value inside ±MAX_COORD_NM. */
export function isCoord(v: number): boolean {
  return Number.isInteger(v) && v <= MAX_COORD_NM && v >= -MAX_COORD_NM;
}

/** Degrees to radians. */
export function degToRad(deg: number): number {
  return (deg * Math.PI) / 180;
}

/** Radians to degrees. */
export function radToDeg(rad: number): number {
  return (rad * 180) / Math.PI;
}

/** An angle in degrees brought into [0, 360) (KiCad's EDA_ANGLE::Normalize). */
export function normalizeDegrees(deg: number): number {
  let a = deg % 360;
  if (a < 0) a += 360;
  return a === 0 ? 0 : a; // fold -0
}

/** A point as a fresh pair [x, y] (nm). */
export type XY = [number, number];

/**
 * Rotates (x, y) about (cx, cy) by `deg` degrees the way KiCad's RotatePoint does, in nm.
 *
 * Convention (KiCad's): with the y axis pointing down, a positive angle turns a point
 * counter-clockwise on screen, i.e. (x, y) → (y·sin + x·cos, y·cos − x·sin) about the centre,
 * so +90° maps (1, 0) to (0, -1) (right → up on screen). Multiples of 90° are exact (pure
 * swaps and sign changes); other angles round each coordinate with KiROUND, as KiCad does.
 * The offset from the centre is rotated, then the centre added back (KiCad's order).
 */
export function rotatePoint(x: number, y: number, deg: number, cx = 0, cy = 0): XY {
  const ox = x - cx;
  const oy = y - cy;
  const a = normalizeDegrees(deg);
  let rx: number;
  let ry: number;
  if (a === 0) {
    rx = ox;
    ry = oy;
  } else if (a === 90) {
    rx = oy;
    ry = -ox;
  } else if (a === 180) {
    rx = -ox;
    ry = -oy;
  } else if (a === 270) {
    rx = -oy;
    ry = ox;
  } else {
    const s = Math.sin(degToRad(a));
    const c = Math.cos(degToRad(a));
    rx = kiRound(oy * s + ox * c);
    ry = kiRound(oy * c - ox * s);
  }
  // +0 for -0 keeps results stable under Object.is comparisons.
  return [rx + cx + 0, ry + cy + 0];
}
