// Axis-aligned bounding boxes in nm. Boxes are closed: a box with minX === maxX is a vertical
// line and still contains its points. No validation here: boxes come from shapes already checked.

/** A closed axis-aligned box, nm. */
export interface Box {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/** A box from its corners in any order. */
export function boxOf(x1: number, y1: number, x2: number, y2: number): Box {
  return { minX: Math.min(x1, x2), minY: Math.min(y1, y2), maxX: Math.max(x1, x2), maxY: Math.max(y1, y2) };
}

/** The smallest box holding every point; undefined for none. */
export function boxOfPoints(points: Iterable<{ x: number; y: number }>): Box | undefined {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const p of points) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  return minX <= maxX ? { minX, minY, maxX, maxY } : undefined;
}

/** The box grown by m on every side (m may be fractional or negative). */
export function inflateBox(b: Box, m: number): Box {
  return { minX: b.minX - m, minY: b.minY - m, maxX: b.maxX + m, maxY: b.maxY + m };
}

/** The smallest box holding both. */
export function unionBox(a: Box, b: Box): Box {
  return {
    minX: Math.min(a.minX, b.minX),
    minY: Math.min(a.minY, b.minY),
    maxX: Math.max(a.maxX, b.maxX),
    maxY: Math.max(a.maxY, b.maxY),
  };
}

/** True when the closed boxes share a point. */
export function boxesOverlap(a: Box, b: Box): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

/** True when (x, y) is inside or on the closed box. */
export function boxContains(b: Box, x: number, y: number): boolean {
  return x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY;
}

/** Gap between two boxes (0 when they overlap), as a double in nm: a lower bound on the
 *  distance between anything inside them, used to skip exact work. */
export function boxGap(a: Box, b: Box): number {
  const dx = Math.max(a.minX - b.maxX, b.minX - a.maxX, 0);
  const dy = Math.max(a.minY - b.maxY, b.minY - a.maxY, 0);
  return Math.hypot(dx, dy);
}
