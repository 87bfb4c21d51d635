// Minimum distance between shapes and where it is reached, in doubles (nm), for reports and
// DRC marker positions. Clearance decisions must use collide.ts, which is exact; the values
// here agree with it up to rounding (a few ulps of the coordinates).

import { nearestArcArc, nearestArcPoint, nearestSegmentArc } from './arc.ts';
import { newPair, nearestPointSegment, nearestSegmentSegment, offer, type NearestPair } from './nearest.ts';
import { boxRing, nearestPolygonPolygon, nearestPolygonSegment, pointInPolygon, forEachEdge, type Rings } from './polygon.ts';
import { radiusOf, type Arc, type Primitive, type Shape } from './shapes.ts';

/** Where two shapes come nearest: `distance` between their copper (nm, 0 when they touch or
 *  overlap), (ax, ay) on a's copper and (bx, by) on b's. When they overlap both points are the
 *  same point inside the overlap, on the line between the nearest core points. */
export interface Nearest {
  readonly distance: number;
  readonly ax: number;
  readonly ay: number;
  readonly bx: number;
  readonly by: number;
}

const RANK = { circle: 0, segment: 1, arc: 2, rect: 3, polygon: 4 } as const;

function ringsOf(p: Primitive): Rings {
  if (p.kind === 'polygon') return p;
  if (p.kind === 'rect') return { outline: boxRing(p.minX, p.minY, p.maxX, p.maxY), holes: [] };
  throw new Error(`ringsOf: ${p.kind} has no rings`);
}

function swapPair(out: NearestPair): void {
  let t = out.ax;
  out.ax = out.bx;
  out.bx = t;
  t = out.ay;
  out.ay = out.by;
  out.by = t;
}

// Nearest pair between an arc (first) and polygon material (second).
function nearestArcRings(a: Arc, r: Rings, out: NearestPair): void {
  if (pointInPolygon(r, a.sx, a.sy) >= 0) {
    offer(out, a.sx, a.sy, a.sx, a.sy);
    return;
  }
  const t = newPair();
  forEachEdge(r, (x1, y1, x2, y2) => {
    t.d = Infinity;
    nearestSegmentArc(x1, y1, x2, y2, a.geom, a.ends, t);
    offer(out, t.bx, t.by, t.ax, t.ay);
  });
}

/** Offers into out the nearest pair of the cores of a and b (a's point first), ignoring radii. */
export function nearestCore(a: Primitive, b: Primitive, out: NearestPair): void {
  if (RANK[a.kind] > RANK[b.kind]) {
    const tmp = newPair();
    nearestCore(b, a, tmp);
    swapPair(tmp);
    if (tmp.d < out.d) Object.assign(out, tmp);
    return;
  }
  switch (a.kind) {
    case 'circle':
      switch (b.kind) {
        case 'circle':
          offer(out, a.x, a.y, b.x, b.y);
          return;
        case 'segment':
          nearestPointSegment(a.x, a.y, b.ax, b.ay, b.bx, b.by, out);
          return;
        case 'arc':
          nearestArcPoint(b.geom, b.ends, a.x, a.y, out, false);
          return;
        case 'rect':
          offer(out, a.x, a.y, Math.min(Math.max(a.x, b.minX), b.maxX), Math.min(Math.max(a.y, b.minY), b.maxY));
          return;
        case 'polygon': {
          const t = newPair();
          nearestPolygonSegment(b, a.x, a.y, a.x, a.y, t);
          offer(out, t.bx, t.by, t.ax, t.ay);
          return;
        }
      }
      break;
    case 'segment':
      switch (b.kind) {
        case 'segment':
          nearestSegmentSegment(a.ax, a.ay, a.bx, a.by, b.ax, b.ay, b.bx, b.by, out);
          return;
        case 'arc':
          nearestSegmentArc(a.ax, a.ay, a.bx, a.by, b.geom, b.ends, out);
          return;
        case 'rect':
        case 'polygon': {
          const t = newPair();
          nearestPolygonSegment(ringsOf(b), a.ax, a.ay, a.bx, a.by, t);
          offer(out, t.bx, t.by, t.ax, t.ay);
          return;
        }
      }
      break;
    case 'arc':
      if (b.kind === 'arc') {
        nearestArcArc(a.geom, a.ends, b.geom, b.ends, out);
        return;
      }
      if (b.kind === 'rect' || b.kind === 'polygon') {
        nearestArcRings(a, ringsOf(b), out);
        return;
      }
      break;
    case 'rect':
    case 'polygon':
      if (b.kind === 'rect' || b.kind === 'polygon') {
        const t = newPair();
        nearestPolygonPolygon(ringsOf(a), ringsOf(b), t);
        offer(out, t.ax, t.ay, t.bx, t.by);
        return;
      }
      break;
  }
  throw new Error(`nearestCore: unhandled pair ${a.kind}/${b.kind}`);
}

function nearestPrimitive(a: Primitive, b: Primitive): Nearest {
  const out = newPair();
  nearestCore(a, b, out);
  const ra = radiusOf(a);
  const rb = radiusOf(b);
  const d = out.d;
  const ux = d > 0 ? (out.bx - out.ax) / d : 0;
  const uy = d > 0 ? (out.by - out.ay) / d : 0;
  if (d > ra + rb) {
    return { distance: d - ra - rb, ax: out.ax + ux * ra, ay: out.ay + uy * ra, bx: out.bx - ux * rb, by: out.by - uy * rb };
  }
  // Overlap: the middle of where the two copper spans meet along the core-to-core line.
  const t = (Math.max(d - rb, -ra) + Math.min(ra, d + rb)) / 2;
  const x = out.ax + ux * t;
  const y = out.ay + uy * t;
  return { distance: 0, ax: x, ay: y, bx: x, by: y };
}

/** Nearest points and distance between the copper of a and b (see Nearest). */
export function nearest(a: Shape, b: Shape): Nearest {
  const pa = a.kind === 'compound' ? a.parts : [a];
  const pb = b.kind === 'compound' ? b.parts : [b];
  let best: Nearest | undefined;
  for (const x of pa) {
    for (const y of pb) {
      const n = nearestPrimitive(x, y);
      if (best === undefined || n.distance < best.distance) best = n;
    }
  }
  return best as Nearest;
}

/** Distance between the copper of a and b in nm (double; 0 when they touch or overlap). */
export function distance(a: Shape, b: Shape): number {
  return nearest(a, b).distance;
}
