// A variant's typed result from what its run kept: the new tracks and vias net by net, every
// connection made or open as KiCad's connectivity would count it (pieces a refilled plane joins
// count as one), and for each open one the reason, within the work the finishing steps have left.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import type { Pt } from '../../board/model.ts';
import { UnionFind } from '../../drc/connectivity.ts';
import type { Grid } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import { copperLength, type PathCopper } from '../core/path-geometry.ts';
import type { Profile } from '../core/profile.ts';
import { viaOf } from '../core/via-span.ts';
import { itemsOf } from '../finish/final-gate.ts';
import { connectedPieces, trackItem, viaItem, type ConnItem } from '../negotiate/connectivity.ts';
import { pieceDistance, type NetPlan } from '../negotiate/net-plan.ts';
import type { Router } from '../negotiate/router.ts';
import type { PlaneLinks } from '../zones/plane-joins.ts';
import { padRef, type ConnectionResult, type NetResult, type RouteResult } from '../types.ts';
import { boundedExplainer } from './work-bound.ts';
import { byNetName } from '../core/net-rank.ts';

/** A variant's run as far as its result needs it: the world it searched, its plans and router,
 *  and what the final gate kept (copper per net), cut (net → the finding) and the planes join. */
export interface VariantRun {
  host: RouterHost;
  grid: Grid;
  plans: NetPlan[];
  profiles: Profile[];
  router: Router;
  /** The connectivity items of the board's own copper and pads, before this run. */
  items: ConnItem[];
  variant: number;
  seed: number;
  /** Work the finishing steps may spend in all (what set-up left of the budget). */
  finish: number;
  /** Work spent so far: set-up and the searches. */
  work: number;
  kept: Map<number, PathCopper[]>;
  cut: Map<number, string>;
  planes: PlaneLinks;
  /** One connection asked for alone: its two pads (host indices). */
  only?: { from: number; to: number };
}

export function buildResult(run: VariantRun): Omit<RouteResult, 'budget' | 'setup'> {
  const { tracks, vias, nets, extra } = laidCopper(run);
  // Final connectivity from geometry, as KiCad would see it.
  const after = connectedPieces([...run.items, ...extra.map((e) => ({ ...e }))]);
  const connections: ConnectionResult[] = [];
  const byName = byNetName(run.host);
  for (const plan of [...run.plans].sort((a, b) => byName(a.net, b.net))) countConnections(run, plan, nets, after, connections);
  const work = run.work + explainOpen(run, connections);
  const open = connections.filter((c) => !c.routed);
  let length = 0;
  for (const r of nets) length += r.length;
  return {
    tracks,
    vias,
    nets,
    connections,
    open,
    ripped: { tracks: [], vias: [] },
    work,
    stopped: run.router.stopped,
    variant: run.variant,
    seed: run.seed,
    summary: { routed: connections.length - open.length, open: open.length, tracks: tracks.length, vias: vias.length, length },
  };
}

/** The kept copper as tracks and vias, net by net (in name order), and their connectivity items. */
function laidCopper(run: VariantRun): { tracks: NewTrack[]; vias: NewVia[]; nets: NetResult[]; extra: ConnItem[] } {
  const { host, profiles, kept } = run;
  const L = host.layerCount;
  const allTracks: NewTrack[] = [];
  const allVias: NewVia[] = [];
  const netResults: NetResult[] = [];
  const extra: ConnItem[] = [];
  const byName = byNetName(host);
  for (const plan of [...run.plans].sort((a, b) => byName(a.net, b.net))) {
    const prof = profiles[plan.profile];
    const tracks: NewTrack[] = [];
    const vias: NewVia[] = [];
    let length = 0;
    // Two joins of a net may change layer at one site: one via there joins both, spanning what
    // both spanned (a through via already joins every layer).
    const viaSites = new Map<string, NewVia>();
    for (const c of kept.get(plan.net) ?? []) {
      length += copperLength(c);
      const it = itemsOf(plan.net, prof, c, L);
      for (const t of it.tracks) {
        tracks.push(t);
        extra.push(trackItem(t));
      }
      for (const v of it.vias) {
        const site = `${v.at.x},${v.at.y}`;
        const there = viaSites.get(site);
        if (!there) {
          viaSites.set(site, v);
          vias.push(v);
        } else if (v.layerFrom < there.layerFrom || v.layerTo > there.layerTo) {
          // Each at its own size (a necked via is smaller): the merged one at the larger.
          const size =
            v.type !== 'micro' && there.type !== 'micro' ? { diameter: Math.max(v.size, there.size), drill: Math.max(v.drill, there.drill) } : undefined;
          const k = viaOf(prof, { from: Math.min(v.layerFrom, there.layerFrom), to: Math.max(v.layerTo, there.layerTo), size }, L);
          Object.assign(there, { size: k.diameter, drill: k.drill, layerFrom: k.from, layerTo: k.to, type: k.type });
        }
      }
    }
    for (const v of vias) extra.push(viaItem(v));
    allTracks.push(...tracks);
    allVias.push(...vias);
    netResults.push({ net: plan.net, name: host.netNames[plan.net] ?? '', routed: 0, open: 0, tracks, vias, length });
  }
  return { tracks: allTracks, vias: allVias, nets: netResults, extra };
}

/** One net's connections, made or open, appended to `connections`; its counts set on its result. */
function countConnections(run: VariantRun, plan: NetPlan, netResults: NetResult[], after: Map<number, number[][]>, connections: ConnectionResult[]): void {
  const { host, items, planes, only } = run;
  const nr = netResults.find((r) => r.net === plan.net)!;
  const groups = (after.get(plan.net) ?? [])
    .map((g) => g.filter((i) => i < items.length && items[i].pad >= 0).map((i) => items[i].pad))
    .filter((g) => g.length > 0);
  // Each original piece lies in exactly one final group: count joins made.
  const pieceGroup = plan.pieces.map((pc) => groups.findIndex((g) => pc.pads.some((p) => g.includes(p))));
  // Pieces the refilled plane joins count as one, as KiCad counts them.
  const plane = planes.get(plan.net)?.after;
  if (plane) {
    const uf = new UnionFind(groups.length);
    const first = new Map<number, number>();
    pieceGroup.forEach((g, i) => {
      if (g < 0) return;
      const f = first.get(plane[i]);
      if (f === undefined) first.set(plane[i], g);
      else uf.union(f, g);
    });
    for (let i = 0; i < pieceGroup.length; i++) if (pieceGroup[i] >= 0) pieceGroup[i] = uf.find(pieceGroup[i]);
  }
  if (only) {
    // One connection asked for (through waypoints, which are no pads): made when its two
    // pads end in one group.
    const g = groupOf(groups, host.pads[only.from].index, host);
    const routed = g >= 0 && g === groupOf(groups, host.pads[only.to].index, host);
    nr.routed = routed ? 1 : 0;
    nr.open = routed ? 0 : 1;
    connections.push({ net: plan.net, netName: host.netNames[plan.net] ?? '', from: padRef(host.pads[only.from]), to: padRef(host.pads[only.to]), routed });
    return;
  }
  const distinct = new Set(pieceGroup.filter((g) => g >= 0)).size + pieceGroup.filter((g) => g < 0).length;
  nr.routed = plan.pieces.length - distinct;
  nr.open = distinct - 1;
  nr.routed -= treeConnections(run, plan, pieceGroup, connections);
  // Open connections beyond what Prim's tree marks: a net may be split differently.
  let openMarked = connections.filter((c) => c.net === plan.net && !c.routed).length;
  for (const c of connections) {
    if (c.net !== plan.net || !c.routed || openMarked >= nr.open) continue;
    if (openMarked < nr.open && groupOf(groups, c.from.pad, host) !== groupOf(groups, c.to.pad, host)) {
      c.routed = false;
      openMarked++;
    }
  }
}

/**
 * A net's connections by Prim over its pieces, appended to `connections`: an edge is routed when
 * its two pieces ended up together. Pieces the plane joined before routing and still joins were
 * never a connection to make: Prim takes them together first, at distance -1, and leaves them
 * out. Returns how many such plane joins there were (the net's routed count is less by them).
 */
function treeConnections(run: VariantRun, plan: NetPlan, pieceGroup: number[], connections: ConnectionResult[]): number {
  const { host } = run;
  const saved = run.planes.get(plan.net)?.before;
  const joined = (i: number, j: number) => saved !== undefined && saved[i] === saved[j] && pieceGroup[i] >= 0 && pieceGroup[i] === pieceGroup[j];
  let planeJoins = 0;
  const n = plan.pieces.length;
  const inTree = new Uint8Array(n);
  inTree[0] = 1;
  for (let k = 1; k < n; k++) {
    let bi = -1;
    let bj = -1;
    let bd = Infinity;
    for (let i = 0; i < n; i++) {
      if (!inTree[i]) continue;
      for (let j = 0; j < n; j++) {
        if (inTree[j]) continue;
        const d = joined(i, j) ? -1 : pieceDistance(plan.pieces[i], plan.pieces[j]);
        if (d < bd) {
          bd = d;
          bi = i;
          bj = j;
        }
      }
    }
    inTree[bj] = 1;
    if (bd < 0) {
      planeJoins++;
      continue;
    }
    // A piece of copper alone (a via an agent placed, copper a rip left apart) is no
    // connection between pads: it is joined when a route passes it, and named by none.
    if (plan.pieces[bi].pads.length === 0 || plan.pieces[bj].pads.length === 0) continue;
    const [pa, pb] = nearestPads(host, plan.pieces[bi].pads, plan.pieces[bj].pads);
    const routed = pieceGroup[bi] >= 0 && pieceGroup[bi] === pieceGroup[bj];
    connections.push({ net: plan.net, netName: host.netNames[plan.net] ?? '', from: padRef(host.pads[pa]), to: padRef(host.pads[pb]), routed });
  }
  return planeJoins;
}

/** Each open connection's reason, the final gate's finding where it refused the route; returns
 *  the work the explanations spent (their flood cells), within what set-up left. */
function explainOpen(run: VariantRun, connections: ConnectionResult[]): number {
  const { router, plans, cut } = run;
  const before = router.work;
  const explain = boundedExplainer(run.host, run.grid, router, run.finish);
  for (const c of connections) {
    if (c.routed) continue;
    c.stuck = explain(
      plans.find((p) => p.net === c.net)!,
      c,
    );
    const drc = cut.get(c.net);
    if (drc)
      c.stuck = {
        ...c.stuck,
        reason: 'blocked',
        why: `A route for ${c.from.ref}.${c.from.number}–${c.to.ref}.${c.to.number} was found but the final design-rule check refused it (${drc}), so it was left out.`,
      };
  }
  return router.work - before;
}

function groupOf(groups: number[][], padIndex: number, host: RouterHost): number {
  const hi = host.pads.findIndex((p) => p.index === padIndex);
  return groups.findIndex((g) => g.includes(hi));
}

function nearestPads(host: RouterHost, a: number[], b: number[]): [number, number] {
  let best: [number, number] = [a[0] ?? 0, b[0] ?? 0];
  let bd = Infinity;
  for (const i of a) {
    for (const j of b) {
      const p: Pt = host.pads[i].at;
      const q: Pt = host.pads[j].at;
      const d = Math.hypot(p.x - q.x, p.y - q.y);
      if (d < bd) {
        bd = d;
        best = [i, j];
      }
    }
  }
  return best;
}
