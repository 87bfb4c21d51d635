// The copper shapes of a board as small immutable plain objects, all in integer nm.
// Every primitive is a core (point, segment, arc, box or polygon) grown by a radius:
// circle = point + r, track = segment + width/2, arc track = arc + width/2,
// rect = box + optional corner radius, polygon = polygon + optional radius. Distances and
// collisions (distance.ts, collide.ts) work on cores and subtract radii.

import { arcBounds, arcGeometry, type ArcGeometry } from './arc.ts';
import type { Box } from './box.ts';
import { assertCoord } from './units.ts';

/** A filled disc: centre (x, y), radius r (nm; an integer or half-integer). */
export interface Circle {
  readonly kind: 'circle';
  readonly x: number;
  readonly y: number;
  readonly r: number;
}

/** A track: segment a–b with round ends, total width `width` (nm). A zero-length segment is a disc. */
export interface Segment {
  readonly kind: 'segment';
  readonly ax: number;
  readonly ay: number;
  readonly bx: number;
  readonly by: number;
  readonly width: number;
}

/** A track arc through start, mid and end with round ends, total width `width` (nm).
 *  `geom` and `ends` are derived (doubles): the circle and the end points in sweep order. */
export interface Arc {
  readonly kind: 'arc';
  readonly sx: number;
  readonly sy: number;
  readonly mx: number;
  readonly my: number;
  readonly ex: number;
  readonly ey: number;
  readonly width: number;
  readonly geom: ArcGeometry;
  readonly ends: readonly [number, number, number, number];
}

/** An axis-aligned rectangle [minX, maxX] × [minY, maxY] grown by `radius` (rounded corners;
 *  0 for a sharp rectangle). A rounded-rect pad is its inner rectangle with radius r. */
export interface Rect {
  readonly kind: 'rect';
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  readonly radius: number;
}

/** A simple polygon (closed implicitly, any orientation, possibly non-convex) with optional
 *  holes, grown by `radius` (0 for a plain polygon). Vertices are x,y pairs in nm.
 *  Holes must lie inside the outline and not overlap each other (zone fills satisfy this). */
export interface Polygon {
  readonly kind: 'polygon';
  readonly outline: Float64Array;
  readonly holes: readonly Float64Array[];
  readonly radius: number;
  readonly box: Box;
}

/** One of the primitives above. */
export type Primitive = Circle | Segment | Arc | Rect | Polygon;

/** A union of primitives (a custom pad, a chamfered rounded pad). */
export interface Compound {
  readonly kind: 'compound';
  readonly parts: readonly Primitive[];
  readonly box: Box;
}

/** Any copper shape. */
export type Shape = Primitive | Compound;

function assertRadius(r: number, what: string): number {
  if (!(r >= 0) || !Number.isInteger(2 * r) || r > 3e9) {
    throw new RangeError(`${what}: expected a non-negative radius in nm (integer or half-integer), got ${r}`);
  }
  return r;
}

function assertWidth(w: number, what: string): number {
  if (!(w >= 0) || !Number.isInteger(w) || w > 3e9) {
    throw new RangeError(`${what}: expected a non-negative integer width in nm, got ${w}`);
  }
  return w;
}

/** A disc of radius r (nm) at (x, y). */
export function circle(x: number, y: number, r: number): Circle {
  assertCoord(x, 'circle x');
  assertCoord(y, 'circle y');
  return { kind: 'circle', x, y, r: assertRadius(r, 'circle r') };
}

/** A track from (ax, ay) to (bx, by) of the given width (nm), round ends. */
export function segment(ax: number, ay: number, bx: number, by: number, width: number): Segment {
  assertCoord(ax, 'segment ax');
  assertCoord(ay, 'segment ay');
  assertCoord(bx, 'segment bx');
  assertCoord(by, 'segment by');
  return { kind: 'segment', ax, ay, bx, by, width: assertWidth(width, 'segment width') };
}

// Nearly straight arcs (each half within this many nm of its chord) become the two chords
// start–mid–end: their centres lie so far away (1e13 nm and more) that double arithmetic
// around the centre would lose more than this, and the chords are checked exactly.
const FLAT_ARC_SAGITTA = 0.5;

/** A track arc through start, mid and end (nm) with the given width. Collinear points with
 *  start ≠ end make a straight track (a Segment comes back), and an arc whose halves stray at
 *  most 0.5 nm from their chords comes back as the two chord tracks start–mid–end. */
export function arc(sx: number, sy: number, mx: number, my: number, ex: number, ey: number, width: number): Arc | Segment | Compound {
  for (const [v, w] of [
    [sx, 'sx'],
    [sy, 'sy'],
    [mx, 'mx'],
    [my, 'my'],
    [ex, 'ex'],
    [ey, 'ey'],
  ] as const)
    assertCoord(v, `arc ${w}`);
  assertWidth(width, 'arc width');
  const geom = arcGeometry(sx, sy, mx, my, ex, ey);
  if (geom === undefined) return { kind: 'segment', ax: sx, ay: sy, bx: ex, by: ey, width };
  // Sagitta of a half arc: r(1 − cos(sweep/4)) = 2r·sin²(sweep/8), without cancellation.
  const sHalf = 2 * geom.r * Math.sin(geom.sweep / 8) ** 2;
  if (sHalf <= FLAT_ARC_SAGITTA) {
    return compound([
      { kind: 'segment', ax: sx, ay: sy, bx: mx, by: my, width },
      { kind: 'segment', ax: mx, ay: my, bx: ex, by: ey, width },
    ]);
  }
  // The exact integer end points, in sweep order, stand in for the recomputed ones.
  const ends: [number, number, number, number] = geom.ccw ? [sx, sy, ex, ey] : [ex, ey, sx, sy];
  return { kind: 'arc', sx, sy, mx, my, ex, ey, width, geom, ends };
}

/** A rectangle from two corners (nm, any order), grown by radius (default 0). */
export function rect(x1: number, y1: number, x2: number, y2: number, radius = 0): Rect {
  assertCoord(x1, 'rect x1');
  assertCoord(y1, 'rect y1');
  assertCoord(x2, 'rect x2');
  assertCoord(y2, 'rect y2');
  return {
    kind: 'rect',
    minX: Math.min(x1, x2),
    minY: Math.min(y1, y2),
    maxX: Math.max(x1, x2),
    maxY: Math.max(y1, y2),
    radius: assertRadius(radius, 'rect radius'),
  };
}

function ring(pts: ArrayLike<number>, what: string): Float64Array {
  if (pts.length % 2 !== 0 || pts.length < 2) throw new RangeError(`${what}: expected x,y pairs, got ${pts.length} numbers`);
  const out = Float64Array.from(pts);
  for (let i = 0; i < out.length; i++) assertCoord(out[i], what);
  // A repeated closing vertex adds a zero-length edge; drop it.
  const n = out.length;
  if (n >= 4 && out[0] === out[n - 2] && out[1] === out[n - 1]) return out.slice(0, n - 2);
  return out;
}

/** A polygon from its outline x,y pairs (nm), optional holes, grown by radius (default 0). */
export function polygon(outline: ArrayLike<number>, holes: readonly ArrayLike<number>[] = [], radius = 0): Polygon {
  const o = ring(outline, 'polygon outline');
  const hs = holes.map((h) => ring(h, 'polygon hole'));
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < o.length; i += 2) {
    if (o[i] < minX) minX = o[i];
    if (o[i] > maxX) maxX = o[i];
    if (o[i + 1] < minY) minY = o[i + 1];
    if (o[i + 1] > maxY) maxY = o[i + 1];
  }
  return { kind: 'polygon', outline: o, holes: hs, radius: assertRadius(radius, 'polygon radius'), box: { minX, minY, maxX, maxY } };
}

/** A union of primitives; nested compounds are flattened. At least one part. */
export function compound(parts: readonly Shape[]): Compound {
  const flat: Primitive[] = [];
  for (const p of parts) {
    if (p.kind === 'compound') flat.push(...p.parts);
    else flat.push(p);
  }
  if (flat.length === 0) throw new RangeError('compound: expected at least one part');
  let b = bbox(flat[0]);
  for (let i = 1; i < flat.length; i++) {
    const c = bbox(flat[i]);
    b = { minX: Math.min(b.minX, c.minX), minY: Math.min(b.minY, c.minY), maxX: Math.max(b.maxX, c.maxX), maxY: Math.max(b.maxY, c.maxY) };
  }
  return { kind: 'compound', parts: flat, box: b };
}

/** The radius a primitive's core is grown by (nm). */
export function radiusOf(p: Primitive): number {
  switch (p.kind) {
    case 'circle':
      return p.r;
    case 'segment':
    case 'arc':
      return p.width / 2;
    case 'rect':
    case 'polygon':
      return p.radius;
  }
}

/** Bounding box of the copper, nm. Exact for everything but arcs, whose box is the exact
 *  double box rounded outwards to integers. */
export function bbox(s: Shape): Box {
  switch (s.kind) {
    case 'circle':
      return { minX: s.x - s.r, minY: s.y - s.r, maxX: s.x + s.r, maxY: s.y + s.r };
    case 'segment': {
      const h = s.width / 2;
      return {
        minX: Math.min(s.ax, s.bx) - h,
        minY: Math.min(s.ay, s.by) - h,
        maxX: Math.max(s.ax, s.bx) + h,
        maxY: Math.max(s.ay, s.by) + h,
      };
    }
    case 'arc': {
      const h = s.width / 2;
      const [x0, y0, x1, y1] = arcBounds(s.geom, s.ends);
      return {
        minX: Math.floor(Math.min(x0, s.sx, s.ex) - h),
        minY: Math.floor(Math.min(y0, s.sy, s.ey) - h),
        maxX: Math.ceil(Math.max(x1, s.sx, s.ex) + h),
        maxY: Math.ceil(Math.max(y1, s.sy, s.ey) + h),
      };
    }
    case 'rect':
      return { minX: s.minX - s.radius, minY: s.minY - s.radius, maxX: s.maxX + s.radius, maxY: s.maxY + s.radius };
    case 'polygon':
      return s.radius === 0 ? s.box : { minX: s.box.minX - s.radius, minY: s.box.minY - s.radius, maxX: s.box.maxX + s.radius, maxY: s.box.maxY + s.radius };
    case 'compound':
      return s.box;
  }
}

/** The same shape grown by `by` nm on every side (a Minkowski sum with a disc: exact, since
 *  every primitive is a core plus a radius). `by` ≥ 0, an integer or half-integer. */
export function inflate(s: Shape, by: number): Shape {
  assertRadius(by, 'inflate');
  if (by === 0) return s;
  switch (s.kind) {
    case 'circle':
      return { ...s, r: s.r + by };
    case 'segment':
    case 'arc':
      return { ...s, width: s.width + 2 * by };
    case 'rect':
    case 'polygon':
      return { ...s, radius: s.radius + by };
    case 'compound':
      return compound(s.parts.map((p) => inflate(p, by)));
  }
}
