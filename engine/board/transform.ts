// Placement transforms in integer nanometres, as KiCad applies them: a footprint's items are
// stored relative to the footprint and rotated by its orientation (degrees, counter-clockwise on
// screen with y pointing down), with exact results for multiples of 90°.

import type { Pt } from './model.ts';

function kiRound(v: number): number {
  return v < 0 ? -Math.round(-v) : Math.round(v);
}

/** Normalises degrees into [0, 360). */
export function normalizeDegrees(deg: number): number {
  let d = deg % 360;
  if (d < 0) d += 360;
  return d === 360 ? 0 : d;
}

/**
 * Rotates a vector by `deg` degrees, KiCad's RotatePoint: x' = x·cos + y·sin, y' = y·cos − x·sin
 * (counter-clockwise on screen, since y points down). Results rounded to integer nm.
 */
export function rotate(p: Pt, deg: number): Pt {
  const d = normalizeDegrees(deg);
  if (d === 0) return { x: p.x, y: p.y };
  if (d === 90) return { x: p.y, y: -p.x === 0 ? 0 : -p.x };
  if (d === 180) return { x: -p.x === 0 ? 0 : -p.x, y: -p.y === 0 ? 0 : -p.y };
  if (d === 270) return { x: -p.y === 0 ? 0 : -p.y, y: p.x };
  const r = (d * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  return { x: kiRound(p.x * c + p.y * s), y: kiRound(p.y * c - p.x * s) };
}

/** Local footprint coordinates to board coordinates. */
export function place(local: Pt, origin: Pt, deg: number): Pt {
  const r = rotate(local, deg);
  return { x: origin.x + r.x, y: origin.y + r.y };
}
