// Exact clearance decisions between shapes: compareDistance gives the sign of
// (distance − d), collides answers KiCad's "distance < clearance". Shapes are cores grown by
// radii, so each test is "core distance against clearance + radii", decided by predicates.ts.
// Exact for circles, segments, rects and polygons; anything involving an arc is decided in
// doubles (error far below 1 nm, but not a proof).

import { boxRing, comparePolygonPoint, comparePolygonPolygon, comparePolygonSegment, type Rings } from './polygon.ts';
import {
  comparePointPointUnchecked as cmpPP,
  comparePointSegmentUnchecked as cmpPS,
  compareSegmentSegmentUnchecked as cmpSS,
  type Sign,
} from './predicates.ts';
import { nearestCore } from './distance.ts';
import { newPair } from './nearest.ts';
import { bbox, radiusOf, type Primitive, type Rect, type Shape } from './shapes.ts';

const RANK = { circle: 0, segment: 1, arc: 2, rect: 3, polygon: 4 } as const;

function zeroVersus(d: number): Sign {
  return d > 0 ? -1 : d < 0 ? 1 : 0;
}

function rectRings(r: Rect): Rings {
  return { outline: boxRing(r.minX, r.minY, r.maxX, r.maxY), holes: [] };
}

// Box of a rect core against a segment: inside → 0, else the nearest of the four sides.
function cmpRectSegment(r: Rect, ax: number, ay: number, bx: number, by: number, t: number): Sign {
  if ((ax >= r.minX && ax <= r.maxX && ay >= r.minY && ay <= r.maxY) || (bx >= r.minX && bx <= r.maxX && by >= r.minY && by <= r.maxY)) {
    return zeroVersus(t);
  }
  let best = cmpSS(r.minX, r.minY, r.maxX, r.minY, ax, ay, bx, by, t);
  if (best < 0) return best;
  let s = cmpSS(r.maxX, r.minY, r.maxX, r.maxY, ax, ay, bx, by, t);
  if (s < best) {
    if (s < 0) return s;
    best = s;
  }
  s = cmpSS(r.maxX, r.maxY, r.minX, r.maxY, ax, ay, bx, by, t);
  if (s < best) {
    if (s < 0) return s;
    best = s;
  }
  s = cmpSS(r.minX, r.maxY, r.minX, r.minY, ax, ay, bx, by, t);
  return s < best ? s : best;
}

// Doubles for arcs: the nearest core pair's length against t.
function cmpByNearest(a: Primitive, b: Primitive, t: number): Sign {
  const out = newPair();
  nearestCore(a, b, out);
  return out.d < t ? -1 : out.d > t ? 1 : 0;
}

/** Sign of (core distance of a and b − t): the distance between their cores, before radii.
 *  t ≥ 0 in nm, an integer or half-integer. */
export function compareCore(a: Primitive, b: Primitive, t: number): Sign {
  if (RANK[a.kind] > RANK[b.kind]) {
    const c = a;
    a = b;
    b = c;
  }
  switch (a.kind) {
    case 'circle':
      switch (b.kind) {
        case 'circle':
          return cmpPP(b.x - a.x, b.y - a.y, t);
        case 'segment':
          return cmpPS(a.x, a.y, b.ax, b.ay, b.bx, b.by, t);
        case 'arc':
          return cmpByNearest(a, b, t);
        case 'rect':
          return cmpPP(Math.max(b.minX - a.x, 0, a.x - b.maxX), Math.max(b.minY - a.y, 0, a.y - b.maxY), t);
        case 'polygon':
          return comparePolygonPoint(b, a.x, a.y, t);
      }
      break;
    case 'segment':
      switch (b.kind) {
        case 'segment':
          return cmpSS(a.ax, a.ay, a.bx, a.by, b.ax, b.ay, b.bx, b.by, t);
        case 'arc':
          return cmpByNearest(a, b, t);
        case 'rect':
          return cmpRectSegment(b, a.ax, a.ay, a.bx, a.by, t);
        case 'polygon':
          return comparePolygonSegment(b, a.ax, a.ay, a.bx, a.by, t);
      }
      break;
    case 'arc':
      return cmpByNearest(a, b, t);
    case 'rect':
      if (b.kind === 'rect') {
        return cmpPP(Math.max(a.minX - b.maxX, b.minX - a.maxX, 0), Math.max(a.minY - b.maxY, b.minY - a.maxY, 0), t);
      }
      if (b.kind === 'polygon') return comparePolygonPolygon(b, rectRings(a), t);
      break;
    case 'polygon':
      if (b.kind === 'polygon') return comparePolygonPolygon(a, b, t);
      break;
  }
  throw new Error(`compareCore: unhandled pair ${a.kind}/${b.kind}`);
}

function checkClearance(d: number): void {
  if (!Number.isInteger(2 * d)) throw new RangeError(`clearance must be a multiple of 0.5 nm, got ${d}`);
}

// Scratch for box rejection; compareDistance is not re-entrant through here.
const BOXES = new Float64Array(8);

// Writes the copper box of s at BOXES[o..o+3] without allocating (arcs and compounds use bbox).
function boxInto(s: Shape, o: number): void {
  let x0: number, y0: number, x1: number, y1: number, h: number;
  switch (s.kind) {
    case 'circle':
      x0 = x1 = s.x;
      y0 = y1 = s.y;
      h = s.r;
      break;
    case 'segment':
      x0 = Math.min(s.ax, s.bx);
      x1 = Math.max(s.ax, s.bx);
      y0 = Math.min(s.ay, s.by);
      y1 = Math.max(s.ay, s.by);
      h = s.width / 2;
      break;
    case 'rect':
      x0 = s.minX;
      x1 = s.maxX;
      y0 = s.minY;
      y1 = s.maxY;
      h = s.radius;
      break;
    case 'polygon':
      x0 = s.box.minX;
      x1 = s.box.maxX;
      y0 = s.box.minY;
      y1 = s.box.maxY;
      h = s.radius;
      break;
    default: {
      const b = bbox(s);
      x0 = b.minX;
      x1 = b.maxX;
      y0 = b.minY;
      y1 = b.maxY;
      h = 0;
    }
  }
  BOXES[o] = x0 - h;
  BOXES[o + 1] = y0 - h;
  BOXES[o + 2] = x1 + h;
  BOXES[o + 3] = y1 + h;
}

// Box rejection: copper boxes more than d apart on one axis put the shapes more than d apart
// (strictly: a gap of exactly d must still be reported as equal).
function boxesFar(a: Shape, b: Shape, d: number): boolean {
  boxInto(a, 0);
  boxInto(b, 4);
  const p = BOXES;
  return p[0] - p[6] > d || p[4] - p[2] > d || p[1] - p[7] > d || p[5] - p[3] > d;
}

function comparePrimitive(a: Primitive, b: Primitive, d: number): Sign {
  const r = radiusOf(a) + radiusOf(b);
  if (d > 0) return compareCore(a, b, r + d);
  if (d === 0) return compareCore(a, b, r) <= 0 ? 0 : 1;
  return 1;
}

/**
 * Sign of (distance(a, b) − d), where distance is the gap between the copper of a and b in nm
 * and 0 when they touch or overlap. d: nm, an integer or half-integer (any sign).
 * Exact unless an arc is involved (then decided in doubles).
 */
export function compareDistance(a: Shape, b: Shape, d: number): Sign {
  checkClearance(d);
  if (d > 0 && boxesFar(a, b, d)) return 1;
  if (a.kind !== 'compound' && b.kind !== 'compound') return comparePrimitive(a, b, d);
  const pa = a.kind === 'compound' ? a.parts : [a];
  const pb = b.kind === 'compound' ? b.parts : [b];
  let best: Sign = 1;
  for (const x of pa) {
    for (const y of pb) {
      const s = comparePrimitive(x, y, d);
      if (s < best) {
        if (s < 0) return s;
        best = s;
      }
    }
  }
  return best;
}

/**
 * KiCad's clearance test: true when the copper of a and b is strictly closer than `clearance`
 * nm (touching or overlapping copper is at distance 0). A gap of exactly `clearance` passes.
 * clearance ≤ 0 never collides; use overlaps() for contact. KiCad's DRC calls its collide with
 * (clearance − DRC epsilon), epsilon 500 nm by default: that subtraction is the caller's.
 */
export function collides(a: Shape, b: Shape, clearance: number): boolean {
  if (clearance <= 0) return false;
  return compareDistance(a, b, clearance) < 0;
}

/** True when the copper of a and b shares at least one point (distance 0). */
export function overlaps(a: Shape, b: Shape): boolean {
  return compareDistance(a, b, 0) === 0;
}
