// One variant end to end: the host's world rasterized per net class, the nets with open
// connections planned, negotiated, committed and cleaned up, then the typed result with every
// connection still open and why. Pure: strings and objects in, objects out; effort is work.

import type { Pt } from '../../board/model.ts';
import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { bbox, circle } from '../../geom/index.ts';
import { Checker } from '../core/checker.ts';
import { connectedPieces, hostItems, trackItem, viaItem, type ConnItem } from '../negotiate/connectivity.ts';
import type { Grid, GridWindow } from '../core/grid.ts';
import type { HostPad, RouterHost } from '../core/host.ts';
import { planNet, pieceDistance, type NetPlan } from '../negotiate/net-plan.ts';
import { ObstacleMap } from '../core/obstacle-map.ts';
import type { Profile } from '../core/profile.ts';
import { FRESH, type WorldSource } from '../core/world-source.ts';
import { copperLength, type PathCopper } from '../core/path-geometry.ts';
import { Prng } from '../../geom/prng.ts';
import { MAX_LEVEL, reorder, repair } from '../repair/rip-up.ts';
import { neckDown } from '../repair/neck-down.ts';
import { cleanup } from '../finish/cleanup.ts';
import { Router, type Join, type RouterSettings } from '../negotiate/router.ts';
import { gate, itemsOf, type Verify } from '../finish/final-gate.ts';
import { routeTurned } from '../repair/turned.ts';
import { routeGridless } from '../repair/gridless.ts';
import { bothVerify, islandVerify, ReliefGuard, settleIslands } from '../zones/plane-islands.ts';
import { prunePlaneJoins, type PlaneLinks } from '../zones/plane-joins.ts';
import { UnionFind } from '../../drc/connectivity.ts';
import { boundedExplainer, searchBudget, setupWork } from './work-bound.ts';
import { heldNets, withHeldNets } from './held-nets.ts';
import { viaOf } from '../core/via-span.ts';
import { padRef, routeOptions, variantBudget, type ConnectionResult, type NetResult, type RouteRequest, type RouteResult, type Waypoint } from '../types.ts';

/** The finest step a refined grid may have (RouteRequest.gridRefine), nm. */
const MIN_GRID_STEP = 10_000;

/** Grid step for the routed profiles: a third of the finest track pitch, 50–200 µm, 1 µm steps;
 *  then shrunk to divide half the board's commonest pad pitch (see padPitch), so the lane midway
 *  between two neighbouring pads lies on the grid — a lane a third-pitch grid would straddle. */
export function chooseStep(profiles: Profile[], pads: readonly HostPad[] = []): number {
  let pitch = Infinity;
  for (const p of profiles) pitch = Math.min(pitch, Math.min(...p.width) + p.clearance);
  if (!Number.isFinite(pitch)) pitch = 450_000;
  const base = Math.min(200_000, Math.max(50_000, Math.round(pitch / 3 / 1000) * 1000));
  const half = padPitch(pads) / 2;
  if (!(half > 0)) return base;
  const step = Math.round(half / Math.ceil(half / base));
  return step >= 50_000 ? step : base;
}

/** The commonest centre distance (nm, to 1 µm) between pads of one part in one row or column
 *  that are neighbours; 0 when no part has two such pads. Ties go to the smaller pitch. */
function padPitch(pads: readonly HostPad[]): number {
  const byRef = new Map<string, HostPad[]>();
  for (const p of pads) {
    if (!p.ref) continue;
    let l = byRef.get(p.ref);
    if (!l) byRef.set(p.ref, (l = []));
    l.push(p);
  }
  const count = new Map<number, number>();
  for (const list of byRef.values()) {
    for (const axis of [0, 1] as const) {
      const rows = new Map<number, number[]>();
      for (const p of list) {
        const key = axis === 0 ? p.at.y : p.at.x;
        let r = rows.get(key);
        if (!r) rows.set(key, (r = []));
        r.push(axis === 0 ? p.at.x : p.at.y);
      }
      for (const r of rows.values()) {
        r.sort((a, b) => a - b);
        for (let i = 0; i + 1 < r.length; i++) {
          const d = Math.round((r[i + 1] - r[i]) / 1000) * 1000;
          if (d > 0) count.set(d, (count.get(d) ?? 0) + 1);
        }
      }
    }
  }
  let best = 0;
  let bestN = 0;
  for (const [d, n] of [...count.entries()].sort((a, b) => a[0] - b[0])) {
    if (n > bestN) {
      best = d;
      bestN = n;
    }
  }
  return best;
}

export function profileOf(host: RouterHost, net: number, key: string): Profile {
  const v = host.rules.via(net);
  const width: number[] = [];
  for (let l = 0; l < host.layerCount; l++) width.push(host.rules.trackWidth(net, l));
  const micro = host.rules.microVia?.(net);
  return {
    key,
    net,
    width,
    viaDiameter: v.diameter,
    viaDrill: v.drill,
    clearance: host.rules.clearance(net, 0, 0),
    blindBuried: host.rules.blindBuried === true,
    ...(micro ? { micro } : {}),
  };
}

/** One profile per net class, made from the class's first net of `nets` (ascending codes), and
 *  each net's profile index; `adjust` changes each profile as it is made. */
export function classProfiles(
  host: RouterHost,
  nets: readonly number[],
  adjust?: (p: Profile) => Profile,
): { profiles: Profile[]; netProfile: Map<number, number> } {
  const profileIndex = new Map<string, number>();
  const profiles: Profile[] = [];
  const netProfile = new Map<number, number>();
  for (const n of nets) {
    const key = host.rules.className(n);
    let k = profileIndex.get(key);
    if (k === undefined) {
      k = profiles.length;
      profileIndex.set(key, k);
      const p = profileOf(host, n, key);
      profiles.push(adjust ? adjust(p) : p);
    }
    netProfile.set(n, k);
  }
  return { profiles, netProfile };
}

/** Routes one variant of a request on a host; `verify`, when given, is the independent DRC
 *  that judges the new copper last (final-gate.ts); `world` gives the grid and obstacle maps
 *  (kept ones from a RouteCache give the same maps). */
export function routeHost(host: RouterHost, req: RouteRequest, variant: number, verify?: Verify, world: WorldSource = FRESH): RouteResult {
  // A turned board is a world of its own: nothing a caller keeps for the board fits it.
  if (req.turn) return routeTurned(host, req, verify, (h, r, v) => routeHost(h, r, variant, v));
  const seed = ((req.seed ?? 1) + variant * 7919) >>> 0;
  if (req.gridless && req.connection) return routeGridless(host, req, verify, variant, seed);
  const opt = routeOptions(req.options);
  // With soft zones other nets' routes may notch a plane, and KiCad's refill can then leave a
  // pad the plane used to reach cut off. So a zone's net is routed by tracks as well, and the
  // joins its plane, refilled around everyone else's new copper, still makes are taken out once
  // the rest is routed (plane-joins.ts). Hard zones are walls, so their fills do connect.
  const items = hostItems(host).filter((it) => !(opt.softZones && it.zone));
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
  const asked = [...pieces.keys()].filter((n) => wanted.has(n) && (pieces.get(n)?.length ?? 0) > 1).sort((a, b) => a - b);
  // Nets under custom rules the router does not model stay open, named in the result.
  const held = heldNets(host, asked);
  const nets = held.size > 0 ? asked.filter((n) => !held.has(n)) : asked;
  let connections = 0;
  for (const n of nets) connections += pieces.get(n)!.length - 1;
  const budget = variantBudget(req, connections);

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
  // Set-up is work too, counted before it starts: when the budget cannot hold all of it, nothing
  // is built or searched (blank maps only plan the pieces) and every connection stays open untried.
  const setup = setupWork(host, grid, profiles, opt);
  const fits = setup <= budget;
  const maps: ObstacleMap[] = profiles.map((p) => {
    if (!fits) return new ObstacleMap(grid, p);
    const m = world.map(host, grid, p, opt);
    work += m.work;
    return m;
  });
  // What set-up leaves, in the router's work: the searches get most, the finishing steps the rest.
  const finish = fits ? budget - work : 0;
  const plans: NetPlan[] = nets.map((n) => {
    const k = netProfile.get(n)!;
    return planNet(host, grid, maps[k], checker, items, pieces.get(n)!, n, k, (l) => profiles[k].width[l]);
  });
  // Waypoints are pieces of one grid site each between the two ends, joined in order.
  const legs = conn && plans.length === 1 ? throughWaypoints(grid, maps[plans[0].profile], plans[0], conn.waypoints ?? []) : undefined;
  if (legs) plans[0] = legs.plan;

  // Odd variants route the nets of soft zones last: their planes join most of their pads, so
  // their tracks mostly go again (plane-joins.ts) and had better not box the rest in meanwhile.
  // Even variants route them first, among the big nets, where the plane stays whole where it can.
  const planeLast = new Set<number>();
  if (opt.softZones && variant % 2 === 1) for (const o of host.obstacles) if (o.kind === 'zone' && o.net > 0) planeLast.add(o.net);
  const order = orderNets(plans, req, new Prng(seed), variant, planeLast);
  const settings = settingsFor(host, grid, req, profiles, netProfile, plans);
  const router = new Router({
    host,
    grid,
    profiles,
    maps,
    checker,
    plans,
    settings,
    budget: searchBudget(finish),
    shouldStop: req.shouldStop ?? (() => false),
    onProgress: (done, total, w) => req.onProgress?.({ done, total, work: work + w }),
  });
  router.negotiate(order);
  router.commit(order);
  repair(router, order);
  // What rip-up left apart may still go through at a narrower width, necked only where it must.
  const neck = { host, world, opt, items, pieces, twins: new Map<number, number>() };
  neckDown(router, order, neck);
  // Connections still apart and budget left: wider exchanges, kept only where they join more.
  for (let level = 1; level <= MAX_LEVEL && order.some((p) => router.missing(p) > 0) && router.mayStart(); level++) {
    repair(router, order, level);
    neckDown(router, order, neck);
  }
  if (order.some((p) => router.missing(p) > 0)) reorder(router, order);
  // Pulled tight before the island check and the final gate, so both judge the copper as written.
  const searched = router.stopped !== 'cancelled' ? cleanup(router, order, finish) : new Map<number, Join[]>();
  // With soft zones new copper crosses other nets' fills, so the refill is judged as well:
  // first by the router, which can still detour, then in the final gate.
  const guard = opt.softZones ? new ReliefGuard(host, grid) : undefined;
  const islands = guard ? islandVerify(host, grid, guard) : undefined;
  const byNet = [...plans].sort((a, b) => a.net - b.net).map((p) => ({ net: p.net, profile: profiles[p.profile] }));
  const judge = islands ? bothVerify(islands, verify) : verify;
  const settle = () => {
    if (islands) settleIslands(router, plans, islands);
    const kept = router.kept();
    // What a zone's plane, refilled around the other nets' new copper, still joins needs no track.
    const planes = opt.softZones ? prunePlaneJoins(host, grid, plans, pieces, items, profiles, kept, guard) : (new Map() as PlaneLinks);
    const cut = judge ? gate(kept, byNet, host.layerCount, judge, true) : new Map<number, string>();
    return { kept, planes, cut };
  };
  let { kept, planes, cut } = settle();
  // The final check may refuse copper the pull made or made necessary (a straighter track can
  // starve a zone's thermal relief once it is refilled, and the islands settled around it): then
  // every net still on its searched route gets its searched copper back and all is judged again,
  // kept if fewer nets are cut.
  const back = cut.size ? plans.filter((p) => searched.has(p.net) && samePaths(router.routes.get(p.net)?.joins ?? [], searched.get(p.net)!)) : [];
  if (back.length) {
    for (const p of back) router.recopper(p, searched.get(p.net)!);
    const again = settle();
    if (again.cut.size < cut.size) ({ kept, planes, cut } = again);
  }
  work += router.work;
  const copper = new Map<number, PathCopper[]>();
  for (const [net, joins] of kept)
    copper.set(
      net,
      joins.map((j) => j.copper),
    );
  const only = ends ? { from: ends.padA, to: ends.padB } : undefined;
  const result = withHeldNets(
    host,
    { ...buildResult(host, grid, plans, profiles, copper, router, items, work, variant, seed, cut, planes, finish, only), budget, setup },
    held,
    pieces,
    items,
  );
  const c = result.connections[0];
  const mmText = (v: number) => +(v / 1e6).toFixed(4);
  if (legs && legs.walled >= 0 && c && !c.routed && c.stuck) {
    const w = conn!.waypoints![legs.walled];
    c.stuck = {
      ...c.stuck,
      reason: 'blocked',
      at: w.at,
      layer: w.layer,
      why: `Waypoint ${legs.walled + 1} (${mmText(w.at.x)}, ${mmText(w.at.y)} mm on ${host.layerName(w.layer)}) is no site a track of this net may use there: other copper, a keep-out or the edge is too close.`,
    };
  } else if (conn?.corridor && c && !c.routed && c.stuck && c.stuck.reason !== 'boxed_in' && c.stuck.reason !== 'unreachable') {
    // The floods behind the reasons know nothing of the corridor: say what was tried.
    const k = conn.corridor;
    c.stuck = {
      ...c.stuck,
      reason: 'blocked',
      why: `No legal route was found with its track centres inside the corridor [${[k.minX, k.minY, k.maxX, k.maxY].map(mmText).join(', ')}] mm (a few grid steps round the ends allowed). Without the corridor: ${c.stuck.why}`,
    };
  }
  return result;
}

/** A connection's plan through waypoints: each waypoint a piece of one grid site (the nearest
 *  to it, on its layer) between the two ends, joined in order. `walled`: the first waypoint
 *  whose site the net may not use (-1 when none). */
function throughWaypoints(grid: Grid, map: ObstacleMap, plan: NetPlan, waypoints: readonly { at: Pt; layer: number }[]): { plan: NetPlan; walled: number } {
  let walled = -1;
  const mid = waypoints.map((w, i) => {
    const col = grid.col(w.at.x);
    const row = grid.row(w.at.y);
    const node = w.layer * grid.cells + row * grid.nx + col;
    const at = { x: grid.x0 + col * grid.step, y: grid.y0 + row * grid.step };
    const o = map.track[node];
    const free = o === 0 || o === plan.net;
    if (!free && walled < 0) walled = i;
    return {
      pads: [],
      nodes: free ? [node] : [],
      stubs: new Map(),
      anchors: [at],
      layers: 1 << w.layer,
      copper: [{ shape: circle(at.x, at.y, 1), layers: 1 << w.layer }],
    };
  });
  const [a, b] = plan.pieces;
  return { plan: { ...plan, pieces: [a, ...mid, b], sequence: true }, walled };
}

/** The pieces (item groups) holding a connection's two pads, and those pads' host indices;
 *  undefined when either pad is not of the net or both already share copper. */
function connectionEnds(
  host: RouterHost,
  items: readonly ConnItem[],
  pieces: Map<number, number[][]>,
  conn: NonNullable<RouteRequest['connection']>,
): { a: number[]; b: number[]; padA: number; padB: number } | undefined {
  const padA = host.pads.findIndex((p) => p.index === conn.from);
  const padB = host.pads.findIndex((p) => p.index === conn.to);
  if (padA < 0 || padB < 0 || host.pads[padA].net !== conn.net || host.pads[padB].net !== conn.net) return undefined;
  const groups = pieces.get(conn.net) ?? [];
  const a = groups.find((g) => g.some((i) => items[i].pad === padA));
  const b = groups.find((g) => g.some((i) => items[i].pad === padB));
  if (!a || !b || a === b) return undefined;
  return { a, b, padA, padB };
}

/** The box a corridor's grid covers: the corridor, and round its ends and waypoints the steps
 *  siteCosts leaves open whatever the corridor (and one more). */
function corridorWindow(host: RouterHost, corridor: GridWindow, pads: number[], waypoints: readonly Waypoint[], step: number): GridWindow {
  const w = { ...corridor };
  const take = (minX: number, minY: number, maxX: number, maxY: number) => {
    const m = 5 * step;
    w.minX = Math.min(w.minX, minX - m);
    w.minY = Math.min(w.minY, minY - m);
    w.maxX = Math.max(w.maxX, maxX + m);
    w.maxY = Math.max(w.maxY, maxY + m);
  };
  for (const i of pads) {
    const b = bbox(host.pads[i].shape);
    take(b.minX, b.minY, b.maxX, b.maxY);
  }
  for (const p of waypoints) take(p.at.x, p.at.y, p.at.x, p.at.y);
  return w;
}

/** The smaller of two pads (host indices), the first on a tie. */
function finerEnd(host: RouterHost, a: number, b: number): number {
  return host.pads[b].minSize < host.pads[a].minSize ? b : a;
}

/** A profile at a caller's track width: never below the rules' minimum on a layer. */
function widened(host: RouterHost, p: Profile, width: number): Profile {
  const w = p.width.map((_, l) => Math.max(width, host.rules.minTrackWidth(p.net, l)));
  return { ...p, key: `${p.key}/w${w.join(',')}`, width: w };
}

/** True when two join lists follow the same searched grid paths, join for join. */
function samePaths(a: readonly Join[], b: readonly Join[]): boolean {
  return a.length === b.length && a.every((j, i) => j.path === b[i].path);
}

/** Nets of at least this many pieces (grounds, supplies, buses of many pins) route before the rest,
 *  shortest first within each group: they have the least freedom per connection, and routed last
 *  they find their pins boxed in by everyone else's tracks. */
const BIG_NET_PIECES = 6;

function orderNets(plans: NetPlan[], req: RouteRequest, rng: Prng, variant: number, planeLast: Set<number>): NetPlan[] {
  const first = req.hints?.firstNets ?? [];
  const prio = req.hints?.priority ?? {};
  const escape = routeOptions(req.options).escapePlan;
  const jitter = new Map<number, number>();
  for (const p of plans) jitter.set(p.net, variant === 0 ? 1 : 0.6 + 0.8 * rng.next());
  const key = (p: NetPlan): number[] => {
    const f = first.indexOf(p.net);
    return [
      f >= 0 ? f : first.length,
      -(prio[p.net] ?? 0),
      escape && p.minPad < 400_000 ? 0 : 1,
      planeLast.has(p.net) ? 1 : 0,
      p.pieces.length >= BIG_NET_PIECES ? 0 : 1,
      p.span * jitter.get(p.net)!,
      p.net,
    ];
  };
  return [...plans].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
}

/** Layer cost factor for a thermally joined zone's net on the zone's layers. */
const PLANE_LAYER_COST = 0.6;

/** Layer cost factors: every net's (`base`, or the hinted all-nets entry -1) and per net. */
export function layerFactors(host: RouterHost, req: RouteRequest): { base: Float64Array; perNet: Map<number, Float64Array> } {
  const L = host.layerCount;
  const base = new Float64Array(L).fill(1);
  const perNet = new Map<number, Float64Array>();
  for (const h of req.hints?.layers ?? []) {
    if (h.layer < 0 || h.layer >= L) continue;
    const nets = h.net === undefined ? [-1] : [h.net];
    for (const n of nets) {
      let a = perNet.get(n);
      if (!a) perNet.set(n, (a = Float64Array.from(perNet.get(-1) ?? base)));
      a[h.layer] = Math.max(0.25, h.cost);
    }
  }
  // The net of a zone with thermal reliefs prefers the zone's layers: a track there lies in its
  // own plane and holds the plane's pieces to its pads (KiCad counts a track leaving a pad into
  // the fill as a spoke), where a track on another layer leaves the reliefs to starve when other
  // nets notch the plane. (Zones joining pads solid gain nothing: measured worse.) Hints win.
  const planes = new Map<number, number>();
  for (const o of host.obstacles) if (o.kind === 'zone' && o.net > 0 && o.thermal) planes.set(o.net, (planes.get(o.net) ?? 0) | o.layers);
  for (const [net, layers] of [...planes].sort((a, b) => a[0] - b[0])) {
    if (perNet.has(net)) continue;
    const a = Float64Array.from(perNet.get(-1) ?? base);
    for (let l = 0; l < L; l++) if ((layers >>> l) & 1) a[l] *= PLANE_LAYER_COST;
    perNet.set(net, a);
  }
  return { base, perNet };
}

/** A via's cost where the call prices vias by their footprint: priced as its span on a contested
 *  site, it also pays less to go down at all, so a net drops under a crowded layer before the
 *  negotiation has grown its history there. */
export const FOOTPRINT_VIA_SHARE = 1 / 3;

/**
 * What a via costs the searches, in grid steps of `step`, for vias whose copper and clearance span
 * `span` (nm): about as much as 3 mm of track and its span twice, or 8 steps, whichever is more.
 * Where the call prices vias by their `footprint`, a contested one pays its span per net there
 * (SearchParams.viaCongestion) and a third of that cost.
 */
export function viaPrice(span: number, step: number, footprint: boolean): { viaCost: number; viaCongestion?: number } {
  const viaCost = Math.max(8, (3_000_000 + 2 * span) / step);
  return footprint ? { viaCost: viaCost * FOOTPRINT_VIA_SHARE, viaCongestion: Math.max(1, span / step) } : { viaCost };
}

function settingsFor(host: RouterHost, grid: Grid, req: RouteRequest, profiles: Profile[], netProfile: Map<number, number>, plans: NetPlan[]): RouterSettings {
  const via = Math.max(...profiles.map((p) => p.viaDiameter + p.clearance), 0);
  const { base, perNet } = layerFactors(host, req);
  return {
    ...viaPrice(via, grid.step, req.footprintVias === true),
    bend45: 0.2,
    bend90: 0.6,
    zoneCost: 1.3,
    hWeight: 1.15,
    maxIterations: 30,
    layerCost: (net) => perNet.get(net) ?? perNet.get(-1) ?? base,
    siteCost: siteCosts(host, grid, req, profiles, netProfile, plans),
  };
}

/**
 * Per-net site cost factors: hinted regions (prefer, avoid), and walls only this net meets —
 * other nets' reservations, grown by this net's half width and clearance so its copper stays
 * out of the box, and the outside of a connection's corridor (its ends' surroundings excepted).
 * Nets that meet the same regions and walls share one array: a board's worth of cells per net
 * would not fit.
 */
function siteCosts(
  host: RouterHost,
  grid: Grid,
  req: RouteRequest,
  profiles: Profile[],
  netProfile: Map<number, number>,
  plans: NetPlan[],
): (net: number) => Float32Array | undefined {
  const L = host.layerCount;
  const regions = req.hints?.regions ?? [];
  const reserved = req.reserved ?? [];
  const conn = req.connection;
  const shared = new Map<string, Float32Array>();
  const byNet = new Map<number, Float32Array | undefined>();
  const fill = (arr: Float32Array, minX: number, minY: number, maxX: number, maxY: number, layers: readonly number[] | undefined, f: (v: number) => number) => {
    const [c0, c1] = grid.colRange(minX, maxX);
    const [r0, r1] = grid.rowRange(minY, maxY);
    for (let l = 0; l < L; l++) {
      if (layers && !layers.includes(l)) continue;
      for (let y = r0; y <= r1; y++) for (let x = c0; x <= c1; x++) arr[l * grid.cells + y * grid.nx + x] = f(arr[l * grid.cells + y * grid.nx + x]);
    }
  };
  return (net) => {
    if (byNet.has(net)) return byNet.get(net);
    const mine = regions.map((r, i) => (!r.nets || r.nets.includes(net) ? i : -1)).filter((i) => i >= 0);
    const walls = reserved.map((r, i) => (r.net !== net ? i : -1)).filter((i) => i >= 0);
    const corridor = conn?.corridor && conn.net === net ? conn.corridor : undefined;
    const k = netProfile.get(net) ?? 0;
    const key = `${mine.join(',')}|${walls.join(',')}|${corridor ? 'c' : ''}|${walls.length ? k : ''}`;
    let arr: Float32Array | undefined = shared.get(key);
    if (!arr && (mine.length || walls.length || corridor)) {
      arr = new Float32Array(grid.cells * L).fill(1);
      for (const i of mine) {
        const r = regions[i];
        const f = r.mode === 'prefer' ? 0.7 : 4;
        fill(arr, r.minX, r.minY, r.maxX, r.maxY, r.layers, (v) => v * f);
      }
      const p = profiles[k];
      const grow = p ? Math.ceil(Math.max(...p.width) / 2) + p.clearance : 0;
      for (const i of walls) {
        const r = reserved[i];
        fill(arr, r.minX - grow, r.minY - grow, r.maxX + grow, r.maxY + grow, r.layers, () => Infinity);
      }
      if (corridor) {
        const inside = new Uint8Array(grid.cells);
        const open = (minX: number, minY: number, maxX: number, maxY: number) => {
          const [c0, c1] = grid.colRange(minX, maxX);
          const [r0, r1] = grid.rowRange(minY, maxY);
          for (let y = r0; y <= r1; y++) for (let x = c0; x <= c1; x++) inside[y * grid.nx + x] = 1;
        };
        open(corridor.minX, corridor.minY, corridor.maxX, corridor.maxY);
        // The ends and the waypoints stay reachable whatever the box: a few steps round their copper.
        const margin = 4 * grid.step;
        for (const plan of plans)
          if (plan.net === net)
            for (const pc of plan.pieces)
              for (const c of pc.copper) {
                const b = bbox(c.shape);
                open(b.minX - margin, b.minY - margin, b.maxX + margin, b.maxY + margin);
              }
        for (let l = 0; l < L; l++) for (let c = 0; c < grid.cells; c++) if (!inside[c]) arr[l * grid.cells + c] = Infinity;
      }
      shared.set(key, arr);
    }
    byNet.set(net, arr);
    return arr;
  };
}

function buildResult(
  host: RouterHost,
  grid: Grid,
  plans: NetPlan[],
  profiles: Profile[],
  kept: Map<number, PathCopper[]>,
  router: Router,
  items: ConnItem[],
  work: number,
  variant: number,
  seed: number,
  cut: Map<number, string>,
  planes: PlaneLinks,
  finish: number,
  only?: { from: number; to: number },
): Omit<RouteResult, 'budget' | 'setup'> {
  const L = host.layerCount;
  const allTracks: NewTrack[] = [];
  const allVias: NewVia[] = [];
  const netResults: NetResult[] = [];
  const connections: ConnectionResult[] = [];
  const extra: ConnItem[] = [];
  for (const plan of [...plans].sort((a, b) => a.net - b.net)) {
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
  // Final connectivity from geometry, as KiCad would see it.
  const after = connectedPieces([...items, ...extra.map((e) => ({ ...e }))]);
  for (const plan of [...plans].sort((a, b) => a.net - b.net)) {
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
      continue;
    }
    const distinct = new Set(pieceGroup.filter((g) => g >= 0)).size + pieceGroup.filter((g) => g < 0).length;
    const routedCount = plan.pieces.length - distinct;
    nr.routed = routedCount;
    nr.open = distinct - 1;
    // Connections: Prim over pieces; an edge is routed when its two pieces ended up together.
    // Pieces the plane joined before routing and still joins were never a connection to make:
    // Prim takes them together first, at distance -1, and leaves them out.
    const saved = planes.get(plan.net)?.before;
    const joined = (i: number, j: number) => saved !== undefined && saved[i] === saved[j] && pieceGroup[i] >= 0 && pieceGroup[i] === pieceGroup[j];
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
        nr.routed--;
        continue;
      }
      // A piece of copper alone (a via an agent placed, copper a rip left apart) is no
      // connection between pads: it is joined when a route passes it, and named by none.
      if (plan.pieces[bi].pads.length === 0 || plan.pieces[bj].pads.length === 0) continue;
      const [pa, pb] = nearestPads(host, plan.pieces[bi].pads, plan.pieces[bj].pads);
      const routed = pieceGroup[bi] >= 0 && pieceGroup[bi] === pieceGroup[bj];
      const conn: ConnectionResult = {
        net: plan.net,
        netName: host.netNames[plan.net] ?? '',
        from: padRef(host.pads[pa]),
        to: padRef(host.pads[pb]),
        routed,
      };
      connections.push(conn);
    }
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
  const before = router.work;
  // Explanations spend from the budget too: within what set-up left (`finish`), never past it.
  const explain = boundedExplainer(host, grid, router, finish);
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
  // Flood cells of the explanations are work too.
  work += router.work - before;
  const open = connections.filter((c) => !c.routed);
  let length = 0;
  for (const r of netResults) length += r.length;
  return {
    tracks: allTracks,
    vias: allVias,
    nets: netResults,
    connections,
    open,
    ripped: { tracks: [], vias: [] },
    work,
    stopped: router.stopped,
    variant,
    seed,
    summary: { routed: connections.length - open.length, open: open.length, tracks: allTracks.length, vias: allVias.length, length },
  };
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
