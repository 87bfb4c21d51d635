// Why a connection stayed open, as a typed reason with a sentence for a person. The proof is a
// flood fill from the connection's pad over the sites its net may still use (fixed copper and
// the nets kept in this call are walls): a small region that never reaches the other end is a
// pad boxed in; a large one is a search that exhausted its region. Flood cells count as work.

import type { Grid } from './grid.ts';
import type { RouterHost } from './host.ts';
import type { NetPlan } from './net-plan.ts';
import { BLOCKED } from './obstacle-map.ts';
import type { Router } from './router.ts';
import type { ConnectionResult, StuckReason } from './types.ts';

/** A closed region holding less than this share of the board's sites is a box round a pad. */
const BOXED_SHARE = 0.25;
/** Flood cells spent at most per explanation. */
const FLOOD_LIMIT = 200_000;
/** Flood cells spent at most over all explanations of a result: on a large board left far
 *  from done, proofs for every open connection would cost more than the routing did. */
const EXPLAIN_LIMIT = 8_000_000;

/** Scratch shared by the explanations of one result: a generation-marked visited array (no
 *  allocation per flood) and the flood cells still allowed. */
export class Explainer {
  #seen: Uint32Array | undefined;
  #gen = 0;
  left = EXPLAIN_LIMIT;

  /** A fresh visited mark over `n` nodes: returns the array and the mark meaning "seen". */
  mark(n: number): { seen: Uint32Array; gen: number } {
    if (!this.#seen || this.#seen.length < n) {
      this.#seen = new Uint32Array(n);
      this.#gen = 0;
    }
    return { seen: this.#seen, gen: ++this.#gen };
  }
}

interface Flood {
  size: number;
  reachedTarget: boolean;
  viaSites: number;
  hits: Map<number, number>;
  exhausted: boolean;
}

function flood(router: Router, grid: Grid, plan: NetPlan, from: number[], target: Set<number>, ex: Explainer): Flood {
  const map = router.maps[plan.profile];
  const occ = router.occ.views[plan.profile];
  const cells = grid.cells;
  const { seen, gen } = ex.mark(cells * grid.layers);
  const limit = Math.min(FLOOD_LIMIT, ex.left);
  const queue: number[] = [];
  const hits = new Map<number, number>();
  let viaSites = 0;
  for (const n of from) {
    if (seen[n] !== gen) {
      seen[n] = gen;
      queue.push(n);
    }
  }
  let head = 0;
  const usable = (n: number): boolean => {
    const o = map.track[n];
    if (o !== 0 && o !== plan.net) {
      if (o !== BLOCKED) hits.set(o, (hits.get(o) ?? 0) + 1);
      return false;
    }
    return occ.track[n] === 0;
  };
  while (head < queue.length && head < limit) {
    const n = queue[head++];
    if (target.has(n)) {
      ex.left -= head;
      return { size: head, reachedTarget: true, viaSites, hits, exhausted: false };
    }
    const layer = Math.floor(n / cells);
    const c = n - layer * cells;
    const x = c % grid.nx;
    const y = (c - x) / grid.nx;
    const nb = [x > 0 ? n - 1 : -1, x < grid.nx - 1 ? n + 1 : -1, y > 0 ? n - grid.nx : -1, y < grid.ny - 1 ? n + grid.nx : -1];
    for (const m of nb) {
      if (m < 0 || seen[m] === gen) continue;
      seen[m] = gen;
      if (usable(m)) queue.push(m);
    }
    if (grid.layers > 1 && occ.via[c] === 0) {
      let site = false;
      for (let l = 0; l < grid.layers; l++) {
        const m = l * cells + c;
        if (l === layer || map.viaBlocker(c, plan.net, layer, l) !== 0) continue;
        site = true;
        if (seen[m] === gen) continue;
        seen[m] = gen;
        if (usable(m)) queue.push(m);
      }
      if (site) viaSites++;
    }
  }
  ex.left -= head;
  return { size: head, reachedTarget: false, viaSites, hits, exhausted: head < limit };
}

/** The reason a connection is open (the router's state after commit). */
export function explainStuck(host: RouterHost, grid: Grid, router: Router, plan: NetPlan, conn: ConnectionResult, stopped: 'done' | 'budget' | 'cancelled', ex: Explainer): StuckReason {
  const stats = router.stats.get(plan.net)!;
  const name = (net: number) => host.netNames[net] ?? '';
  const pieceOf = (padIndex: number) => plan.pieces.findIndex((p) => p.pads.some((i) => host.pads[i].index === padIndex));
  const a = plan.pieces[pieceOf(conn.from.pad)];
  const b = plan.pieces[pieceOf(conn.to.pad)];
  const label = (r: { ref: string; number: string }) => `${r.ref}.${r.number}`;
  const base = { rips: stats.rips, fails: stats.fails, tried: stats.tried, blockers: [] as StuckReason['blockers'] };
  if (!stats.tried && stopped !== 'done') {
    return { ...base, reason: 'budget', why: stopped === 'cancelled' ? `The route was stopped before ${label(conn.from)}–${label(conn.to)} was attempted.` : `The work budget ran out before ${label(conn.from)}–${label(conn.to)} was attempted.` };
  }
  for (const [piece, ref] of [[a, conn.from], [b, conn.to]] as const) {
    if (piece && piece.nodes.length === 0) {
      return { ...base, reason: 'unreachable', at: ref.at, why: `Pad ${label(ref)} has no place a track of this net may touch: it lies off the board, inside a keep-out, or closer to other copper than the clearance allows.` };
    }
  }
  if (ex.left < FLOOD_LIMIT / 10) {
    // No proof left to spend: the reason from the searches' own record.
    const blockers = [...stats.blockers.entries()].filter(([k]) => k > 0 && k !== plan.net).sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, 5).map(([net, count]) => ({ net, name: name(net), count }));
    if (stats.budget || stopped !== 'done') return { ...base, blockers, reason: 'budget', at: conn.from.at, why: `The work budget ran out while searching for ${label(conn.from)}–${label(conn.to)}.` };
    return { ...base, blockers, reason: 'blocked', at: conn.from.at, why: `The search for ${label(conn.from)}–${label(conn.to)} found no legal path${blockers.length ? ` past ${blockers.slice(0, 3).map((b) => b.name || `net ${b.net}`).join(', ')}` : ''}.` };
  }
  // Flood from each end with the net's own copper out of the way.
  const route = router.routes.get(plan.net);
  router.occ.rip(plan.net);
  const fa = flood(router, grid, plan, a.nodes, new Set(b.nodes), ex);
  const fb = fa.reachedTarget ? fa : flood(router, grid, plan, b.nodes, new Set(a.nodes), ex);
  if (route) router.occ.stamp(router.copperOf(plan, route));
  router.work += fa.size + (fb === fa ? 0 : fb.size);
  const hits = new Map<number, number>(stats.blockers);
  for (const f of [fa, fb]) for (const [k, v] of f.hits) hits.set(k, (hits.get(k) ?? 0) + v);
  const blockers = [...hits.entries()]
    .filter(([k]) => k > 0 && k !== plan.net)
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, 5)
    .map(([net, count]) => ({ net, name: name(net), count }));
  const who = blockers.length ? ` by ${blockers.slice(0, 3).map((b) => b.name || `net ${b.net}`).join(', ')}` : '';
  for (const [f, ref] of [[fa, conn.from], [fb, conn.to]] as const) {
    if (!f.reachedTarget && f.exhausted && f.size < BOXED_SHARE * grid.cells * grid.layers) {
      return { ...base, blockers, reason: 'boxed_in', at: ref.at, why: `Pad ${label(ref)} is fenced in${who}: a flood fill from it reaches only ${f.size} grid sites and never the other end.` };
    }
  }
  if (stats.budget || stopped !== 'done') {
    return { ...base, blockers, reason: 'budget', at: conn.from.at, why: `The work budget ran out while searching for ${label(conn.from)}–${label(conn.to)}.` };
  }
  const shared = (a.layers & b.layers) !== 0;
  if (!fa.reachedTarget && !shared && fa.viaSites === 0) {
    return { ...base, blockers, reason: 'no_via_site', at: conn.from.at, why: `${label(conn.from)} and ${label(conn.to)} are on different layers and no via fits anywhere the route can reach from ${label(conn.from)}.` };
  }
  return {
    ...base,
    blockers,
    reason: 'blocked',
    at: conn.from.at,
    why: fa.reachedTarget
      ? `A path for ${label(conn.from)}–${label(conn.to)} exists only through space other routes of this call now hold${who}; rip them or route this net first.`
      : `The search from ${label(conn.from)} to ${label(conn.to)} exhausted its region (${fa.size} sites) without reaching the other end; it is cut off${who}.`,
  };
}
