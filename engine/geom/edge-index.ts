// A lazily built box tree over the edges of a large polygon (zone fills run to thousands of
// vertices), so point-in-polygon and "edge closer than d" tests touch only nearby edges.
// Built on first use per polygon object and cached in a WeakMap; small polygons skip it.

import Flatbush from 'flatbush';
import { CROSSES, ON_EDGE, rayCrossing, type Sign } from './predicates.ts';

/** Below this many edges a plain loop beats building and searching a tree. */
export const EDGE_INDEX_MIN_EDGES = 48;

/** Edges as x1,y1,x2,y2 quadruples (edge i at 4i) and a tree over their boxes. */
export interface EdgeIndex {
  readonly edges: Float64Array;
  readonly tree: Flatbush;
  readonly maxX: number;
}

interface RingsLike {
  readonly outline: Float64Array;
  readonly holes: readonly Float64Array[];
}

const cache = new WeakMap<RingsLike, EdgeIndex>();

function edgeCount(p: RingsLike): number {
  let n = p.outline.length / 2;
  for (const h of p.holes) n += h.length / 2;
  return n;
}

/** The edge index of p, or undefined when p is small enough to scan. */
export function edgeIndexOf(p: RingsLike): EdgeIndex | undefined {
  const hit = cache.get(p);
  if (hit !== undefined) return hit;
  const n = edgeCount(p);
  if (n < EDGE_INDEX_MIN_EDGES) return undefined;
  const edges = new Float64Array(4 * n);
  const tree = new Flatbush(n);
  let k = 0;
  let maxX = -Infinity;
  for (let r = -1; r < p.holes.length; r++) {
    const ring = r < 0 ? p.outline : p.holes[r];
    const m = ring.length;
    let x1 = ring[m - 2],
      y1 = ring[m - 1];
    for (let i = 0; i < m; i += 2) {
      const x2 = ring[i],
        y2 = ring[i + 1];
      edges[4 * k] = x1;
      edges[4 * k + 1] = y1;
      edges[4 * k + 2] = x2;
      edges[4 * k + 3] = y2;
      tree.add(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
      if (x2 > maxX) maxX = x2;
      k++;
      x1 = x2;
      y1 = y2;
    }
  }
  tree.finish();
  const idx = { edges, tree, maxX };
  cache.set(p, idx);
  return idx;
}

/**
 * Point against the material of an indexed polygon (outline minus holes, boundaries included):
 * 1 inside, 0 on a boundary, -1 outside. Parity of crossings of the ray to +x over all rings
 * equals "inside the outline and in no hole" because holes nest inside the outline.
 */
export function pointInIndexed(ix: EdgeIndex, px: number, py: number): Sign {
  if (px > ix.maxX) return -1;
  const e = ix.edges;
  const hits = ix.tree.search(px, py, ix.maxX, py);
  let inside = false;
  for (const h of hits) {
    const x1 = e[4 * h],
      y1 = e[4 * h + 1],
      x2 = e[4 * h + 2],
      y2 = e[4 * h + 3];
    const c = rayCrossing(x1, y1, x2, y2, px, py);
    if (c === ON_EDGE) return 0;
    if (c === CROSSES) inside = !inside;
  }
  return inside ? 1 : -1;
}
