// Polygons with holes as flat x,y rings (Float64Array of integer nm): exact point-in-polygon,
// orientation, area, convex hull, and the exact "closer than d" tests of polygon material
// against points, segments and other polygons (containment counts as distance 0).
// No boolean operations and no offsetting: polygons are grown by a radius in shapes.ts instead.

import { edgeIndexOf, pointInIndexed } from './edge-index.ts';
import { newPair, nearestSegmentSegment, type NearestPair } from './nearest.ts';
import {
  comparePointSegmentUnchecked as cmpPS,
  compareSegmentSegmentUnchecked as cmpSS,
  CROSSES,
  ON_EDGE,
  orient2d,
  rayCrossing,
  type Sign,
} from './predicates.ts';

/** The rings of a polygon: outer outline and holes, each a flat x,y Float64Array, implicitly
 *  closed. Holes lie inside the outline; the material is the outline minus the hole interiors,
 *  boundaries included. */
export interface Rings {
  readonly outline: Float64Array;
  readonly holes: readonly Float64Array[];
}

/** Where (px, py) is relative to a closed ring, exactly: 1 inside, 0 on the boundary, -1 outside. */
export function pointInRing(ring: Float64Array, px: number, py: number): Sign {
  const n = ring.length;
  let inside = false;
  let x1 = ring[n - 2];
  let y1 = ring[n - 1];
  for (let i = 0; i < n; i += 2) {
    const x2 = ring[i];
    const y2 = ring[i + 1];
    const c = rayCrossing(x1, y1, x2, y2, px, py);
    if (c === ON_EDGE) return 0;
    if (c === CROSSES) inside = !inside;
    x1 = x2;
    y1 = y2;
  }
  return inside ? 1 : -1;
}

/** Where (px, py) is relative to the polygon's material: 1 inside, 0 on an outline or hole
 *  boundary, -1 outside or inside a hole. Exact. */
export function pointInPolygon(p: Rings, px: number, py: number): Sign {
  const ix = edgeIndexOf(p);
  if (ix !== undefined) return pointInIndexed(ix, px, py);
  const s = pointInRing(p.outline, px, py);
  if (s <= 0) return s;
  for (const h of p.holes) {
    const t = pointInRing(h, px, py);
    if (t === 0) return 0;
    if (t > 0) return -1;
  }
  return 1;
}

/** Twice the signed area of a ring in nm² (shoelace, double; positive when the ring turns
 *  towards increasing angle in board coordinates, i.e. clockwise on KiCad's y-down screen). */
export function ringArea2(ring: Float64Array): number {
  const n = ring.length;
  let s = 0;
  // Relative to the first vertex to keep the products small.
  const x0 = ring[0];
  const y0 = ring[1];
  for (let i = 2; i + 2 < n; i += 2) {
    s += (ring[i] - x0) * (ring[i + 3] - y0) - (ring[i + 2] - x0) * (ring[i + 1] - y0);
  }
  return s;
}

/** Area of the polygon's material in nm² (double): |outline| − Σ|holes|. */
export function polygonArea(p: Rings): number {
  let a = Math.abs(ringArea2(p.outline));
  for (const h of p.holes) a -= Math.abs(ringArea2(h));
  return a / 2;
}

/** Orientation of a simple ring, exactly: the sign of its area (see ringArea2), 0 when degenerate.
 *  Decided at the lowest-then-leftmost vertex, which is always convex. */
export function ringOrientation(ring: Float64Array): Sign {
  const n = ring.length / 2;
  if (n < 3) return 0;
  let k = 0;
  for (let i = 1; i < n; i++) {
    const y = ring[2 * i + 1];
    const ky = ring[2 * k + 1];
    if (y < ky || (y === ky && ring[2 * i] < ring[2 * k])) k = i;
  }
  // Skip neighbours equal to the pivot (repeated vertices).
  let p = (k + n - 1) % n;
  while (p !== k && ring[2 * p] === ring[2 * k] && ring[2 * p + 1] === ring[2 * k + 1]) p = (p + n - 1) % n;
  let q = (k + 1) % n;
  while (q !== k && ring[2 * q] === ring[2 * k] && ring[2 * q + 1] === ring[2 * k + 1]) q = (q + 1) % n;
  return orient2d(ring[2 * p], ring[2 * p + 1], ring[2 * k], ring[2 * k + 1], ring[2 * q], ring[2 * q + 1]);
}

/** Convex hull of x,y pairs (monotone chain, exact turns), as a ring with positive
 *  orientation (ringOrientation = 1) and no collinear vertices. Fewer than 3 distinct points
 *  come back as they are (deduplicated). */
export function convexHull(points: ArrayLike<number>): Float64Array {
  const n = points.length / 2;
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort((a, b) => points[2 * a] - points[2 * b] || points[2 * a + 1] - points[2 * b + 1]);
  const hull: number[] = [];
  const build = (order: number[]): number[] => {
    const st: number[] = [];
    for (const i of order) {
      const x = points[2 * i];
      const y = points[2 * i + 1];
      while (st.length >= 2) {
        const a = st[st.length - 2];
        const b = st[st.length - 1];
        if (orient2d(points[2 * a], points[2 * a + 1], points[2 * b], points[2 * b + 1], x, y) > 0) break;
        st.pop();
      }
      if (st.length === 1 && points[2 * st[0]] === x && points[2 * st[0] + 1] === y) continue;
      st.push(i);
    }
    return st;
  };
  const lower = build(idx);
  const upper = build(idx.slice().reverse());
  const all = lower.slice(0, -1).concat(upper.slice(0, -1));
  const chain = all.length >= 3 ? all : lower;
  for (const i of chain) hull.push(points[2 * i], points[2 * i + 1]);
  return Float64Array.from(hull);
}

/** The four corners of a box as a ring. */
export function boxRing(minX: number, minY: number, maxX: number, maxY: number): Float64Array {
  return Float64Array.of(minX, minY, maxX, minY, maxX, maxY, minX, maxY);
}

function zeroVersus(d: number): Sign {
  return d > 0 ? -1 : d < 0 ? 1 : 0;
}

/** Sign of (distance from the polygon's material to point P − d), exactly. d ≥ 0, k/2 nm. */
export function comparePolygonPoint(p: Rings, px: number, py: number, d: number): Sign {
  if (pointInPolygon(p, px, py) >= 0) return zeroVersus(d);
  const ix = edgeIndexOf(p);
  if (ix !== undefined) return compareIndexedSegment(ix.edges, ix.tree.search(px - d, py - d, px + d, py + d), px, py, px, py, d);
  let best: Sign = 1;
  const rings = [p.outline, ...p.holes];
  for (const r of rings) {
    const n = r.length;
    let x1 = r[n - 2],
      y1 = r[n - 1];
    for (let i = 0; i < n; i += 2) {
      const x2 = r[i],
        y2 = r[i + 1];
      // An edge whose box is d or more away cannot be strictly closer than d.
      if (!(Math.min(x1, x2) - d > px || Math.max(x1, x2) + d < px || Math.min(y1, y2) - d > py || Math.max(y1, y2) + d < py)) {
        const s = cmpPS(px, py, x1, y1, x2, y2, d);
        if (s < best) {
          if (s < 0) return s;
          best = s;
        }
      }
      x1 = x2;
      y1 = y2;
    }
  }
  return best;
}

/** Sign of (distance from the polygon's material to segment A–B − d), exactly. */
export function comparePolygonSegment(p: Rings, ax: number, ay: number, bx: number, by: number, d: number): Sign {
  if (pointInPolygon(p, ax, ay) >= 0) return zeroVersus(d);
  // Outside at A: the segment reaches the material only through the boundary.
  return compareRingsSegment(p, ax, ay, bx, by, d);
}

/** Sign of (distance between the materials of two polygons − d), exactly. A polygon inside the
 *  other (or in contact) is at distance 0. */
export function comparePolygonPolygon(p: Rings, q: Rings, d: number): Sign {
  if (pointInPolygon(q, p.outline[0], p.outline[1]) >= 0) return zeroVersus(d);
  if (pointInPolygon(p, q.outline[0], q.outline[1]) >= 0) return zeroVersus(d);
  // Walk the edges of the smaller polygon and search the larger one's (indexed) edges.
  if (ringsSize(q) > ringsSize(p)) {
    const t = p;
    p = q;
    q = t;
  }
  let best: Sign = 1;
  const qRings = [q.outline, ...q.holes];
  for (const r of qRings) {
    const n = r.length;
    let x1 = r[n - 2],
      y1 = r[n - 1];
    for (let i = 0; i < n; i += 2) {
      const x2 = r[i],
        y2 = r[i + 1];
      // Containment was settled above, so only boundary against boundary remains.
      const s = compareRingsSegment(p, x1, y1, x2, y2, d);
      if (s < best) {
        if (s < 0) return s;
        best = s;
      }
      x1 = x2;
      y1 = y2;
    }
  }
  return best;
}

function ringsSize(p: Rings): number {
  let n = p.outline.length;
  for (const h of p.holes) n += h.length;
  return n;
}

// Segment against the listed edges of an edge index.
function compareIndexedSegment(e: Float64Array, hits: readonly number[], ax: number, ay: number, bx: number, by: number, d: number): Sign {
  let best: Sign = 1;
  for (const h of hits) {
    const s = cmpSS(e[4 * h], e[4 * h + 1], e[4 * h + 2], e[4 * h + 3], ax, ay, bx, by, d);
    if (s < best) {
      if (s < 0) return s;
      best = s;
    }
  }
  return best;
}

// Boundary-only version of comparePolygonSegment (no containment test).
function compareRingsSegment(p: Rings, ax: number, ay: number, bx: number, by: number, d: number): Sign {
  const sMinX = Math.min(ax, bx) - d,
    sMaxX = Math.max(ax, bx) + d;
  const sMinY = Math.min(ay, by) - d,
    sMaxY = Math.max(ay, by) + d;
  const ix = edgeIndexOf(p);
  if (ix !== undefined) return compareIndexedSegment(ix.edges, ix.tree.search(sMinX, sMinY, sMaxX, sMaxY), ax, ay, bx, by, d);
  let best: Sign = 1;
  for (let k = -1; k < p.holes.length; k++) {
    const r = k < 0 ? p.outline : p.holes[k];
    const n = r.length;
    let x1 = r[n - 2],
      y1 = r[n - 1];
    for (let i = 0; i < n; i += 2) {
      const x2 = r[i],
        y2 = r[i + 1];
      if (!(Math.min(x1, x2) > sMaxX || Math.max(x1, x2) < sMinX || Math.min(y1, y2) > sMaxY || Math.max(y1, y2) < sMinY)) {
        const s = cmpSS(x1, y1, x2, y2, ax, ay, bx, by, d);
        if (s < best) {
          if (s < 0) return s;
          best = s;
        }
      }
      x1 = x2;
      y1 = y2;
    }
  }
  return best;
}

/** Calls fn(x1, y1, x2, y2) for every edge of every ring (outline first, then holes in order). */
export function forEachEdge(p: Rings, fn: (x1: number, y1: number, x2: number, y2: number) => void): void {
  for (let k = -1; k < p.holes.length; k++) {
    const r = k < 0 ? p.outline : p.holes[k];
    const n = r.length;
    let x1 = r[n - 2],
      y1 = r[n - 1];
    for (let i = 0; i < n; i += 2) {
      fn(x1, y1, r[i], r[i + 1]);
      x1 = r[i];
      y1 = r[i + 1];
    }
  }
}

/** Nearest pair between the polygon's material (first) and segment A–B (second), doubles;
 *  distance 0 at A when A lies in the material. */
export function nearestPolygonSegment(p: Rings, ax: number, ay: number, bx: number, by: number, out: NearestPair = newPair()): NearestPair {
  if (pointInPolygon(p, ax, ay) >= 0) {
    out.d = 0;
    out.ax = ax;
    out.ay = ay;
    out.bx = ax;
    out.by = ay;
    return out;
  }
  const t = newPair();
  const take = (x1: number, y1: number, x2: number, y2: number): void => {
    nearestSegmentSegment(x1, y1, x2, y2, ax, ay, bx, by, t);
  };
  const ix = edgeIndexOf(p);
  if (ix === undefined) {
    forEachEdge(p, take);
  } else {
    // An upper bound from the edge nearest to A, then only edges whose boxes lie within it.
    const e = ix.edges;
    const first = ix.tree.neighbors(ax, ay, 1)[0];
    take(e[4 * first], e[4 * first + 1], e[4 * first + 2], e[4 * first + 3]);
    const u = t.d;
    for (const h of ix.tree.search(Math.min(ax, bx) - u, Math.min(ay, by) - u, Math.max(ax, bx) + u, Math.max(ay, by) + u)) {
      take(e[4 * h], e[4 * h + 1], e[4 * h + 2], e[4 * h + 3]);
    }
  }
  if (t.d < out.d) Object.assign(out, t);
  return out;
}

/** Nearest pair between the materials of two polygons, doubles (0 when one holds a vertex of
 *  the other or their boundaries meet). */
export function nearestPolygonPolygon(p: Rings, q: Rings, out: NearestPair = newPair()): NearestPair {
  const qx = q.outline[0],
    qy = q.outline[1];
  if (pointInPolygon(p, qx, qy) >= 0) {
    out.d = 0;
    out.ax = qx;
    out.ay = qy;
    out.bx = qx;
    out.by = qy;
    return out;
  }
  const px = p.outline[0],
    py = p.outline[1];
  if (pointInPolygon(q, px, py) >= 0) {
    out.d = 0;
    out.ax = px;
    out.ay = py;
    out.bx = px;
    out.by = py;
    return out;
  }
  const t = newPair();
  const ip = edgeIndexOf(p);
  if (ip === undefined) {
    forEachEdge(q, (x1, y1, x2, y2) => {
      forEachEdge(p, (u1, v1, u2, v2) => nearestSegmentSegment(u1, v1, u2, v2, x1, y1, x2, y2, t));
    });
  } else {
    // Walk q's edges; search p's edges within the best distance found so far.
    const e = ip.edges;
    const first = ip.tree.neighbors(qx, qy, 1)[0];
    nearestSegmentSegment(e[4 * first], e[4 * first + 1], e[4 * first + 2], e[4 * first + 3], qx, qy, qx, qy, t);
    forEachEdge(q, (x1, y1, x2, y2) => {
      const u = t.d;
      for (const h of ip.tree.search(Math.min(x1, x2) - u, Math.min(y1, y2) - u, Math.max(x1, x2) + u, Math.max(y1, y2) + u)) {
        nearestSegmentSegment(e[4 * h], e[4 * h + 1], e[4 * h + 2], e[4 * h + 3], x1, y1, x2, y2, t);
      }
    });
  }
  if (t.d < out.d) Object.assign(out, t);
  return out;
}

/** Distance from the polygon's material to segment A–B (nm, double; 0 on contact). */
export function polygonSegmentDistance(p: Rings, ax: number, ay: number, bx: number, by: number): number {
  return nearestPolygonSegment(p, ax, ay, bx, by).d;
}

/** Distance between the materials of two polygons (nm, double; 0 on contact or containment). */
export function polygonPolygonDistance(p: Rings, q: Rings): number {
  return nearestPolygonPolygon(p, q).d;
}
