// Why a connection stayed open, as a typed reason with a sentence for a person. Floods decide it:
// at the class width over what the search saw (fixed copper and this call's routes), over the fixed
// copper alone, and the proof at the narrowest legal width (fence-proof.ts) that alone may say a
// pad is boxed in. Blockers are the nets on the boundary of the region reached. Flood cells are work.

import { mmText } from '../../geom/units.ts';
import type { Grid } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import type { NetPlan, Piece } from '../negotiate/net-plan.ts';
import type { ObstacleMap } from '../core/obstacle-map.ts';
import type { Profile } from '../core/profile.ts';
import { cutNets, proveFenced, relaxedMap, touchSites } from './fence-proof.ts';
import type { NetStats, Router } from '../negotiate/router.ts';
import type { ConnectionResult, StuckReason } from '../types.ts';

/** Flood cells spent at most per explanation. */
const FLOOD_LIMIT = 200_000;
/** Flood cells spent at most over all explanations of a result: on a large board left far
 *  from done, proofs for every open connection would cost more than the routing did. */
const EXPLAIN_LIMIT = 8_000_000;
/** Sites of a region's boundary the exact checker is asked who holds them, at most. */
const HELD_PROBES = 400;

/** Scratch shared by the explanations of one result: a generation-marked visited array (no
 *  allocation per flood) and the flood cells still allowed. */
export class Explainer {
  #seen: Uint32Array | undefined;
  #gen = 0;
  left = EXPLAIN_LIMIT;
  readonly #relaxed = new Map<number, ObstacleMap>();

  /** The relaxed map of a plan's profile at its narrowest legal copper, built once per result
   *  (its rasterizing is work). */
  relaxed(host: RouterHost, grid: Grid, router: Router, plan: NetPlan): ObstacleMap {
    let m = this.#relaxed.get(plan.profile);
    if (!m) {
      this.#relaxed.set(plan.profile, (m = relaxedMap(host, grid, router.profiles[plan.profile])));
      router.work += m.work;
    }
    return m;
  }

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
  /** Walled sites next to the region, per owner of the wall (fixed copper: net or BLOCKED). */
  hits: Map<number, number>;
  /** Sites next to the region that only this call's routes wall off. */
  held: number[];
  exhausted: boolean;
  /** The first cell reached where a via of the net's class fits (-1 when none). */
  firstVia: number;
}

/** A flood at the class width over the router's map; with `routes`, this call's routes are
 *  walls too (the world the search saw), else only the fixed world. */
function flood(router: Router, grid: Grid, plan: NetPlan, from: number[], target: Set<number>, ex: Explainer, routes: boolean): Flood {
  const map = router.maps[plan.profile];
  const occ = router.occ.views[plan.profile];
  const cells = grid.cells;
  const { seen, gen } = ex.mark(cells * grid.layers);
  const limit = Math.min(FLOOD_LIMIT, ex.left);
  const queue: number[] = [];
  const hits = new Map<number, number>();
  const held: number[] = [];
  let viaSites = 0;
  let firstVia = -1;
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
      hits.set(o, (hits.get(o) ?? 0) + 1);
      return false;
    }
    if (routes && occ.track[n] !== 0) {
      held.push(n);
      return false;
    }
    return true;
  };
  while (head < queue.length && head < limit) {
    const n = queue[head++];
    if (target.has(n)) {
      ex.left -= head;
      return { size: head, reachedTarget: true, viaSites, hits, held, exhausted: false, firstVia };
    }
    const layer = Math.floor(n / cells);
    const c = n - layer * cells;
    const x = c % grid.nx;
    const y = (c - x) / grid.nx;
    // The search steps to all eight neighbours (diagonals too), so the flood that speaks for it must:
    // a 45° lane one site wide has no orthogonal steps along it.
    const w = x > 0;
    const e = x < grid.nx - 1;
    const nth = y > 0;
    const sth = y < grid.ny - 1;
    const nb = [
      w ? n - 1 : -1,
      e ? n + 1 : -1,
      nth ? n - grid.nx : -1,
      sth ? n + grid.nx : -1,
      w && nth ? n - grid.nx - 1 : -1,
      e && nth ? n - grid.nx + 1 : -1,
      w && sth ? n + grid.nx - 1 : -1,
      e && sth ? n + grid.nx + 1 : -1,
    ];
    for (const m of nb) {
      if (m < 0 || seen[m] === gen) continue;
      seen[m] = gen;
      if (usable(m)) queue.push(m);
    }
    if (grid.layers > 1 && (!routes || occ.via[c] === 0)) {
      let site = false;
      for (let l = 0; l < grid.layers; l++) {
        const m = l * cells + c;
        if (l === layer || map.viaBlocker(c, plan.net, layer, l) !== 0) continue;
        site = true;
        if (seen[m] === gen) continue;
        seen[m] = gen;
        if (usable(m)) queue.push(m);
      }
      if (site && viaSites++ === 0) firstVia = c;
    }
  }
  ex.left -= head;
  return { size: head, reachedTarget: false, viaSites, hits, held, exhausted: head < limit, firstVia };
}

/** Which of this call's nets hold the given sites: the exact checker names the copper a track of
 *  the class width there would hit. At most HELD_PROBES sites are asked. */
function heldBy(router: Router, grid: Grid, plan: NetPlan, sites: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  const width = router.profiles[plan.profile].width;
  const stride = Math.max(1, Math.ceil(sites.length / HELD_PROBES));
  for (let i = 0; i < sites.length; i += stride) {
    const n = sites[i];
    const layer = Math.floor(n / grid.cells);
    const c = n - layer * grid.cells;
    const x = grid.x(c);
    const y = grid.y(c);
    const v = router.checker.track(plan.net, layer, x, y, x, y, width[layer]);
    router.work++;
    // Only this call's routes hold such a site; fixed copper the checker may meet first is not them.
    if (v && v.net > 0 && v.net !== plan.net && router.routes.has(v.net)) out.set(v.net, (out.get(v.net) ?? 0) + stride);
  }
  return out;
}

/** A length (nm) as the sentences of a stuck reason give it: "0.25 mm". */
const mm = (nm: number) => mmText(nm, 3, { trim: true });
/** A coordinate (nm) as a number of mm, as the hints' arguments give it. */
const mmNumber = (nm: number) => mmText(nm, 4, { trim: true, unit: false });

const label = (r: { ref: string; number: string }) => `${r.ref}.${r.number}`;
const where = (p: { x: number; y: number }) => `(${mmNumber(p.x)}, ${mmNumber(p.y)}) mm`;
/** " by A, B, C" for the first three blockers, or nothing. */
const by = (list: StuckReason['blockers']) =>
  list.length
    ? ` by ${list
        .slice(0, 3)
        .map((x) => x.name || `net ${x.net}`)
        .join(', ')}`
    : '';

/** What every reason for one open connection is told from: the call's state, the two pieces it
 *  joins, and the fields every reason carries. */
interface Stuck {
  host: RouterHost;
  grid: Grid;
  router: Router;
  plan: NetPlan;
  conn: ConnectionResult;
  stopped: 'done' | 'budget' | 'cancelled';
  ex: Explainer;
  stats: NetStats;
  a: Piece;
  b: Piece;
  /** "U1.3–U2.7", the connection as a person names it. */
  pair: string;
  base: Pick<StuckReason, 'rips' | 'fails' | 'tried' | 'blockers' | 'searchHits'>;
  prof: Profile;
  classWidth: string;
}

/** The narrowest legal copper of the net's class: its relaxed map and how the sentences name it. */
interface Narrow {
  map: ObstacleMap;
  /** Its width per layer, nm. */
  nw: number[];
  narrowest: string;
  /** True where the rules allow a track below the class width. */
  narrower: boolean;
  /** The narrowest width as a number of mm, for a hint's width_mm. */
  narrowMm: string;
}

function stuckFacts(
  host: RouterHost,
  grid: Grid,
  router: Router,
  plan: NetPlan,
  conn: ConnectionResult,
  stopped: 'done' | 'budget' | 'cancelled',
  ex: Explainer,
): Stuck {
  const stats = router.stats.get(plan.net)!;
  const pieceOf = (padIndex: number) => plan.pieces.findIndex((p) => p.pads.some((i) => host.pads[i].index === padIndex));
  const hits = named(host, plan, stats.blockers);
  const base = {
    rips: stats.rips,
    fails: stats.fails,
    tried: stats.tried,
    blockers: [] as StuckReason['blockers'],
    ...(hits.length ? { searchHits: hits } : {}),
  };
  const prof = router.profiles[plan.profile];
  return {
    host,
    grid,
    router,
    plan,
    conn,
    stopped,
    ex,
    stats,
    a: plan.pieces[pieceOf(conn.from.pad)],
    b: plan.pieces[pieceOf(conn.to.pad)],
    pair: `${label(conn.from)}–${label(conn.to)}`,
    base,
    prof,
    classWidth: mm(Math.min(...prof.width)),
  };
}

/** The five nets counted most often, other than the connection's own, named. */
function named(host: RouterHost, plan: NetPlan, m: Map<number, number>): StuckReason['blockers'] {
  return [...m.entries()]
    .filter(([k]) => k > 0 && k !== plan.net)
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, 5)
    .map(([net, count]) => ({ net, name: host.netNames[net] ?? '', count }));
}

/** Ends on different layers: where a via of the class fits in the region reached from the first end. */
function viaHint(s: Stuck, f: Flood): string {
  return (s.a.layers & s.b.layers) === 0 && f.firstVia >= 0
    ? `a via of this net fits at ${where({ x: s.grid.x(f.firstVia), y: s.grid.y(f.firstVia) })}, reachable from ${label(s.conn.from)} (place_via, then route_connection)`
    : '';
}

function budgetReason(s: Stuck, blockers: StuckReason['blockers']): StuckReason {
  return {
    ...s.base,
    blockers,
    reason: 'budget',
    at: s.conn.from.at,
    why: `The work budget ran out while searching for ${s.pair}.`,
  };
}

/** The reason a connection is open (the router's state after commit). Every claim is what the
 *  floods show: "boxed in" and "unreachable" only with fence-proof.ts's proof at the narrowest
 *  legal width; blockers are the nets whose copper bounds the region the flood reached. */
export function explainStuck(
  host: RouterHost,
  grid: Grid,
  router: Router,
  plan: NetPlan,
  conn: ConnectionResult,
  stopped: 'done' | 'budget' | 'cancelled',
  ex: Explainer,
): StuckReason {
  const s = stuckFacts(host, grid, router, plan, conn, stopped, ex);
  if (!s.stats.tried && stopped !== 'done') {
    return {
      ...s.base,
      reason: 'budget',
      why: stopped === 'cancelled' ? `The route was stopped before ${s.pair} was attempted.` : `The work budget ran out before ${s.pair} was attempted.`,
    };
  }
  if (ex.left < FLOOD_LIMIT / 10) {
    // No flood left to spend: no boundary is known, so no blockers are named (the searches'
    // own record stays in searchHits, which proves nothing).
    if (s.stats.budget || stopped !== 'done') return budgetReason(s, []);
    return {
      ...s.base,
      reason: 'blocked',
      at: conn.from.at,
      why: `The search for ${s.pair} found no legal path; no proof was made that none exists, and what encloses its ends was not measured.`,
    };
  }
  const narrow = narrowCopper(s);
  return padReason(s, narrow) ?? pathReason(s, narrow);
}

function narrowCopper(s: Stuck): Narrow {
  const map = s.ex.relaxed(s.host, s.grid, s.router, s.plan);
  const nw = map.profile.width;
  return {
    map,
    nw,
    narrowest: mm(Math.min(...nw)),
    // A narrower track is worth suggesting only where the rules allow one below the class width.
    narrower: Math.min(...nw) < Math.min(...s.prof.width),
    narrowMm: mmNumber(Math.min(...nw)),
  };
}

/** Sites where a track of the narrowest legal width touches the piece's copper. */
function touch(s: Stuck, n: Narrow, piece: Piece): number[] {
  return touchSites(s.grid, n.map, s.plan.net, piece.copper, (l) => n.nw[l]);
}

/** An end with no node on the router's grid: its pad is out of reach at any width, or no grid
 *  site next to it leaves room at the class width. Undefined when both ends have nodes. */
function padReason(s: Stuck, n: Narrow): StuckReason | undefined {
  const { base, conn, plan, prof } = s;
  for (const [piece, ref] of [
    [s.a, conn.from],
    [s.b, conn.to],
  ] as const) {
    if (!piece || piece.nodes.length > 0) continue;
    if (touch(s, n, piece).length === 0) {
      return {
        ...base,
        reason: 'unreachable',
        at: ref.at,
        why: `No track of this net, even at the narrowest legal width (${n.narrowest}), can touch pad ${label(ref)}: it lies off the board, inside a keep-out, or closer to other copper than the clearance allows.`,
      };
    }
    const walls = new Map<number, number>();
    touchSites(s.grid, s.router.maps[plan.profile], plan.net, piece.copper, (l) => prof.width[l], walls);
    const blockers = named(s.host, plan, walls);
    return {
      ...base,
      blockers,
      reason: 'blocked',
      fixedWalls: true,
      at: ref.at,
      why: `No site of the router's grid next to pad ${label(ref)} leaves room for a track of the class width (${s.classWidth}); ${n.narrower ? `a narrower neck (down to ${n.narrowest}) or a track off the grid may still reach it.` : `a track off the grid may still reach it (the class width is already the narrowest the rules allow).`}`,
      ...(n.narrower ? { hint: `route_connection ${s.pair} with width_mm ${n.narrowMm} (the narrowest the rules allow)` } : {}),
    };
  }
  return undefined;
}

/** Both ends on the grid: floods over the world the search saw, the proof that the fixed copper
 *  fences an end in, and over the fixed copper alone, in that order, each telling more. */
function pathReason(s: Stuck, n: Narrow): StuckReason {
  const { grid, router, plan, conn, ex, a, b } = s;
  // The world the search saw: fixed copper and this call's routes, the net's own copper out of the way.
  const route = router.routes.get(plan.net);
  router.occ.rip(plan.net);
  const fa = flood(router, grid, plan, a.nodes, new Set(b.nodes), ex, true);
  const fb = fa.reachedTarget ? fa : flood(router, grid, plan, b.nodes, new Set(a.nodes), ex, true);
  if (route) router.occ.stamp(router.copperOf(plan, route));
  router.work += fa.size + (fb === fa ? 0 : fb.size);
  if (fa.reachedTarget) {
    if (s.stats.budget || s.stopped !== 'done') return budgetReason(s, []);
    return {
      ...s.base,
      reason: 'budget',
      at: conn.from.at,
      why: `A path for ${s.pair} exists on the router's grid now, but the searches did not settle a legal route along it (their effort limit, or the exact clearance at a pad entry); routing the net again may find it.`,
      hint: `route_connection ${s.pair} (one connection with its own work budget)`,
    };
  }
  const fenced = fencedReason(s, n);
  if (fenced) return fenced;
  if (s.stats.budget || s.stopped !== 'done') return budgetReason(s, named(s.host, plan, new Map([...fa.hits, ...heldBy(router, grid, plan, fa.held)])));
  return fixedWorldReason(s, n) ?? heldReason(s, fa, fb);
}

/** Is an end fenced in by fixed copper at any legal width? Floods the relaxed map from each end. */
function fencedReason(s: Stuck, n: Narrow): StuckReason | undefined {
  const { grid, router, plan, conn, ex } = s;
  const { seen, gen } = ex.mark(grid.cells * grid.layers);
  const ta = touch(s, n, s.a);
  const tb = touch(s, n, s.b);
  const pa = proveFenced(grid, n.map, plan.net, ta, tb, Math.min(FLOOD_LIMIT, ex.left), seen, gen);
  ex.left -= pa.region;
  router.work += pa.region;
  if (!pa.fenced) return undefined;
  const again = ex.mark(grid.cells * grid.layers);
  const pb = proveFenced(grid, n.map, plan.net, tb, ta, Math.min(FLOOD_LIMIT, ex.left), again.seen, again.gen);
  ex.left -= pb.region;
  router.work += pb.region;
  const [f, ref] = pb.fenced && pb.region < pa.region ? [pb, conn.to] : [pa, conn.from];
  const blockers = cutNets(f.cut)
    .slice(0, 5)
    .map(({ net, count }) => ({ net, name: s.host.netNames[net] ?? '', count }));
  return {
    ...s.base,
    blockers,
    reason: 'boxed_in',
    at: ref.at,
    why: `Pad ${label(ref)} is fenced in${by(blockers)}: no track of this net, at any legal width down to ${n.narrowest}, on or off the router's grid, gets from it to the other end past the fixed copper.`,
  };
}

/** Not fenced: does the fixed world leave room at the class width? Undefined when it does, so
 *  only this call's routes stand in the way. */
function fixedWorldReason(s: Stuck, n: Narrow): StuckReason | undefined {
  const { host, grid, router, plan, conn, ex, base, pair, classWidth } = s;
  const ff = flood(router, grid, plan, s.a.nodes, new Set(s.b.nodes), ex, false);
  router.work += ff.size;
  const shared = (s.a.layers & s.b.layers) !== 0;
  if (!ff.reachedTarget && !ff.exhausted) {
    // The flood stopped at its limit: what it ran into is no boundary and no path is ruled out.
    return {
      ...base,
      blockers: [],
      reason: 'blocked',
      at: conn.from.at,
      why: `The search for ${pair} found no legal path. A flood of the router's grid at the class width (${classWidth}) past the fixed copper covered ${ff.size} sites from ${label(conn.from)} and stopped at its limit before reaching ${label(conn.to)}, so no path is ruled out and what blocks it was not measured.`,
    };
  }
  if (ff.reachedTarget) return undefined;
  const blockers = named(host, plan, ff.hits);
  if (!shared && ff.viaSites === 0 && ff.exhausted) {
    // The flood knows the class via on the grid only: a smaller via the rules allow, or a site
    // off the grid, is not ruled out, and the user is told so.
    const cls = host.rules.via(plan.net);
    const least = host.rules.minVia?.(plan.net);
    const smaller = least && least.diameter < cls.diameter ? `a smaller via (down to ${mm(least.diameter)} on a ${mm(least.drill)} drill) or ` : '';
    return {
      ...base,
      blockers,
      reason: 'no_via_site',
      fixedWalls: true,
      at: conn.from.at,
      why: `${label(conn.from)} and ${label(conn.to)} are on different layers and no via of this net's class (${mm(cls.diameter)} on a ${mm(cls.drill)} drill) fits anywhere a track of its width (${classWidth}) can reach from ${label(conn.from)} on the router's grid; ${smaller}a site off the grid may still fit.`,
    };
  }
  const hint = [n.narrower ? `route_connection ${pair} with width_mm ${n.narrowMm}` : '', viaHint(s, ff)].filter(Boolean).join('; ');
  return {
    ...base,
    blockers,
    reason: 'blocked',
    fixedWalls: true,
    at: conn.from.at,
    why: `No path at the class width (${classWidth}) on the router's grid joins ${pair} past the fixed copper${by(blockers)}; ${n.narrower ? `a narrower track (down to ${n.narrowest}) or one off the grid may still get through.` : `one off the grid may still get through (the class width is already the narrowest the rules allow).`}`,
    ...(hint ? { hint } : {}),
  };
}

/** A path exists only through space this call's other routes hold: they are the blockers. */
function heldReason(s: Stuck, fa: Flood, fb: Flood): StuckReason {
  const { conn, pair } = s;
  const blockers = named(s.host, s.plan, heldBy(s.router, s.grid, s.plan, [...fa.held, ...(fb === fa ? [] : fb.held)]));
  return {
    ...s.base,
    blockers,
    reason: 'blocked',
    at: conn.from.at,
    why: `A path for ${pair} exists only through space other routes of this call now hold${by(blockers)}; rip them or route this net first.`,
    hint: [
      `rip ${
        blockers.length
          ? blockers
              .slice(0, 3)
              .map((x) => x.name)
              .join(', ')
          : "the other nets' copper"
      } in a box round ${where(conn.from.at)}, route_connection ${pair}, then route the ripped nets again`,
      viaHint(s, fa),
    ]
      .filter(Boolean)
      .join('; '),
  };
}
