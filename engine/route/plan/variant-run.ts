// One variant end to end: the nets with open connections found and planned on the host's world
// rasterized per net class, negotiated, committed, repaired, necked down and pulled tight, the
// zones' refill and the final gate settled, then the typed result with every connection still
// open and why. Pure: objects in, objects out; effort is work.

import { Checker } from '../core/checker.ts';
import type { Grid } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import { ObstacleMap } from '../core/obstacle-map.ts';
import type { PathCopper } from '../core/path-geometry.ts';
import type { Profile } from '../core/profile.ts';
import { FRESH, type WorldSource } from '../core/world-source.ts';
import { Prng } from '../../geom/prng.ts';
import { cleanup } from '../finish/cleanup.ts';
import { gate, type Verify } from '../finish/final-gate.ts';
import { connectedPieces, hostItems, type ConnItem } from '../negotiate/connectivity.ts';
import { planNet, rootFirst, type NetPlan } from '../negotiate/net-plan.ts';
import { Router, type Join } from '../negotiate/router.ts';
import { routeGridless } from '../repair/gridless.ts';
import { neckDown } from '../repair/neck-down.ts';
import { MAX_LEVEL, reorder, repair } from '../repair/rip-up.ts';
import { routeTurned } from '../repair/turned.ts';
import { bothVerify, islandVerify, ReliefGuard, settleIslands } from '../zones/plane-islands.ts';
import { prunePlaneJoins, type PlaneLinks } from '../zones/plane-joins.ts';
import { routeOptions, type RouteOptions, type Attempt, type RouteResult } from '../types.ts';
import { variantBudget } from './budget.ts';
import { settingsFor } from './costs.ts';
import { chooseStep, MIN_GRID_STEP } from './grid-step.ts';
import { heldNets, withHeldNets } from './held-nets.ts';
import { orderNets } from './net-order.ts';
import { connectionEnds, corridorWindow, finerEnd, sayAsAsked, throughWaypoints, type Legs } from './one-connection.ts';
import { classProfiles, widened } from './profiles.ts';
import { buildResult } from './variant-result.ts';
import { searchBudget, setupWork } from './work-bound.ts';
import { byNetName } from '../core/net-rank.ts';

/** Routes one variant of a request on a host; `verify`, when given, is the independent DRC
 *  that judges the new copper last (final-gate.ts); `world` gives the grid and obstacle maps
 *  (kept ones from a RouteCache give the same maps). */
export function routeHost(host: RouterHost, req: Attempt, variant: number, verify?: Verify, world: WorldSource = FRESH): RouteResult {
  // A turned board is a world of its own: nothing a caller keeps for the board fits it.
  if (req.turn) return routeTurned(host, req, verify, (h, r, v) => routeHost(h, r, variant, v));
  const seed = ((req.seed ?? 1) + variant * 7919) >>> 0;
  if (req.gridless && req.connection) return routeGridless(host, req, verify, variant, seed, variantBudget(req, 1));
  const opt = routeOptions(req.options);
  const asked = askedNets(host, req, opt.softZones);
  const { items, pieces, ends, held } = asked;
  const budget = variantBudget(req, asked.connections);
  const set = setUp(host, req, world, opt, asked, budget);
  const { grid, profiles, maps, plans } = set;

  // Odd variants route the nets of soft zones last: their planes join most of their pads, so
  // their tracks mostly go again (plane-joins.ts) and had better not box the rest in meanwhile.
  // Even variants route them first, among the big nets, where the plane stays whole where it can.
  const planeLast = new Set<number>();
  if (opt.softZones && variant % 2 === 1) for (const o of host.obstacles) if (o.kind === 'zone' && o.net > 0) planeLast.add(o.net);
  const order = orderNets(plans, req, new Prng(seed), variant, planeLast);
  const settings = settingsFor(host, grid, req, profiles, set.netProfile, plans);
  // What set-up leaves, in the router's work: the searches get most, the finishing steps the rest.
  const finish = set.fits ? budget - set.work : 0;
  const router = new Router({
    host,
    grid,
    profiles,
    maps,
    checker: set.checker,
    plans,
    settings,
    budget: searchBudget(finish),
    shouldStop: req.shouldStop ?? (() => false),
    ...(req.onProgress ? { onProgress: (p) => req.onProgress!({ ...p, work: set.work + p.work }) } : {}),
  });
  search(router, order, { host, world, opt, items, pieces, twins: new Map<number, number>() });
  // Pulled tight before the island check and the final gate, so both judge the copper as written.
  const searched = router.stopped !== 'cancelled' ? cleanup(router, order, finish) : new Map<number, Join[]>();
  const { kept, planes, cut } = settle(host, grid, router, plans, profiles, asked, searched, opt.softZones, verify);
  const copper = new Map<number, PathCopper[]>();
  for (const [net, joins] of kept)
    copper.set(
      net,
      joins.map((j) => j.copper),
    );
  const only = ends ? { from: ends.padA, to: ends.padB } : undefined;
  const built = buildResult({
    host,
    grid,
    plans,
    profiles,
    router,
    items,
    variant,
    seed,
    finish,
    work: set.work + router.work,
    kept: copper,
    cut,
    planes,
    only,
  });
  const result = withHeldNets(host, { ...built, budget, setup: set.setup }, held, pieces, items);
  if (req.connection) sayAsAsked(host, req.connection, set.legs, result.connections[0]);
  return result;
}

/** The nets a variant routes: those asked with pieces still apart (pieces as the board's copper
 *  joins them, zone fills left to the planes), less those held for a rule the router does not
 *  model; one connection's two pieces only when one is asked for. */
interface AskedNets {
  items: ConnItem[];
  pieces: Map<number, number[][]>;
  ends: ReturnType<typeof connectionEnds>;
  held: ReturnType<typeof heldNets>;
  nets: number[];
  /** Connections to make over `nets`. */
  connections: number;
}

function askedNets(host: RouterHost, req: Attempt, softZones: boolean): AskedNets {
  // With soft zones other nets' routes may notch a plane, and KiCad's refill can then leave a
  // pad the plane used to reach cut off. So a zone's net is routed by tracks as well, and the
  // joins its plane, refilled around everyone else's new copper, still makes are taken out once
  // the rest is routed (plane-joins.ts). Hard zones are walls, so their fills do connect.
  const items = hostItems(host).filter((it) => !(softZones && it.zone));
  const pieces = connectedPieces(items);
  // A zone fill no pad of its net touches is an island KiCad removes on refill: not a piece.
  for (const [net, groups] of pieces)
    pieces.set(
      net,
      groups.filter((g) => g.some((i) => !items[i].zone)),
    );
  const conn = req.connection;
  const wanted = new Set(conn ? [conn.net] : (req.nets ?? [...pieces.keys()]));
  const ends = conn ? connectionEnds(host, items, pieces, conn) : undefined;
  if (conn) pieces.set(conn.net, ends ? [ends.a, ends.b] : []);
  const asked = [...pieces.keys()].filter((n) => wanted.has(n) && (pieces.get(n)?.length ?? 0) > 1).sort(byNetName(host));
  // A connection keeps its two ends in the order asked; a net's tree grows from its driver.
  if (!conn) for (const n of asked) pieces.set(n, rootFirst(host, items, pieces.get(n)!));
  // Nets under custom rules the router does not model stay open, named in the result.
  const held = heldNets(host, asked);
  const nets = held.size > 0 ? asked.filter((n) => !held.has(n)) : asked;
  let connections = 0;
  for (const n of nets) connections += pieces.get(n)!.length - 1;
  return { items, pieces, ends, held, nets, connections };
}

/** A variant's world: one profile per net class, the grid, the obstacle maps (set-up is work,
 *  counted before it starts: where the budget cannot hold all of it nothing is built, and blank
 *  maps only plan the pieces), and each net's plan. */
interface SetUp {
  profiles: Profile[];
  netProfile: Map<number, number>;
  grid: Grid;
  maps: ObstacleMap[];
  checker: Checker;
  plans: NetPlan[];
  /** Waypoints laid into a connection's plan, when it has them. */
  legs?: Legs;
  /** Set-up's work as counted before it started, whether it fit, and the work it spent. */
  setup: number;
  fits: boolean;
  work: number;
}

function setUp(host: RouterHost, req: Attempt, world: WorldSource, opt: Required<RouteOptions>, asked: AskedNets, budget: number): SetUp {
  const { items, pieces, ends, nets } = asked;
  const conn = req.connection;
  const width = conn?.width;
  const { profiles, netProfile } = classProfiles(host, nets, width !== undefined ? (p) => widened(host, p, width) : undefined);
  let work = 0;
  const checker = new Checker(host, opt.softZones);
  // One connection routes on a grid of its own, its sites on its first waypoint or its finer
  // end, its step from that end's part: the lanes beside that end lie on sites, whatever pitch
  // and residue most of the board's pads share.
  const gridPad = req.gridPad === undefined ? -1 : host.pads.findIndex((p) => p.index === req.gridPad);
  const fine = conn && ends ? finerEnd(host, ends.padA, ends.padB) : gridPad >= 0 ? gridPad : undefined;
  const implied = chooseStep(profiles, fine === undefined ? host.pads : host.pads.filter((p) => p.ref === host.pads[fine].ref));
  const refine = Math.min(4, Math.max(1, Math.floor(req.gridRefine ?? 1)));
  const step = refine > 1 ? Math.max(MIN_GRID_STEP, Math.round(implied / refine)) : implied;
  // A connection kept to a corridor routes on a grid over the corridor and its ends only.
  const window = conn?.corridor && ends ? corridorWindow(host, conn.corridor, [ends.padA, ends.padB], conn.waypoints ?? [], step) : req.window;
  const grid = world.grid(host, step, fine === undefined ? undefined : (conn?.waypoints?.[0]?.at ?? host.pads[fine].at), window);
  const setup = setupWork(host, grid, profiles, opt);
  const fits = setup <= budget;
  const maps: ObstacleMap[] = profiles.map((p) => {
    if (!fits) return new ObstacleMap(grid, p);
    const m = world.map(host, grid, p, opt);
    work += m.work;
    return m;
  });
  const plans: NetPlan[] = nets.map((n) => {
    const k = netProfile.get(n)!;
    return planNet(host, grid, maps[k], checker, items, pieces.get(n)!, n, k, (l) => profiles[k].width[l]);
  });
  // Waypoints are pieces of one grid site each between the two ends, joined in order.
  const legs = conn && plans.length === 1 ? throughWaypoints(grid, maps[plans[0].profile], plans[0], conn.waypoints ?? []) : undefined;
  if (legs) plans[0] = legs.plan;
  return { profiles, netProfile, grid, maps, checker, plans, legs, setup, fits, work };
}

/** The searches: negotiation, the commit, rip-up and neck-down at widening levels while
 *  connections stay apart and budget is left, a last reorder. */
function search(router: Router, order: NetPlan[], neck: Parameters<typeof neckDown>[2]): void {
  router.negotiate(order);
  router.commit(order);
  repair(router, order);
  // What rip-up left apart may still go through at a narrower width, necked only where it must.
  neckDown(router, order, neck);
  // Connections still apart and budget left: wider exchanges, kept only where they join more.
  for (let level = 1; level <= MAX_LEVEL && order.some((p) => router.missing(p) > 0) && router.mayStart(); level++) {
    repair(router, order, level);
    neckDown(router, order, neck);
  }
  if (order.some((p) => router.missing(p) > 0)) reorder(router, order);
}

/**
 * What the run keeps: with soft zones new copper crosses other nets' fills, so the refill is
 * judged as well, first by the router (which can still detour), then in the final gate; a zone's
 * plane, refilled around the other nets' new copper, joins what needs no track. The final check
 * may refuse copper the pull made or made necessary (a straighter track can starve a zone's
 * thermal relief once it is refilled, and the islands settled around it): then every net still
 * on its searched route gets its searched copper back and all is judged again, kept if fewer
 * nets are cut.
 */
function settle(
  host: RouterHost,
  grid: Grid,
  router: Router,
  plans: NetPlan[],
  profiles: Profile[],
  asked: AskedNets,
  searched: Map<number, Join[]>,
  softZones: boolean,
  verify: Verify | undefined,
): { kept: Map<number, Join[]>; planes: PlaneLinks; cut: Map<number, string> } {
  const guard = softZones ? new ReliefGuard(host, grid) : undefined;
  const islands = guard ? islandVerify(host, grid, guard) : undefined;
  const byName = byNetName(host);
  const byNet = [...plans].sort((a, b) => byName(a.net, b.net)).map((p) => ({ net: p.net, profile: profiles[p.profile] }));
  const judge = islands ? bothVerify(islands, verify) : verify;
  const once = () => {
    if (islands) settleIslands(router, plans, islands);
    const kept = router.kept();
    const planes = softZones ? prunePlaneJoins(host, grid, plans, asked.pieces, asked.items, profiles, kept, guard) : (new Map() as PlaneLinks);
    const cut = judge ? gate(kept, byNet, host.layerCount, judge, true) : new Map<number, string>();
    return { kept, planes, cut };
  };
  let out = once();
  const back = out.cut.size ? plans.filter((p) => searched.has(p.net) && samePaths(router.routes.get(p.net)?.joins ?? [], searched.get(p.net)!)) : [];
  if (back.length) {
    for (const p of back) router.recopper(p, searched.get(p.net)!);
    const again = once();
    if (again.cut.size < out.cut.size) out = again;
  }
  return out;
}

/** True when two join lists follow the same searched grid paths, join for join. */
function samePaths(a: readonly Join[], b: readonly Join[]): boolean {
  return a.length === b.length && a.every((j, i) => j.path === b[i].path);
}
