// One routing run (a variant): negotiated congestion over the chosen nets (PathFinder: every
// net may overlap others at a price that grows each round, and sites that stay contested
// gather history cost), then a commit pass that keeps each net's route only where it is legal
// against the nets kept before it — on the grid and by the exact checker — re-searching with
// other nets as walls where it is not. What the commit keeps is clean by construction; the
// placement primitives here (commitNet, place, unplace) are what rip-up.ts exchanges nets with.

import { Checker } from '../core/checker.ts';
import type { Grid } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import type { NetPlan, Piece } from './net-plan.ts';
import { pieceDistance } from './net-plan.ts';
import type { ObstacleMap } from '../core/obstacle-map.ts';
import type { Profile } from '../core/profile.ts';
import { Occupancy, type NetCopper } from '../core/occupancy.ts';
import { viaOf } from '../core/via-span.ts';
import { banViaSites } from '../core/via-ban.ts';
import { pathCopper, type PathCopper, type Stub } from '../core/path-geometry.ts';
import { Searcher, type SearchOutcome, type SearchParams } from '../core/search.ts';
import type { RouteProgress } from '../types.ts';
import { byNetName } from '../core/net-rank.ts';

/** A path joining a piece to the net's growing tree. */
export interface Join {
  to: number;
  path: Int32Array;
  /** Index of the join whose path the route starts on, or -1 when it starts on a piece. */
  fromJoin: number;
  /** The piece the route starts on when fromJoin is -1 (else -1): with fromJoin, what the
   *  join hangs on, so a join and all that hangs on it can be taken out together. */
  fromPiece: number;
  copper: PathCopper;
}

export interface NetRoute {
  joins: Join[];
}

/** Per-net bookkeeping for the stuck report. */
export interface NetStats {
  rips: number;
  fails: number;
  budget: boolean;
  tried: boolean;
  blockers: Map<number, number>;
  reached: number;
}

export interface RouterSettings {
  viaCost: number;
  /** See SearchParams.viaCongestion. */
  viaCongestion?: number;
  bend45: number;
  bend90: number;
  zoneCost: number;
  hWeight: number;
  maxIterations: number;
  /** Per-net layer factors (length = layers). */
  layerCost: (net: number) => Float64Array;
  siteCost: (net: number) => Float32Array | undefined;
}

/** Bounds of one search's effort (expansions): see #search. A hard search (other nets' copper
 *  as walls) that has not arrived after a modest flood is walled off: rip-up (rip-up.ts) settles
 *  it better than a wider flood, so its ceiling is lower. */
const MIN_SEARCH_WORK = 200_000;
const MAX_SEARCH_WORK = 3_000_000;
const MAX_HARD_SEARCH_WORK = 400_000;
const SEARCH_AREA_FACTOR = 12;
const SEARCH_MARGIN = 40;
/** The share of a search's cap its first, small try and the far-end probe each get, and their
 *  least size (see #search). */
const PROBE_SHARE = 16;
const MIN_PROBE_WORK = 5_000;
/** Searches again at most this many times when a pad-entry stub is refused (hard mode). */
const STUB_RETRIES = 4;
/** Share of the budget the negotiation's rounds after the first may use. */
const NEGOTIATE_SHARE = 0.5;
/** Negotiation rounds without fewer nets in conflict before the nets round the conflicts go again too. */
const STALE_ROUNDS = 2;

/** What a Router works with: the world of one route (host, grid, a profile and obstacle map per
 *  net class, the exact checker), the nets' plans and settings, its work budget and the caller's
 *  stop and progress callbacks. */
export interface RouterSetup {
  host: RouterHost;
  grid: Grid;
  profiles: Profile[];
  maps: ObstacleMap[];
  checker: Checker;
  plans: NetPlan[];
  settings: RouterSettings;
  budget: number;
  shouldStop: () => boolean;
  /** Told after each net searched and each net placed; the work it reports is the router's own. */
  onProgress?: (p: RouteProgress) => void;
}

export class Router {
  readonly occ: Occupancy;
  readonly searcher: Searcher;
  readonly routes = new Map<number, NetRoute>();
  readonly stats = new Map<number, NetStats>();
  work = 0;
  stopped: 'done' | 'budget' | 'cancelled' = 'done';

  readonly host: RouterHost;
  readonly grid: Grid;
  readonly profiles: Profile[];
  readonly maps: ObstacleMap[];
  readonly checker: Checker;
  readonly plans: NetPlan[];
  readonly settings: RouterSettings;
  readonly budget: number;
  readonly shouldStop: () => boolean;
  readonly onProgress?: (p: RouteProgress) => void;
  /** The connections the plans ask for: one fewer than a net's pieces. */
  readonly connections: number;

  constructor(setup: RouterSetup) {
    this.host = setup.host;
    this.grid = setup.grid;
    this.profiles = setup.profiles;
    this.maps = setup.maps;
    this.checker = setup.checker;
    this.plans = setup.plans;
    this.settings = setup.settings;
    this.budget = setup.budget;
    this.shouldStop = setup.shouldStop;
    this.onProgress = setup.onProgress;
    this.connections = setup.plans.reduce((s, p) => s + Math.max(0, p.pieces.length - 1), 0);
    const { host, grid, profiles, plans } = setup;
    this.occ = new Occupancy(grid, profiles, (a, b, ka, kb) => host.rules.clearance(a.net, b.net, 0, ka, kb), host.rules.holeToHole, byNetName(host));
    this.searcher = new Searcher(grid.nx, grid.ny, grid.layers);
    for (const p of plans) this.stats.set(p.net, { rips: 0, fails: 0, budget: false, tried: false, blockers: new Map(), reached: 0 });
  }

  /** Work the router owes already: stamps it will make of copper it holds (commit and a reorder
   *  place every route again). No search may spend it, so placing stays within the budget. */
  owed = 0;

  /** What searches and steps may still spend: the budget less the work done and owed. */
  get room(): number {
    return this.budget - this.work - this.owed;
  }

  /** False once the budget (less what is owed) is spent or the caller asked to stop: no new
   *  search may start. */
  mayStart(): boolean {
    if (this.stopped !== 'done') return false;
    if (this.room <= 0) {
      this.stopped = 'budget';
      return false;
    }
    if (this.shouldStop()) {
      this.stopped = 'cancelled';
      return false;
    }
    return true;
  }

  #params(plan: NetPlan, pres: number, hard: boolean): SearchParams {
    const s = this.settings;
    return {
      net: plan.net,
      map: this.maps[plan.profile],
      occ: this.occ.views[plan.profile],
      pres,
      hard,
      viaCost: s.viaCost,
      viaCongestion: s.viaCongestion,
      bend45: s.bend45,
      bend90: s.bend90,
      layerCost: s.layerCost(plan.net),
      siteCost: s.siteCost(plan.net),
      zoneCost: s.zoneCost,
      maxWork: Math.max(1000, this.room),
      hWeight: s.hWeight,
    };
  }

  /** Routes a net's pieces into one tree (Prim order); pieces it cannot reach stay apart. */
  routeNet(plan: NetPlan, pres: number, hard: boolean, keep: Join[] = []): NetRoute {
    const stats = this.stats.get(plan.net)!;
    const n = plan.pieces.length;
    const params = this.#params(plan, pres, hard);
    const joins: Join[] = [];
    const owner = new Map<number, number>(); // source node → join index, or -(k + 1) for piece k
    // The tree's nodes in the order they joined, and their box: kept as the tree grows, since a
    // large net (a ground) would otherwise rebuild both from the map for every search.
    const tree: TreeNodes = { nodes: [], box: emptyBox() };
    const own = (node: number, v: number) => {
      if (owner.has(node)) return;
      owner.set(node, v);
      tree.nodes.push(node);
      growBox(this.grid, tree.box, node);
    };
    const inTree = new Uint8Array(n);
    const addPiece = (k: number) => {
      inTree[k] = 1;
      for (const node of plan.pieces[k].nodes) own(node, -(k + 1));
    };
    // The net's next via keeps the hole-to-hole gap from those its tree already has.
    const prof = this.profiles[plan.profile];
    const viaBan = new Set<number>();
    params.viaBan = viaBan;
    const addJoin = (j: Join) => {
      const idx = joins.length;
      joins.push(j);
      for (const node of j.path) own(node, idx);
      addPiece(j.to);
      for (const v of j.copper.vias)
        banViaSites(this.grid, viaBan, v.at.x, v.at.y, viaOf(prof, v, this.grid.layers).drill / 2 + this.host.rules.holeToHole + prof.viaDrill / 2);
    };
    addPiece(0);
    // Kept joins are a prefix of an earlier Prim order, so they extend the tree around piece 0.
    for (const j of keep) addJoin(j);
    const best = new Float64Array(n).fill(Infinity);
    const refresh = () => {
      for (let j = 0; j < n; j++) {
        if (inTree[j]) continue;
        best[j] = Infinity;
        for (let k = 0; k < n; k++) if (inTree[k]) best[j] = Math.min(best[j], pieceDistance(plan.pieces[k], plan.pieces[j]));
      }
    };
    refresh();
    const failed = new Uint8Array(n);
    for (;;) {
      let next = -1;
      if (plan.sequence) {
        // Through waypoints: the pieces in order, each from the one before, and none past a failure.
        for (let j = 0; j < n; j++) {
          if (inTree[j]) continue;
          if (!failed[j]) next = j;
          break;
        }
      } else for (let j = 0; j < n; j++) if (!inTree[j] && !failed[j] && (next < 0 || best[j] < best[next])) next = j;
      if (next < 0) break;
      if (!this.mayStart()) break;
      const target = plan.pieces[next];
      if (target.nodes.length === 0 || owner.size === 0) {
        failed[next] = 1;
        stats.fails++;
        continue;
      }
      stats.tried = true;
      // Pad-entry stubs run off the grid, so the congestion never sees them: in hard mode a
      // path whose stub the exact checker refuses is searched again without that entry.
      const banned = new Set<number>();
      let found: { path: Int32Array; fromJoin: number; fromPiece: number; copper: PathCopper } | undefined;
      for (let retry = 0; retry <= STUB_RETRIES; retry++) {
        const out = this.#search(params, plan.sequence ? pieceNodes(this.grid, plan.pieces[next - 1]) : tree, target, banned);
        this.work += out.work;
        for (const [k, v] of out.blockers) stats.blockers.set(k, (stats.blockers.get(k) ?? 0) + v);
        if (!out.path) {
          stats.reached = Math.max(stats.reached, out.reached);
          if (out.budget) stats.budget = true;
          break;
        }
        const first = out.path[0];
        const last = out.path[out.path.length - 1];
        const from = owner.get(first) ?? -1;
        const fromJoin = from >= 0 ? from : -1;
        const fromPiece = from < 0 ? -from - 1 : -1;
        const startStub = fromJoin < 0 ? this.#stubOf(plan, first, inTree) : undefined;
        const endStub = target.stubs.get(last);
        const copper = pathCopper(this.grid, out.path, startStub, endStub);
        found = { path: out.path, fromJoin, fromPiece, copper };
        if (!hard) break;
        const badStart = startStub !== undefined && !this.#stubClear(plan, first, startStub);
        const badEnd = endStub !== undefined && !this.#stubClear(plan, last, endStub);
        if (!badStart && !badEnd) break;
        found = undefined;
        if (badStart) banned.add(first);
        if (badEnd) banned.add(last);
        if (!this.mayStart()) break;
      }
      if (!found) {
        failed[next] = 1;
        stats.fails++;
        continue;
      }
      const { path, fromJoin, fromPiece, copper } = found;
      addJoin({ to: next, path, fromJoin, fromPiece, copper });
      for (let j = 0; j < n; j++) if (!inTree[j]) best[j] = Math.min(best[j], pieceDistance(target, plan.pieces[j]));
    }
    return { joins };
  }

  #stubOf(plan: NetPlan, node: number, inTree: Uint8Array): Stub | undefined {
    for (let k = 0; k < plan.pieces.length; k++) {
      if (!inTree[k]) continue;
      const s = plan.pieces[k].stubs.get(node);
      if (s) return s;
    }
    return undefined;
  }

  /** True when a pad-entry stub (site first, nm) is clean by the exact checker. */
  #stubClear(plan: NetPlan, node: number, stub: Stub): boolean {
    const layer = Math.floor(node / this.grid.cells);
    const w = stub.width ?? this.profiles[plan.profile].width[layer];
    const p = stub.pts;
    for (let i = 0; i + 1 < p.length; i++) if (this.checker.track(plan.net, layer, p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, w)) return false;
    return true;
  }

  #search(params: SearchParams, tree: TreeNodes, target: Piece, banned: Set<number>): SearchOutcome {
    const g = this.grid;
    const targets = banned.size ? target.nodes.filter((n) => !banned.has(n)) : target.nodes;
    const sources = banned.size ? tree.nodes.filter((n) => !banned.has(n)) : tree.nodes;
    if (targets.length === 0 || sources.length === 0) return { path: null, work: 0, blockers: new Map<number, number>(), budget: false, reached: 0 };
    const to = boxOf(g, targets);
    const from = banned.size ? boxOf(g, sources) : tree.box;
    // A window on effort: a search may spend in proportion to the area between its ends, so a
    // hopeless connection on a dense board fails after a bounded flood instead of eating the
    // whole budget (it is then reported as such).
    let d = Infinity;
    for (let i = 0; i < sources.length && d > 0; i++) {
      const c = sources[i] % g.cells;
      const x = c % g.nx;
      const y = (c - x) / g.nx;
      const dx = x < to.x0 ? to.x0 - x : x > to.x1 ? x - to.x1 : 0;
      const dy = y < to.y0 ? to.y0 - y : y > to.y1 ? y - to.y1 : 0;
      d = Math.min(d, Math.max(dx, dy));
    }
    const window = Math.min(
      params.hard ? MAX_HARD_SEARCH_WORK : MAX_SEARCH_WORK,
      Math.max(MIN_SEARCH_WORK, SEARCH_AREA_FACTOR * g.layers * (d + SEARCH_MARGIN) ** 2),
    );
    const room = this.room;
    const cap = Math.max(1000, Math.min(window, room));
    // Most searches arrive within a small share of their cap: the same search with only that
    // share goes first (A* expands in the same order whatever its cap, so what it finds is what
    // the full one would). When it does not arrive, a probe of that size from the far end: when
    // that end is fenced in (a pad boxed in by other nets' copper, the usual failure on a dense
    // board), the probe's flood dies out and the search fails at a fraction of the cost of
    // flooding the tree's side up to the cap. Only the probe's verdict is used: the route is
    // searched from the tree, whose side decides where the join attaches — unless that search
    // runs out first, when the probe's path (reversed) is still a route.
    const small = Math.min(cap, Math.max(MIN_PROBE_WORK, Math.floor(cap / PROBE_SHARE)));
    // Near the budget the first try counts against the cap too, so the search spends at most
    // what the budget leaves (its least, 1000, aside); elsewhere it runs as it always has.
    const firstCounts = room < cap + small ? 1 : 0;
    const first = this.#run(params, sources, targets, to, small);
    if (first.path || !first.budget || small >= cap) return first;
    const probe = this.#run(params, targets, sources, from, small);
    if (!probe.path && !probe.budget) return { ...probe, work: probe.work + first.work };
    const main = this.#run(params, sources, targets, to, Math.max(1, cap - probe.work - firstCounts * first.work));
    for (const [k, v] of probe.blockers) main.blockers.set(k, (main.blockers.get(k) ?? 0) + v);
    const path = main.path ?? (probe.path ? probe.path.reverse() : null);
    return { ...main, path, budget: path ? false : main.budget, work: first.work + probe.work + main.work, reached: Math.max(main.reached, probe.reached) };
  }

  /** One A* run from `from` to any node of `to` (whose box is `box`), with at most `maxWork` expansions. */
  #run(params: SearchParams, from: ArrayLike<number>, to: ArrayLike<number>, box: Box, maxWork: number): SearchOutcome {
    const s = this.searcher;
    s.newTargets();
    for (let i = 0; i < to.length; i++) s.addTarget(to[i]);
    params.maxWork = Math.max(1, maxWork);
    return s.run(params, from, box.x0, box.y0, box.x1, box.y1, box.layers);
  }

  /** Grid copper of a route, for occupancy. */
  copperOf(plan: NetPlan, route: NetRoute): NetCopper {
    const nodes = new Set<number>();
    const vias = new Map<number, number>();
    const { cells, layers } = this.grid;
    const spans = this.maps[plan.profile].spans;
    for (const j of route.joins) {
      for (let i = 0; i < j.path.length; i++) {
        nodes.add(j.path[i]);
        if (i === 0) continue;
        const a = Math.floor(j.path[i - 1] / cells);
        const b = Math.floor(j.path[i] / cells);
        if (a === b) continue;
        const cell = j.path[i] % cells;
        vias.set(cell, ((vias.get(cell) ?? 0) | spans[a * layers + b]) >>> 0);
      }
    }
    return {
      net: plan.net,
      profile: plan.profile,
      nodes: Int32Array.from(nodes),
      vias: Int32Array.from(vias.keys()),
      viaLayers: Uint32Array.from(vias.values()),
    };
  }

  /** Phase 1: negotiated congestion. */
  negotiate(order: NetPlan[]): void {
    try {
      this.#negotiate(order);
    } finally {
      this.owed = 0;
    }
  }

  #negotiate(order: NetPlan[]): void {
    let pres = 0.5;
    let todo = order;
    let fewest = Infinity;
    let stale = 0;
    for (let iter = 0; iter < this.settings.maxIterations && todo.length; iter++) {
      for (const plan of todo) {
        // Commit stamps every route held now again: that work is owed.
        this.owed = this.occ.stamped;
        if (!this.mayStart()) return;
        // Later rounds only refine: they stop at their share of the budget, so commit and
        // repair keep work to settle what the negotiation could not.
        if (iter > 0 && this.work >= NEGOTIATE_SHARE * this.budget) return;
        this.occ.rip(plan.net);
        this.owed = this.occ.stamped;
        if (iter > 0) this.stats.get(plan.net)!.rips++;
        const route = this.routeNet(plan, pres, false);
        this.routes.set(plan.net, route);
        this.work += this.occ.stamp(this.copperOf(plan, route));
        this.#report();
      }
      const conflicted: NetPlan[] = [];
      const spots: Box[] = [];
      for (const plan of order) {
        const route = this.routes.get(plan.net);
        if (!route) continue;
        const c = this.occ.conflicts(this.copperOf(plan, route));
        if (c.nodes.length === 0 && c.vias.length === 0) continue;
        conflicted.push(plan);
        // Where it conflicts, and as far round as a search looks past its ends.
        const b = boxOf(this.grid, [...c.nodes, ...c.vias]);
        spots.push({ x0: b.x0 - SEARCH_MARGIN, y0: b.y0 - SEARCH_MARGIN, x1: b.x1 + SEARCH_MARGIN, y1: b.y1 + SEARCH_MARGIN, layers: b.layers });
        const view = this.occ.views[plan.profile];
        for (const node of c.nodes) view.hist[node] += 0.4;
        for (const v of c.vias) view.histVia[v] += 0.4;
      }
      // A net in no conflict itself may hold the lane one in conflict needs, and only moving it
      // frees the lane: once the conflicts stop falling, each round reroutes every net whose
      // copper's box meets where they conflict as well (every net, every round, would cost a
      // large board the work its commit and repair need).
      if (conflicted.length < fewest) {
        fewest = conflicted.length;
        stale = 0;
      } else stale++;
      todo = stale >= STALE_ROUNDS ? this.#near(order, spots) : conflicted;
      pres *= 1.7;
    }
  }

  /** The nets of `order` the box of whose route and pieces meets one of `spots` (grid boxes). */
  #near(order: NetPlan[], spots: Box[]): NetPlan[] {
    return order.filter((plan) => {
      const b = emptyBox();
      for (const j of this.routes.get(plan.net)?.joins ?? []) for (let i = 0; i < j.path.length; i++) growBox(this.grid, b, j.path[i]);
      for (const p of plan.pieces) for (let i = 0; i < p.nodes.length; i++) growBox(this.grid, b, p.nodes[i]);
      return spots.some((q) => b.x0 <= q.x1 && b.x1 >= q.x0 && b.y0 <= q.y1 && b.y1 >= q.y0);
    });
  }

  /** Phase 2: keep what is legal, net by net; re-search the rest with committed nets as walls
   *  (rip-up.ts then repairs what is still apart). */
  commit(order: NetPlan[]): void {
    const conflicted = new Set<number>();
    for (const plan of order) {
      const route = this.routes.get(plan.net);
      if (!route) continue;
      const c = this.occ.conflicts(this.copperOf(plan, route));
      if (c.nodes.length || c.vias.length) conflicted.add(plan.net);
    }
    // Each net's stamps stay owed until it is placed again, so no search here spends them.
    const each = new Map(order.map((p) => [p.net, this.occ.stampedBy(p.net)]));
    let pending = this.occ.stamped;
    for (const plan of order) this.occ.rip(plan.net);
    const sequence = [...order.filter((p) => !conflicted.has(p.net)), ...order.filter((p) => conflicted.has(p.net))];
    for (const plan of sequence) {
      this.owed = pending;
      this.commitNet(plan, this.routes.get(plan.net)?.joins ?? []);
      pending -= each.get(plan.net) ?? 0;
    }
    this.owed = 0;
  }

  /**
   * Commits one (unplaced) net: the legal prefix of `prior`, then a hard search (other nets'
   * committed copper as walls) for the pieces still apart, keeping its legal prefix too.
   */
  commitNet(plan: NetPlan, prior: Join[]): Join[] {
    let good = this.legal(plan, prior);
    if (good.length < plan.pieces.length - 1 && this.mayStart()) {
      const again = this.routeNet(plan, 0, true, good);
      const extra = this.legal(plan, again.joins.slice(good.length));
      good = [...good, ...extra];
    }
    this.place(plan, good);
    return good;
  }

  /** Puts a net's joins into the committed world: occupancy stamps and the exact checker. */
  place(plan: NetPlan, joins: Join[]): void {
    const route: NetRoute = { joins };
    this.routes.set(plan.net, route);
    this.work += this.occ.stamp(this.copperOf(plan, route));
    this.#check(plan, joins);
    this.#report();
  }

  /** Tells the caller how far the route is: connections held made, work. */
  #report(): void {
    if (!this.onProgress) return;
    let made = 0;
    for (const r of this.routes.values()) made += r.joins.length;
    this.onProgress({
      made: Math.min(made, this.connections),
      connections: this.connections,
      work: this.work,
    });
  }

  /** Swaps a placed net's copper for that of `joins`, which keep the placed joins' grid paths
   *  (cleanup.ts pulls copper tight and leaves the paths): the occupancy stamps, made from the
   *  paths, stand as they are; only the exact checker learns the new copper. */
  recopper(plan: NetPlan, joins: Join[]): void {
    const was = this.routes.get(plan.net)?.joins ?? [];
    if (joins.length !== was.length || joins.some((j, i) => j.path !== was[i].path))
      throw new Error(`Router.recopper: net ${plan.net} must keep its ${was.length} joins' paths`);
    this.routes.set(plan.net, { joins });
    this.checker.removeNet(plan.net);
    this.#check(plan, joins);
  }

  /** Adds a net's copper (tracks and vias, nm) to the exact checker. */
  #check(plan: NetPlan, joins: Join[]): void {
    const prof = this.profiles[plan.profile];
    for (const j of joins) {
      for (const leg of j.copper.legs) {
        for (let i = 0; i + 1 < leg.pts.length; i++)
          this.checker.addTrack(plan.net, leg.layer, leg.pts[i].x, leg.pts[i].y, leg.pts[i + 1].x, leg.pts[i + 1].y, leg.width ?? prof.width[leg.layer]);
      }
      for (const v of j.copper.vias) this.checker.addVia(plan.net, v.at.x, v.at.y, viaOf(prof, v, this.grid.layers));
    }
  }

  /** Takes a placed net out of the committed world again (its route stays on record). */
  unplace(plan: NetPlan): void {
    this.occ.rip(plan.net);
    this.checker.removeNet(plan.net);
  }

  /** Pieces of a net still apart after its committed joins. */
  missing(plan: NetPlan): number {
    return plan.pieces.length - 1 - (this.routes.get(plan.net)?.joins.length ?? 0);
  }

  /** The committed joins per net. */
  kept(): Map<number, Join[]> {
    const out = new Map<number, Join[]>();
    for (const plan of this.plans) out.set(plan.net, this.routes.get(plan.net)?.joins ?? []);
    return out;
  }

  /**
   * The longest prefix of `joins` that is legal against the committed nets: off their stamps
   * and clean by the exact checker. A prefix of a Prim order is still one tree around piece 0,
   * so nothing it keeps can dangle.
   */
  legal(plan: NetPlan, joins: Join[]): Join[] {
    const prof = this.profiles[plan.profile];
    const out: Join[] = [];
    const view = this.occ.views[plan.profile];
    const cells = this.grid.cells;
    for (const j of joins) {
      let ok = true;
      for (let t = 0; ok && t < j.path.length; t++) {
        if (view.track[j.path[t]] > 0) ok = false;
        if (t > 0 && Math.floor(j.path[t] / cells) !== Math.floor(j.path[t - 1] / cells) && view.via[j.path[t] % cells] > 0) ok = false;
      }
      for (const leg of j.copper.legs) {
        for (let s = 0; ok && s + 1 < leg.pts.length; s++) {
          if (this.checker.track(plan.net, leg.layer, leg.pts[s].x, leg.pts[s].y, leg.pts[s + 1].x, leg.pts[s + 1].y, leg.width ?? prof.width[leg.layer]))
            ok = false;
        }
      }
      for (const v of j.copper.vias) if (ok && this.checker.via(plan.net, v.at.x, v.at.y, viaOf(prof, v, this.grid.layers))) ok = false;
      if (!ok) break;
      out.push(j);
    }
    return out;
  }
}

/** Columns, rows and layer mask a set of nodes covers. */
interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  layers: number;
}

/** A piece's own nodes as a search's sources (a sequence plan starts each leg at the piece before). */
function pieceNodes(g: Grid, piece: Piece): TreeNodes {
  return { nodes: piece.nodes, box: boxOf(g, piece.nodes) };
}

interface TreeNodes {
  nodes: number[];
  box: Box;
}

function emptyBox(): Box {
  return { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, layers: 0 };
}

function growBox(g: Grid, b: Box, node: number): void {
  const l = Math.floor(node / g.cells);
  const c = node - l * g.cells;
  const x = c % g.nx;
  const y = (c - x) / g.nx;
  if (x < b.x0) b.x0 = x;
  if (x > b.x1) b.x1 = x;
  if (y < b.y0) b.y0 = y;
  if (y > b.y1) b.y1 = y;
  b.layers |= 1 << l;
}

function boxOf(g: Grid, nodes: ArrayLike<number>): Box {
  const b = emptyBox();
  for (let i = 0; i < nodes.length; i++) growBox(g, b, nodes[i]);
  return b;
}
