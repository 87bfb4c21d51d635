// Which copper items touch, the way KiCad 9's connectivity decides it: two items on a common
// layer join when their copper overlaps (a mere touch is not enough), zone fill polygons included.
// Tracks, vias and net-less copper graphics join whatever they touch and then take the net of the
// pads of their group (net propagation, as kicad-cli does on load); the single-net clusters of
// those nets give the ratsnest count. Pads and zones of net 0 join only what can change net. On a KiCad 10 board a via
// that joins nothing but zone fills takes a fill's net as well (board/kicad-version.ts).

import { compareCore } from '../geom/collide.ts';
import { radiusOf, type Shape } from '../geom/shapes.ts';
import type { CopperItem, CopperItems } from './copper-items.ts';
import { judgedByKicad10 } from '../board/kicad-version.ts';

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
  /** Single-net clusters over the effective nets (KiCad's ratsnest clusters). */
  uf: UnionFind;
  /** Number of missing connections (KiCad's unconnected items): Σ over nets of clusters − 1. */
  unconnected: number;
  /** Per net code: the number of ratsnest nodes (clusters holding a pad, track or via). */
  clusters: Map<number, number>;
  /** For each track and via item id: the items its copper joins, of any net (dangling checks). */
  links: Map<number, number[]>;
  /** Per item id: its net after KiCad's propagation (see effectiveNets); pads, zones and
   *  graphics keep their own. */
  nets: Int32Array;
}

// KiCad lets tracks and vias take another net when they touch (they "can change net"), and a
// copper graphic of no net as well: a track ending on a net-less copper line gets no clearance
// finding from kicad-cli 9 or 10 (the line took the track's net). Pads, zones and netted
// graphics cannot, so two of those on different nets are never linked.
function canChangeNet(it: CopperItem): boolean {
  return it.kind === 'track' || it.kind === 'via' || (it.kind === 'graphic' && it.net === 0);
}

/**
 * KiCad 10's stitching rule: a via that joins no pad, track or other via, only zone fills, takes
 * the net of a fill it joins (KiCad 9 leaves it alone). Where its fills are of several nets KiCad
 * takes the first its connectivity search meets; the first zone in board order stands in for it,
 * which is KiCad's choice on small boards (on LibreSolar_bms-c1 it is not). Returns via item id →
 * that net, for effectiveNets.
 */
function loneViaZones(items: readonly CopperItem[], groups: UnionFind, links: ReadonlyMap<number, number[]>): Map<number, number> {
  const size = new Int32Array(items.length);
  for (const it of items) if (inGroups(it)) size[groups.find(it.id)]++;
  const out = new Map<number, number>();
  for (const it of items) {
    if (it.kind !== 'via' || size[groups.find(it.id)] !== 1) continue;
    let first = -1;
    for (const j of links.get(it.id) ?? []) if (items[j].kind === 'zone' && items[j].net > 0 && (first < 0 || j < first)) first = j;
    if (first >= 0) out.set(it.id, items[first].net);
  }
  return out;
}

/**
 * KiCad's PropagateNets: tracks, vias and pads joined across nets form groups. `viaZone` gives
 * the vias KiCad 10 puts on a zone's net (loneViaZones), which no group decides. Zone fills and
 * netted copper graphics take no part; net-less graphics move like tracks (KiCad leaves zones out
 * of that search: on LibreSolar_bms-c1 fault tracks lying in a GND and a /BAT+ fill still take
 * the net of the track they cross). In a group
 * whose pads (net > 0) are all of one net, every track and via takes that net; a group with pads
 * of several nets is "conflicting" and nothing changes (the shorts stay shorts); a group without
 * pads takes the net of its first netted item. KiCad starts that search from an item picked by
 * address; the first netted item in board order stands in for it (on kicad-demo_ecc83-pp two
 * crossing fault tracks both take the first one's net).
 */
export function effectiveNets(items: readonly CopperItem[], groups: UnionFind, viaZone?: ReadonlyMap<number, number>): Int32Array {
  const n = items.length;
  const padNet = new Int32Array(n);
  const conflict = new Uint8Array(n);
  const anyNet = new Int32Array(n);
  for (const it of items) {
    if (it.net <= 0 || !inGroups(it)) continue;
    const r = groups.find(it.id);
    if (anyNet[r] === 0) anyNet[r] = it.net;
    if (it.kind !== 'pad') continue;
    if (padNet[r] === 0) padNet[r] = it.net;
    else if (padNet[r] !== it.net) conflict[r] = 1;
  }
  const nets = new Int32Array(n);
  for (const it of items) {
    nets[it.id] = it.net;
    if (!canChangeNet(it)) continue;
    const zoneNet = viaZone?.get(it.id);
    if (zoneNet !== undefined) {
      nets[it.id] = zoneNet;
      continue;
    }
    const r = groups.find(it.id);
    if (conflict[r]) continue;
    const origin = padNet[r] || anyNet[r];
    if (origin > 0) nets[it.id] = origin;
  }
  return nets;
}

function inGroups(it: CopperItem): boolean {
  return it.kind !== 'zone' && (it.kind !== 'graphic' || it.net === 0);
}

/** Joins every item, propagates nets and builds the single-net clusters and the ratsnest count. */
export function connect(copper: CopperItems): Connectivity {
  const items = copper.items;
  const uf = new UnionFind(items.length);
  const groups = new UnionFind(items.length);
  const links = new Map<number, number[]>();
  const link = (a: number, b: number) => {
    let l = links.get(a);
    if (!l) links.set(a, (l = []));
    l.push(b);
  };
  // Contacts involving a track or via, as pairs; they join a cluster once the nets are known.
  const movable: number[] = [];
  for (const a of items) {
    const aMoves = canChangeNet(a);
    for (const j of copper.near(a.shape)) {
      if (j <= a.id) continue;
      const b = items[j];
      const bMoves = canChangeNet(b);
      const sameNet = b.net === a.net && a.net > 0;
      if (!sameNet && !aMoves && !bMoves) continue;
      // Pads and zones of one net already clustered need no second test.
      if (sameNet && !aMoves && !bMoves && uf.find(a.id) === uf.find(j)) continue;
      if (!touches(a, b)) continue;
      if (aMoves || bMoves) {
        movable.push(a.id, j);
        // Pads of one net joined directly never change a group's outcome: only these count.
        if (inGroups(a) && inGroups(b)) groups.union(a.id, j);
      } else uf.union(a.id, j);
      if (aMoves) link(a.id, j);
      if (bMoves) link(j, a.id);
    }
  }
  const nets = effectiveNets(items, groups, judgedByKicad10(copper.board) ? loneViaZones(items, groups, links) : undefined);
  for (let k = 0; k < movable.length; k += 2) {
    const a = movable[k];
    const b = movable[k + 1];
    if (nets[a] === nets[b] && nets[a] > 0) uf.union(a, b);
  }
  return { uf, links, nets, ...countRatsnest(copper, uf, nets) };
}

/**
 * Σ over nets (code > 0) of (clusters − 1), and the cluster count per net. `nets` gives each
 * item's effective net (connect's), the file's nets when left out.
 */
export function countRatsnest(copper: CopperItems, uf: UnionFind, nets?: Int32Array): { unconnected: number; clusters: Map<number, number> } {
  const roots = new Map<number, Set<number>>();
  // KiCad makes a ratsnest node of every cluster but a lone zone island: a stray track or via
  // counts (kicad-demo_ecc83-pp's crossing fault tracks, on no pad, add one). Fills joined only
  // to fills are left out as well: KiCad joins fills by their outline points, not by overlap,
  // so it sees those as lone islands (kicad-demo_flat_hierarchy's bare board).
  for (const it of copper.items) {
    const net = nets ? nets[it.id] : it.net;
    if (net <= 0 || (it.kind !== 'pad' && it.kind !== 'track' && it.kind !== 'via')) continue;
    let s = roots.get(net);
    if (!s) roots.set(net, (s = new Set()));
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
