// Joins a zone's plane already makes. With soft zones a zone's net is routed by tracks like any
// other net, as other nets' routes may notch its plane; afterwards each of its joins that the
// plane — refilled around every other net's new copper, judged pessimistically on the grid —
// still makes is taken out again, last first, so the net keeps tracks only where its plane does
// not reach. KiCad counts a pad its zone's fill reaches as connected; so does the result.

import { bbox, boxesOverlap, circle, compareDistance, inflateBox, segment, type Shape } from '../../geom/index.ts';
import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { joins as copperJoins, UnionFind } from '../../drc/connectivity.ts';
import type { ConnItem } from '../negotiate/connectivity.ts';
import { keepJoins, keptCopper } from '../finish/final-gate.ts';
import type { Grid } from '../core/grid.ts';
import type { HostObstacle, HostPad, RouterHost } from '../core/host.ts';
import type { NetPlan } from '../negotiate/net-plan.ts';
import type { Profile } from '../core/profile.ts';
import { FREE, KNOCKED, labelRefill } from './fill-necks.ts';
import { inside, near, spokesOf, type ReliefGuard } from './plane-islands.ts';
import type { Join } from '../negotiate/router.ts';
import { byNetName } from '../core/net-rank.ts';

/** Per zone net, the component each plan piece lies in when only the plane joins pieces (equal
 *  numbers: joined through it): as saved, before any routing, and refilled after it. */
export type PlaneLinks = Map<number, { before: Int32Array; after: Int32Array }>;

/** Knock-outs are grown by this many steps: a site stands for a cell a step wide, so the edge of
 *  a knock-out may lie that far past the last site it marks. */
const NECK_STEPS = 1;

/** Rounds of giving joins back to reliefs their pruning starved. */
const RESTORE_ROUNDS = 4;

/**
 * Takes out of `kept` the joins of zone nets that their refilled planes make redundant; returns
 * the plane's links per zone net. `guard`, when given, keeps thermal reliefs fed: a join whose
 * track leaves a pad its pruning starved is given back (KiCad counts such a track as a spoke).
 */
export function prunePlaneJoins(
  host: RouterHost,
  grid: Grid,
  plans: readonly NetPlan[],
  groups: ReadonlyMap<number, number[][]>,
  items: readonly ConnItem[],
  profiles: readonly Profile[],
  kept: Map<number, Join[]>,
  guard?: ReliefGuard,
): PlaneLinks {
  const links: PlaneLinks = new Map();
  const fillsByNet = zoneFills(host);
  const byName = byNetName(host);
  const byNet = [...plans].filter((p) => fillsByNet.has(p.net)).sort((a, b) => byName(a.net, b.net));
  if (byNet.length === 0) return links;
  const all = [...plans].sort((a, b) => byName(a.net, b.net)).map((p) => ({ net: p.net, profile: profiles[p.profile] }));
  const copper = () => keptCopper(kept, all, grid.layers);
  // Reliefs of this net starved with the current copper (keys: layer × pads + pad).
  const starvedOf = (net: number): Set<number> => {
    const out = new Set<number>();
    if (!guard) return out;
    const { tracks, vias } = copper();
    for (const key of guard.starved(tracks, vias).keys()) if (host.pads[key % host.pads.length].net === net) out.add(key);
    return out;
  };
  const { tracks, vias } = copper();
  for (const plan of byNet) {
    const g = groups.get(plan.net) ?? [];
    const fills = fillsByNet.get(plan.net)!;
    const comp = planeComponents(host, grid, plan.net, plan.pieces.length, g, items, fills, tracks, vias);
    links.set(plan.net, { before: planeComponents(host, grid, plan.net, plan.pieces.length, g, items, fills, [], []), after: comp });
    const joins = kept.get(plan.net) ?? [];
    const out = prune(joins, comp);
    if (out.size === 0) continue;
    const before = starvedOf(plan.net);
    let fed = false;
    for (let round = 0; round < RESTORE_ROUNDS && !fed; round++) {
      kept.set(plan.net, without(joins, out));
      const hungry = [...starvedOf(plan.net)].filter((k) => !before.has(k)).map((k) => host.pads[k % host.pads.length]);
      if (hungry.length === 0) fed = true;
      else if (!restore(joins, out, hungry)) break;
    }
    if (!fed) kept.set(plan.net, joins);
  }
  return links;
}

/** The fill polygons of each zone net, one layer each, in the host's order. */
export function zoneFills(host: RouterHost): Map<number, HostObstacle[]> {
  const out = new Map<number, HostObstacle[]>();
  for (const o of host.obstacles) {
    if (o.kind !== 'zone' || o.net <= 0 || o.layers === 0 || (o.layers & (o.layers - 1)) !== 0) continue;
    let l = out.get(o.net);
    if (!l) out.set(o.net, (l = []));
    l.push(o);
  }
  return out;
}

/** The joins not in `out`, renumbered. */
function without(joins: Join[], out: ReadonlySet<number>): Join[] {
  const keep = new Set<number>();
  for (let i = 0; i < joins.length; i++) if (!out.has(i)) keep.add(i);
  return keepJoins(joins, keep);
}

/** Gives back every pruned join with a track end on one of `pads`, with the joins it hangs on;
 *  false when there is none. */
function restore(joins: Join[], out: Set<number>, pads: HostPad[]): boolean {
  const onPad = (p: { x: number; y: number }) => pads.some((pad) => compareDistance({ kind: 'circle', x: p.x, y: p.y, r: 0 }, pad.shape, 1) < 0);
  let any = false;
  for (const i of [...out].sort((a, b) => a - b)) {
    const ends = joins[i].copper.legs.flatMap((l) => [l.pts[0], l.pts[l.pts.length - 1]]);
    if (!ends.some(onPad)) continue;
    for (let k = i; k >= 0 && out.has(k); k = joins[k].fromJoin) out.delete(k);
    any = true;
  }
  return any;
}

/** Number of components of the pieces under the plane's links and the joins not in `out`. */
function components(joins: readonly Join[], comp: Int32Array, out: ReadonlySet<number>): number {
  const n = comp.length;
  const uf = new UnionFind(n);
  for (let i = 0; i < n; i++) if (comp[i] !== i) uf.union(i, comp[i]);
  joins.forEach((j, i) => {
    if (out.has(i)) return;
    uf.union(j.to, j.fromJoin >= 0 ? joins[j.fromJoin].to : j.fromPiece);
  });
  let c = 0;
  for (let i = 0; i < n; i++) if (uf.find(i) === i) c++;
  return c;
}

/** The joins the plane makes redundant, last first; a join something else hangs on stays. */
function prune(joins: Join[], comp: Int32Array): Set<number> {
  const out = new Set<number>();
  const base = components(joins, comp, out);
  for (let i = joins.length - 1; i >= 0; i--) {
    if (joins.some((j, k) => k !== i && !out.has(k) && j.fromJoin === i)) continue;
    out.add(i);
    if (components(joins, comp, out) !== base) out.delete(i);
  }
  return out;
}

/**
 * For each piece of a zone net's plan, the least piece it shares a refilled fill piece with
 * (itself when none). Each fill polygon is rasterized, the other nets' new copper taken out
 * grown by the zone's clearance and a step, and the rest labelled 4-connected after necks
 * narrower than the zone's minimum width are cut (fill-necks.ts); a piece touches a fill piece
 * by a thermal spoke, a solid pad's edge, or its own tracks and vias. `groups` are the first of
 * `pieces` pieces (the rest, a route's waypoints, touch no fill).
 */
export function planeComponents(
  host: RouterHost,
  grid: Grid,
  net: number,
  pieces: number,
  groups: readonly number[][],
  items: readonly ConnItem[],
  fills: readonly HostObstacle[],
  tracks: readonly NewTrack[],
  vias: readonly NewVia[],
): Int32Array {
  const n = pieces;
  const edges: [number, number][] = [];
  let labelBase = n;
  const state = new Int32Array(grid.cells);
  for (const f of fills) {
    const layer = 31 - Math.clz32(f.layers);
    if (layer >= grid.layers) continue;
    const cells = inside(grid, f.shape);
    if (cells.length === 0) continue;
    for (const c of cells) state[c] = FREE;
    const box = bbox(f.shape);
    const clr = Math.max(f.clearance, host.rules.clearance(net, 0, layer)) + NECK_STEPS * grid.step;
    const knock = (s: Shape) => {
      if (boxesOverlap(inflateBox(bbox(s), clr), box)) near(grid, s, clr, (c) => state[c] === FREE && (state[c] = KNOCKED));
    };
    for (const t of tracks) if (t.layer === layer && t.net !== net) knock(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width));
    for (const v of vias) if (v.net !== net && v.layerFrom <= layer && layer <= v.layerTo) knock(circle(v.at.x, v.at.y, v.size / 2));
    const labels = labelRefill(grid, state, cells, (f.minWidth ?? 0) / 2 / grid.step);
    const touch = (piece: number) => (c: number) => {
      if (state[c] > 0) edges.push([piece, labelBase + state[c] - 1]);
    };
    let inFill: Set<number> | undefined;
    groups.forEach((g, piece) => {
      for (const i of g) {
        const it = items[i];
        // Only what the saved fill joins counts (spokes are part of the fill); the refill then decides.
        if (it.zone || ((it.layers >>> layer) & 1) === 0 || !boxesOverlap(bbox(it.shape), box) || !copperJoins(it.shape, f.shape)) continue;
        if (it.pad < 0) {
          near(grid, it.shape, 1, touch(piece));
          continue;
        }
        if (f.noPads) continue;
        const pad = host.pads[it.pad];
        if (f.thermal && !(f.thermal.thtOnly && !pad.throughHole)) {
          inFill ??= new Set(cells);
          for (const c of spokesOf(pad, f.shape, f.thermal.gap, grid, inFill)) touch(piece)(c);
        } else near(grid, pad.shape, 1, touch(piece));
      }
    });
    for (const c of cells) state[c] = 0;
    labelBase += labels;
  }
  const uf = new UnionFind(labelBase);
  for (const [a, b] of edges) uf.union(a, b);
  const least = new Map<number, number>();
  const comp = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const r = uf.find(i);
    if (!least.has(r)) least.set(r, i);
    comp[i] = least.get(r)!;
  }
  return comp;
}
