// The router's public vocabulary: what a caller asks for (RouteRequest) and what comes back
// (RouteResult), with the typed reasons a connection stays open. Lengths in integer nm, layers
// by stack index (0 = F.Cu), nets by code. Nothing here computes; see plan/variant-run.ts.

import type { NewTrack, NewVia } from '../board/added-copper.ts';
import type { Pt } from '../board/model.ts';

/** Behaviour switches a user may flip (a small whitelist). */
export interface RouteOptions {
  /** Other nets' zone fills are refilled by KiCad, so they are no walls (default true). A
   *  route still may not cut a zone's net so that its pads lose the plane. */
  softZones?: boolean;
  /** Vias may sit inside SMD pads of their own net (default false). */
  viaInPad?: boolean;
  /** Vias keep clear of every pad, own net included (default false). */
  viasOffPads?: boolean;
  /** Route nets with a pad narrower than 0.4 mm (fine-pitch parts) before the others (default false). */
  escapePlan?: boolean;
}

/** The route options with every default filled in: the one place the defaults are decided. */
export function routeOptions(o: RouteOptions | undefined): Required<RouteOptions> {
  return { softZones: o?.softZones ?? true, viaInPad: o?.viaInPad ?? false, viasOffPads: o?.viasOffPads ?? false, escapePlan: o?.escapePlan ?? false };
}

/** A box (nm) to prefer or avoid, optionally only on some layers or for some nets. */
export interface RegionHint {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  mode: 'prefer' | 'avoid';
  layers?: number[];
  nets?: number[];
}

/** Hints for agents and power users; none of them changes what is legal. */
export interface RouteHints {
  /** Nets routed first, in this order, before every other net. */
  firstNets?: number[];
  /** Net code → priority (higher routes earlier and is ripped later). */
  priority?: Record<number, number>;
  /** Per-net layer cost factor (≥ 0.25; 1 neutral; large discourages the layer). */
  layers?: { net?: number; layer: number; cost: number }[];
  regions?: RegionHint[];
}

/** Copper added earlier in the same session as a route call gets it (the session's
 *  SessionCopper, engine/session/copper.ts): locked unless marked rippable for this call. */
export interface RippableCopper {
  tracks: (NewTrack & { rippable?: boolean })[];
  vias: (NewVia & { rippable?: boolean })[];
}

export interface RouteProgress {
  /** Connections the running variant holds made now / the connections it routes: what a person
   *  waiting wants to see, and roughly what a stop keeps (the final gate may drop a few). */
  made: number;
  connections: number;
  /** Work used so far (search expansions + flood cells). */
  work: number;
}

/** A box (nm) kept for one net: other nets' new copper stays out of it, on `layers` (all when
 *  absent). An agent's way to hold a via site or a channel for a net it will route later. */
export interface Reservation {
  net: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  layers?: number[];
}

/** A point a connection's route must pass, on a layer (nm; snapped to the router's grid). */
export interface Waypoint {
  at: Pt;
  layer: number;
}

/** One connection to make, and how: between the copper of two pads of one net (board pad
 *  indices), through waypoints in order, inside a corridor, at a width. */
export interface ConnectionRequest {
  net: number;
  from: number;
  to: number;
  waypoints?: Waypoint[];
  /** Box (nm) the route's track centres stay inside. */
  corridor?: { minX: number; minY: number; maxX: number; maxY: number };
  /** Track width (nm); at least the rules' minimum on each layer. Default: the class width. */
  width?: number;
}

/** What a caller asks of a route (the session, the command line, the plugin). The router's own
 *  retries add AttemptSettings to it; a caller never sets those. */
export interface RouteRequest {
  /** Net codes to route; default: every net with an open connection. */
  nets?: number[];
  /** The most the whole call may spend (search expansions, flood cells, set-up sites), all
   *  variants together: each variant gets an equal share (variantRequest) that covers its set-up,
   *  searches and finishing steps. Default: defaultWork(the variant's connections) each, and
   *  DEFAULT_PAIR_WORK for each differential pair it routes, to lay it as a pair. */
  work?: number;
  /** Without `work`: the most the call may spend, its variants together. Each variant gets its
   *  default budget or its equal share of the cap, whichever is less (a session's work limit:
   *  within it, a route runs as it would without one). */
  workCap?: number;
  /** Seed of the variant order perturbation (default 1). */
  seed?: number;
  /** 1..8 variants with different seeds/orders; the best by a fixed order is kept. */
  variants?: number;
  hints?: RouteHints;
  options?: RouteOptions;
  session?: RippableCopper;
  reserved?: Reservation[];
  /** Only this connection (nets is ignored). */
  connection?: ConnectionRequest;
  /** With `connection`: routed off the grid (gridless.ts), the shortest path between the exact
   *  obstacles: 'layer' on a layer both its pads share, 'via' across layers through vias. */
  gridless?: 'layer' | 'via';
  /** Polled between searches; true stops the route and returns the best clean result so far. */
  shouldStop?: () => boolean;
  onProgress?: (p: RouteProgress) => void;
}

/** How one attempt of a call routes, set only by the router's own stages as they retry (finish-open,
 *  turned grids, make-room, an escalation round, a pair's joins), never by a caller. */
export interface AttemptSettings {
  /** Board pad index: the grid's sites lie on this pad and its step follows its part's pitch. */
  gridPad?: number;
  /** A finer look: the grid step the rules and pads imply divided by this (1..4, the step never
   *  below 10 µm); affordable for one connection in a corridor, whose grid covers the corridor only. */
  gridRefine?: number;
  /** Box (nm) the route's grid covers, for a call whose pads all lie in one region (a pair's
   *  joins): the set-up costs the box, not the board. The caller keeps the call's pads inside. */
  window?: { minX: number; minY: number; maxX: number; maxY: number };
  /** Degrees (KiCad's sense) the route's grid is turned by, so its moves follow parts placed at
   *  that angle (turned.ts); boxes and points of the request are the board's. Default 0. */
  turn?: number;
  /** Set by an escalation round (repair/make-room.ts): start from `from`, a round's best, and
   *  route each of its `walled` connections (the fixed copper walls them in on the grid) off the
   *  grid past the fixed copper alone, the call's nets in its way taken out and routed again. */
  makeRoom?: { from: RouteResult; walled: { net: number; from: number; to: number }[] };
  /** Set by an escalation round on the variants it adds (escalationRound): a via on a site
   *  other nets contest pays its footprint per net there (core/search.ts viaCongestion), not its
   *  whole cost again, so the negotiation drops under a row the first round crossed on the row's
   *  own layer. Alone in its place in the call, each such variant may spend the place's whole
   *  bound (variantBudget). */
  footprintVias?: boolean;
}

/** A request as the router's stages carry it: the caller's, with the attempt's own settings. */
export type Attempt = RouteRequest & AttemptSettings;

/** A pad a connection ends on, named so a person can find it: REF.PIN. */
export interface PadRef {
  pad: number;
  ref: string;
  number: string;
  at: Pt;
}

/** A router pad (core/host.ts's HostPad) named as a connection's end. */
export function padRef(p: { index: number; ref: string; number: string; at: Pt }): PadRef {
  return { pad: p.index, ref: p.ref, number: p.number, at: p.at };
}

/** `rule_not_supported`: a custom rule the router does not model governs the net (a length,
 *  skew, via count, … constraint, or a rule whose condition it cannot read), so the router
 *  leaves the net alone rather than add copper KiCad's DRC could fault. */
export type StuckCode = 'boxed_in' | 'blocked' | 'no_via_site' | 'budget' | 'unreachable' | 'rule_not_supported' | 'length_rule';

/** Why a connection is still open: typed for the panel and for agents. */
export interface StuckReason {
  reason: StuckCode;
  /** One sentence a person understands. */
  why: string;
  /** Nets whose copper bounds the region the proof or the flood reached (the cut), most
   *  boundary first: `count` is the boundary sites each holds. Empty when nothing was proven. */
  blockers: { net: number; name: string; count: number }[];
  /** The searches' own record: nets whose copper they ran into, most hits first. Statistics,
   *  not a claim about what encloses the pad. */
  searchHits?: { net: number; name: string; count: number }[];
  /** Times this connection's route was ripped up for another net. */
  rips: number;
  /** Failed searches for this connection. */
  fails: number;
  /** False when the router never attempted it (budget, cancel). */
  tried: boolean;
  /** True where the router's grid at the class width has no path past the fixed copper alone
   *  (no via site either, between layers): no rip frees it, a look off the grid may. */
  fixedWalls?: boolean;
  /** A step an agent or a person could try next, naming the session tool (route_connection,
   *  rip, place_via), when the floods suggest one. */
  hint?: string;
  /** Where the trouble is (nm), when known: the boxed-in pad or the nearest frontier. */
  at?: Pt;
  layer?: number;
}

export interface ConnectionResult {
  net: number;
  netName: string;
  from: PadRef;
  to: PadRef;
  routed: boolean;
  stuck?: StuckReason;
}

export interface NetResult {
  net: number;
  name: string;
  routed: number;
  open: number;
  tracks: NewTrack[];
  vias: NewVia[];
  /** Track length, nm. */
  length: number;
}

export interface RouteResult {
  /** All new copper, net by net in name order. */
  tracks: NewTrack[];
  vias: NewVia[];
  nets: NetResult[];
  connections: ConnectionResult[];
  /** The connections left open (subset of `connections`). */
  open: ConnectionResult[];
  /** Session copper the call ripped (indices into request.session.tracks / vias). */
  ripped: { tracks: number[]; vias: number[] };
  /** Work used, summed over variants. */
  work: number;
  /** The work the call was allowed (the request's, or the default for its connections), summed
   *  over variants as work is. */
  budget: number;
  /** What the obstacle maps cost to build (the set-up, spent only when the budget held it),
   *  summed over variants. */
  setup: number;
  stopped: 'done' | 'budget' | 'cancelled';
  /** Which variant won, and its seed: a variant's finishing may route the call in another order,
   *  that of variant i + k·n of the call's n (finish-open.ts), and report that one. */
  variant: number;
  seed: number;
  summary: { routed: number; open: number; tracks: number; vias: number; length: number };
  /** Each differential pair the call routed, + net first: whether it was routed again as a
   *  coupled pair (pairs/couple-pairs.ts), its coupled share, and why not where it was not. */
  pairs?: PairOutcome[];
}

export interface PairOutcome {
  plus: number;
  minus: number;
  coupled: boolean;
  /** Share of the longer net's length coupled at the class's pair gap (± 10 %). */
  share: number;
  why?: string;
}
