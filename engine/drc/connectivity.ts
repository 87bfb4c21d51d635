// Which copper items touch, per net, the way KiCad 9's connectivity decides it: two items on a
// common layer join when their copper overlaps (a mere touch is not enough), zone fill polygons
// included, and the clusters give the ratsnest count.
// Clusters never cross nets (KiCad's ratsnest clusters are single-net); net 0 joins nothing.

import { compareCore } from '../geom/collide.ts';
import { radiusOf, type Shape } from '../geom/shapes.ts';
import type { CopperItem, CopperItems } from './copper-items.ts';

/** Union-find over item ids. */
export class UnionFind {
  readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(i: number): number {
    const p = this.parent;
    while (p[i] !== i) {
      p[i] = p[p[i]];
      i = p[i];
    }
    return i;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    // The smaller root wins, so the result does not depend on the order of unions.
    if (ra < rb) this.parent[rb] = ra;
    else if (rb < ra) this.parent[ra] = rb;
  }
}

/**
 * KiCad's connectivity collision (SHAPE::Collide with clearance 0): the copper must overlap by
 * more than a touch — a pad edge exactly meeting a via's rim does not connect. Shapes with no
 * radius at all (sharp polygons) connect when they share a point.
 */
export function joins(a: Shape, b: Shape): boolean {
  const pa = a.kind === 'compound' ? a.parts : [a];
  const pb = b.kind === 'compound' ? b.parts : [b];
  for (const x of pa) {
    for (const y of pb) {
      const r = radiusOf(x) + radiusOf(y);
      if (r > 0 ? compareCore(x, y, r) < 0 : compareCore(x, y, 0) <= 0) return true;
    }
  }
  return false;
}

/** True when two items of one net are electrically joined on some common layer. */
export function touches(a: CopperItem, b: CopperItem): boolean {
  if ((a.layers & b.layers) === 0) return false;
  return joins(a.shape, b.shape);
}

export interface Connectivity {
  uf: UnionFind;
  /** Number of missing connections (KiCad's unconnected items): Σ over nets of clusters − 1. */
  unconnected: number;
  /** Per net code: the number of clusters (pad, track or via clusters only). */
  clusters: Map<number, number>;
  /** For each track and via item id: the items its copper joins, of any net (dangling checks). */
  links: Map<number, number[]>;
}

// KiCad lets tracks and vias take another net when they touch (they "can change net"); pads and
// zones cannot, so two of those on different nets are never linked.
function canChangeNet(it: CopperItem): boolean {
  return it.kind === 'track' || it.kind === 'via';
}

/** Builds the single-net clusters of every item and counts the ratsnest. */
export function connect(copper: CopperItems): Connectivity {
  const items = copper.items;
  const uf = new UnionFind(items.length);
  const links = new Map<number, number[]>();
  const link = (a: number, b: number) => {
    let l = links.get(a);
    if (!l) links.set(a, (l = []));
    l.push(b);
  };
  for (const a of items) {
    const aMoves = canChangeNet(a);
    if (a.net <= 0 && !aMoves) continue;
    for (const j of copper.near(a.shape)) {
      if (j <= a.id) continue;
      const b = items[j];
      const sameNet = b.net === a.net && a.net > 0;
      if (!sameNet && !aMoves && !canChangeNet(b)) continue;
      if (sameNet && !aMoves && !canChangeNet(b) && uf.find(a.id) === uf.find(j)) continue;
      if (!touches(a, b)) continue;
      if (sameNet) uf.union(a.id, j);
      if (aMoves) link(a.id, j);
      if (canChangeNet(b)) link(j, a.id);
    }
  }
  return { uf, links, ...countRatsnest(copper, uf) };
}

/** Σ over nets (code > 0) of (clusters − 1), and the cluster count per net. */
export function countRatsnest(copper: CopperItems, uf: UnionFind): { unconnected: number; clusters: Map<number, number> } {
  const roots = new Map<number, Set<number>>();
  // A cluster without a pad (a lone track or via, a zone island, a teardrop left without its
  // track) is "orphaned" in KiCad and is no ratsnest node: only clusters holding a pad count.
  for (const it of copper.items) {
    if (it.net <= 0 || it.kind !== 'pad') continue;
    let s = roots.get(it.net);
    if (!s) roots.set(it.net, (s = new Set()));
    s.add(uf.find(it.id));
  }
  let unconnected = 0;
  const clusters = new Map<number, number>();
  for (const [net, s] of roots) {
    clusters.set(net, s.size);
    unconnected += s.size - 1;
  }
  return { unconnected, clusters };
}
