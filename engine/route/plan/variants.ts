// Variants: the same request routed with different seeds (net orders), the best kept by a fixed
// order — fewest connections left open, then most routed, most of its pairs coupled, fewest vias,
// shortest length, lowest variant index — so the choice never depends on which thread finished
// first. A call its first round of variants leaves open routes a further round (escalationRound),
// half of it with the nets left open going first.

import { withCopper } from '../../board/added-copper.ts';
import type { Design } from '../../board/design.ts';
import { checkAdded } from '../../drc/drc.ts';
import type { Verify } from '../finish/final-gate.ts';
import { copperParts, hostFromDesign } from '../design/host-from-design.ts';
import type { HostRules, RouterHost } from '../core/host.ts';
import { fanOut, innerBalls, withFans, type FanOut, type FanOutSizes } from '../escape/fan-out.ts';
import { RouteCache } from '../design/route-cache.ts';
import { finishOpen, MAX_ORDERS, routable } from '../repair/finish-open.ts';
import { tuneLengths } from '../pairs/tune-length.ts';
import { detourShort } from '../pairs/detour.ts';
import { couplePairs, PAIR_WORK, routedPairs, uncouple } from '../pairs/couple-pairs.ts';
import { settlePairRules } from '../pairs/pair-rules.ts';
import { settledLater } from '../pairs/later-findings.ts';
import { FRESH, type WorldSource } from '../core/world-source.ts';
import type { Grid } from '../core/grid.ts';
import { routeHost } from './variant-run.ts';
import { gridStep } from './grid-step.ts';
import { planesCut } from '../zones/plane-cut.ts';
import { DEFAULT_PAIR_WORK, ESCALATION, FOOTPRINT_VARIANTS, escalationBound, footprintBound, variantBudget, variantCount, variantRequest } from './budget.ts';
import { routeOptions, type Attempt, type ConnectionResult, type RouteRequest, type RouteResult } from '../types.ts';
import { clashingNets } from '../repair/clashes.ts';
import { routeRoom } from '../repair/make-room.ts';

/** The router's host for a design, with the session's locked copper as fixed copper. */
export function sessionHost(design: Design, req: Attempt): RouterHost {
  const s = req.session;
  return hostFromDesign(design, s ? { tracks: s.tracks, vias: s.vias } : undefined);
}

/** The host and where its grid and maps come from: kept in `cache` when the caller holds one. */
function sessionWorld(design: Design, req: Attempt, cache?: RouteCache): { host: RouterHost; source: WorldSource } {
  if (!cache) return { host: sessionHost(design, req), source: FRESH };
  const s = req.session;
  return cache.world(design, copperParts(s?.tracks ?? [], s?.vias ?? []));
}

/** The board new copper is judged on: the design's, with the session's copper as board copper. */
function verifyBase(design: Design, req: Attempt): Design {
  const s = req.session;
  return s ? { ...design, board: withCopper(design.board, s.tracks, s.vias) } : design;
}

/**
 * engine/drc's judgement of new copper (pairs involving it only), as the router's final gate:
 * the error-level findings that name an added track or via. Session copper counts as board
 * copper here, as it is fixed for this call. Findings against zone fills are left to KiCad's
 * refill when zones are soft.
 */
export function drcVerify(design: Design, req: Attempt): Verify {
  const soft = routeOptions(req.options).softZones;
  const base = verifyBase(design, req);
  return (tracks, vias) => {
    const t0 = base.board.tracks.length;
    const v0 = base.board.vias.length;
    const report = checkAdded(base, tracks, vias);
    const out = { tracks: new Set<number>(), vias: new Set<number>(), why: new Map<string, string>() };
    for (const v of report.violations) {
      if (v.severity !== 'error') continue;
      // A fill KiCad refills around the new copper (the fill here is the pre-route one), a net
      // too short for its length or skew rule, a pair's rules: each is settled after the gate.
      if (settledLater(v, soft)) continue;
      for (const it of v.items) {
        const key = it.kind === 'track' && it.index >= t0 ? `t${it.index - t0}` : it.kind === 'via' && it.index >= v0 ? `v${it.index - v0}` : undefined;
        if (!key) continue;
        if (key[0] === 't') out.tracks.add(it.index - t0);
        else out.vias.add(it.index - v0);
        if (!out.why.has(key)) out.why.set(key, v.description);
      }
    }
    return out;
  };
}

/** Routes variant `index` (0-based) of a request whose `work` is this variant's share
 *  (variantRequest), judged last by engine/drc. A `cache` kept by the caller across routes on the
 *  same Design spares rebuilding the board's world; the result is the same with or without it. */
export function routeVariant(design: Design, req: Attempt, index: number, cache?: RouteCache): RouteResult {
  const world = cache ?? new RouteCache();
  const pads = design.board.pads;
  if (req.makeRoom) {
    let host: RouterHost | undefined;
    return routeRoom(req, variantBudget(req, req.makeRoom.from.connections.length), index, {
      alone: (r) => routeOnce(design, r, index, world),
      again: (r) => routeVariant(design, r, index, world),
      clashes: (mine, theirs) => clashingNets((host ??= sessionHost(design, req)), mine, theirs),
      layers: (i) => pads[i].layers,
    });
  }
  // Order k of variant i is variant i + k·n of the n the call routes: no two variants share one.
  const n = variantCount(req);
  const base = verifyBase(design, req);
  const first = routeOnce(design, req, index, world);
  // The pairs routed are laid as pairs after the open connections are tried again. Without a set
  // amount of work that is work on top of the route's default, as far as a cap leaves room; else
  // it is carved from the route's (at most half), or a board that stays open would couple none.
  const pairs = routedPairs(design, first).length;
  const room = req.work === undefined ? Math.max(0, (req.workCap ?? Infinity) - first.budget) : 0;
  const extra = Math.min(pairs * DEFAULT_PAIR_WORK, room);
  const reserve = extra > 0 ? 0 : Math.min(Math.floor(first.budget / 2), pairs * PAIR_WORK);
  const finished = finishOpen(
    req,
    { ...first, budget: first.budget - reserve },
    (r, order = 0) => routeOnce(design, r, index + n * order, world),
    (i) => ({ size: Math.min(pads[i].size.w, pads[i].size.h), rotation: pads[i].rotation, layers: pads[i].layers }),
    (r, open) => fannedRoute(design, r, open, index, world),
  );
  const routed = { ...finished, budget: first.budget + extra };
  // The host and whole-board grid the pairs' copper is judged on against the refilled planes:
  // built once, on the first pair that gets that far.
  let planes: { host: RouterHost; grid: Grid } | undefined;
  const planeWorld = () => {
    const { host, source } = sessionWorld(design, req, world);
    return { host, grid: source.grid(host, gridStep(host)) };
  };
  const coupled = couplePairs(design, base, req, routed, {
    join: (r) => routeOnce(design, r, index, world),
    host: (extra) => world.world(design, copperParts(extra.tracks, extra.vias)).host,
    planesCut: (before, after) => {
      planes ??= planeWorld();
      return planesCut(planes.host, planes.grid, before, after);
    },
  });
  const tuned = tuneLengths(base, coupled);
  // A coupled pair the meanders could not bring to its length rules may be, as single tracks.
  const unmatched = (tuned.pairs ?? []).filter(
    (p) => p.coupled && tuned.open.some((c) => (c.net === p.plus || c.net === p.minus) && c.stuck?.reason === 'length_rule'),
  );
  // A net the meanders could not bring to its rule may yet go the long way round.
  const detour = (r: RouteResult) => detourShort(base, req, r, (q) => routeOnce(design, q, index, world));
  if (unmatched.length === 0) return settlePairRules(base, detour(tuned));
  const single = tuneLengths(base, uncouple(coupled, routed, unmatched, 'coupled, it could not be brought to its length rules; its single tracks could'));
  return settlePairRules(base, detour(single.summary.open < tuned.summary.open ? single : tuned));
}

/** Dogbones for the area-array balls among `ends` (fan-out.ts) in `host` (the request's world);
 *  only those the DRC finds nothing against, as the router's own copper is judged. */
function fanOutChecked(design: Design, req: Attempt, host: RouterHost, ends: number[]): FanOut[] {
  const fans = fanOut(host, ends, fanSizes(host.rules), routeOptions(req.options).softZones);
  if (fans.length === 0) return fans;
  const verdict = drcVerify(design, req)(
    fans.flatMap((f) => f.tracks),
    fans.flatMap((f) => f.vias),
  );
  let t = 0;
  let v = 0;
  return fans.filter((f) => {
    const bad = f.tracks.some((_, i) => verdict.tracks.has(t + i)) || f.vias.some((_, i) => verdict.vias.has(v + i));
    t += f.tracks.length;
    v += f.vias.length;
    return !bad;
  });
}

/**
 * The call again with every ball its nets have inside an area array fanned out first (fixed, as
 * the session's copper is), where some `open` connection ends on such a ball; each fan-out kept
 * only where the route joined it, else the call's result as routed round it.
 */
function fannedRoute(design: Design, req: Attempt, open: readonly ConnectionResult[], index: number, cache: RouteCache): RouteResult | undefined {
  const host = sessionWorld(design, req, cache).host;
  const balls = innerBalls(host, req.nets ? new Set(req.nets) : undefined);
  const mine = new Set(balls);
  if (!open.some((c) => mine.has(c.from.pad) || mine.has(c.to.pad))) return undefined;
  const fans = fanOutChecked(design, req, host, balls);
  if (fans.length === 0) return undefined;
  const s = req.session ?? { tracks: [], vias: [] };
  const r = routeOnce(
    design,
    { ...req, session: { tracks: [...s.tracks, ...fans.flatMap((f) => f.tracks)], vias: [...s.vias, ...fans.flatMap((f) => f.vias)] } },
    index,
    cache,
  );
  return withFans(r, fans);
}

/** A fan-out's via and track: the class's first, then the smallest the rules allow. */
function fanSizes(rules: HostRules): FanOutSizes {
  const distinct = <T>(xs: T[], key: (x: T) => string) => xs.filter((x, i) => xs.findIndex((y) => key(y) === key(x)) === i);
  return {
    vias: (net) => distinct([rules.via(net), ...(rules.minVia ? [rules.minVia(net)] : [])], (v) => `${v.diameter}/${v.drill}`),
    widths: (net, layer) => distinct([rules.trackWidth(net, layer), rules.minTrackWidth(net, layer)], String),
  };
}

/** One variant on the grid the request implies, without finishOpen's further tries. */
function routeOnce(design: Design, req: Attempt, index: number, cache: RouteCache): RouteResult {
  const w = sessionWorld(design, req, cache);
  return withRipping(req, routeHost(w.host, req, index, drcVerify(design, req), w.source), (r) => routeOnce(design, r, index, cache));
}

/**
 * Session copper the call may rip stays put while the route with it fixed leaves nothing open;
 * otherwise (unless the caller stopped it) the call is routed again without it (its nets start
 * over), and the result that leaves fewer connections open is kept — the fixed one on a tie, so
 * nothing is redone for nothing. Work of both counts, within the one budget the fixed route had
 * (the request's share or its default): the redo gets what the fixed route left.
 */
function withRipping(req: Attempt, fixed: RouteResult, again: (req: Attempt) => RouteResult): RouteResult {
  const s = req.session;
  // Nets held back for custom rules stay open however the rest is routed: no reason to redo.
  if (!s || fixed.open.every((c) => c.stuck?.reason === 'rule_not_supported') || fixed.stopped === 'cancelled') return fixed;
  const tracks: number[] = [];
  const vias: number[] = [];
  s.tracks.forEach((t, i) => t.rippable && tracks.push(i));
  s.vias.forEach((v, i) => v.rippable && vias.push(i));
  if (tracks.length === 0 && vias.length === 0) return fixed;
  const kept = { tracks: s.tracks.filter((t) => !t.rippable), vias: s.vias.filter((v) => !v.rippable) };
  const budget = fixed.budget;
  if (fixed.work >= budget) return fixed;
  const redone = again({ ...req, session: kept, work: budget - fixed.work });
  const work = fixed.work + redone.work;
  const setup = fixed.setup + redone.setup;
  if (redone.open.length < fixed.open.length) return { ...redone, ripped: { tracks, vias }, work, budget, setup };
  return { ...fixed, work, setup };
}

/** How much of its pairs a result routed coupled: the coupled shares summed. */
const coupled = (r: RouteResult) => (r.pairs ?? []).reduce((s, p) => s + (p.coupled ? p.share : 0), 0);

/** The best result by the fixed order; work, budget and set-up are summed over all of them. */
export function pickBest(results: readonly RouteResult[]): RouteResult {
  if (results.length === 0) throw new Error('pickBest: expected at least one result');
  let best = results[0];
  for (const r of results.slice(1)) {
    const a = r.summary;
    const b = best.summary;
    // Fewest left open is most routed: connections a plane still joins are not counted as made,
    // so the number routed alone can differ between variants that leave the same open.
    const ca = coupled(r);
    const cb = coupled(best);
    const better =
      a.open !== b.open
        ? a.open < b.open
        : a.routed !== b.routed
          ? a.routed > b.routed
          : ca !== cb
            ? ca > cb
            : a.vias !== b.vias
              ? a.vias < b.vias
              : a.length !== b.length
                ? a.length < b.length
                : r.variant < best.variant;
    if (better) best = r;
  }
  const sum = (f: (r: RouteResult) => number) => results.reduce((s, r) => s + f(r), 0);
  const stopped = results.some((r) => r.stopped === 'cancelled') ? 'cancelled' : best.stopped;
  return { ...best, work: sum((r) => r.work), budget: sum((r) => r.budget), setup: sum((r) => r.setup), stopped };
}

/** Variant indices of one round from the next: past every order a variant tries (finish-open.ts),
 *  so no two rounds route the same order. */
const ROUND_SPAN = MAX_ORDERS + 1;

/** One variant of a call's round: its index and the request it routes. */
export interface RoundVariant {
  index: number;
  request: Attempt;
}

/**
 * Round `round` (1, 2, …) of a call whose variant request is `req` and whose rounds so far gave
 * `results`, or undefined. A call on its default budget whose best leaves connections open that
 * another order could make routes a round of as many new variants, each with the same budget,
 * while every variant's place in the call stays within escalationBound of that budget and the
 * call's work cap. The second half of the round (all of a round of one) routes the nets left open
 * first (openFirst), or, where the fixed copper walls in every one on the grid, makes room for them
 * (roomFor); the first half routes in new orders only, since a net left open is as often made by
 * moving the nets round it as by going earlier. Where the call's work cap leaves room,
 * FOOTPRINT_VARIANTS variants more, each in an order of its own, route the second half's request
 * with a via on a contested site priced by its footprint (footprintVias), each with footprintBound
 * of the budget: where the nets crossed each other on one layer because every via site near them
 * was contested, they drop under them, and a dense board that stays open is routed at length.
 * Added, not in place of any, since each half makes boards the other does not; and alone, as
 * round 1, in new orders, where no round fits escalationBound (a call whose budget is near
 * DEFAULT_WORK_CAP). A call that made everything, had a set amount of work or was stopped routes
 * no further round.
 */
export function escalationRound(req: Attempt, results: readonly RouteResult[], round: number): RoundVariant[] | undefined {
  if (req.work !== undefined || req.connection || results.length === 0 || req.shouldStop?.()) return undefined;
  const best = pickBest(results);
  if (!stillOpen(best)) return undefined;
  const budget = Math.max(...results.map((r) => r.budget));
  const n = variantCount(req);
  const bound = escalationBound(budget);
  const cap = req.workCap ?? Infinity;
  const fits = (round + 1) * budget <= Math.min(bound, cap);
  // The call's cap is its variants' shares together (variantRequest); the footprint variants,
  // each of which may spend footprintBound, are paid from it too. Where no round fits in
  // the bound, they still go, once: a call left open has work to buy.
  const more = (fits || round === 1) && (round + 1) * n * budget + round * FOOTPRINT_VARIANTS * footprintBound(budget) <= cap * n;
  if (!fits && !more) return undefined;
  const first = roomFor(req, best) ?? openFirst(req, best);
  const variants = fits ? Array.from({ length: n }, (_, i) => ({ index: i + round * n * ROUND_SPAN, request: i >= Math.floor(n / 2) ? first : req })) : [];
  // Alone, they are the call's only further tries and go in new orders, the open nets not first:
  // on the boards near the cap that made more (kicad-demo_video, kitspace_glasgow).
  if (more) {
    const request = { ...(fits ? first : req), footprintVias: true };
    for (let k = 0; k < FOOTPRINT_VARIANTS; k++) variants.push({ index: footprintIndex(n, round) + k, request });
  }
  return variants;
}

/** The first footprint variant of round `round`: past every index a round and its orders use (a
 *  call routes at most ESCALATION − 1 rounds, so those lie below ESCALATION · n · ROUND_SPAN), one
 *  span a round, which holds a round's FOOTPRINT_VARIANTS (fewer than ROUND_SPAN). */
function footprintIndex(n: number, round: number): number {
  return (ESCALATION + round - 1) * n * ROUND_SPAN;
}

/**
 * `req` making room (make-room.ts) from `best` for the connections it leaves open, where the fixed
 * copper walls in every one of them on the grid: no net order frees a lane there, and the call's
 * own nets may hold the one lane off it. Undefined otherwise.
 */
export function roomFor(req: Attempt, best: RouteResult): Attempt | undefined {
  const open = routable(best);
  if (open.length === 0 || !open.every((c) => c.stuck?.fixedWalls)) return undefined;
  return { ...req, makeRoom: { from: best, walled: open.map((c) => ({ net: c.net, from: c.from.pad, to: c.to.pad })) } };
}

/**
 * `req` with the nets `best` leaves open (those another try could make) routing before every net
 * but the request's first_nets: a priority above any the request gives. Routed late, such a net
 * can find its lane held by the nets before it, where the rip-up cannot always free it; routed
 * early, the others go round it.
 */
export function openFirst(req: Attempt, best: RouteResult): Attempt {
  const given = req.hints?.priority ?? {};
  const top = Math.max(0, ...Object.values(given)) + 1;
  const priority = { ...given };
  for (const c of routable(best)) priority[c.net] = top;
  return { ...req, hints: { ...req.hints, priority } };
}

/** The rounds of a call: variants 0..n−1 of `req`, then each escalationRound of what the caller
 *  has pushed onto `results` by the time it asks for the next. A round's own variants go first and
 *  the footprint variants it adds after them, only where the call is still open: where the round's
 *  own made everything, the added ones' larger budgets would buy nothing. */
export function* variantRounds(req: RouteRequest, results: readonly RouteResult[]): Generator<RoundVariant[]> {
  let next: RoundVariant[] | undefined = Array.from({ length: variantCount(req) }, (_, index) => ({ index, request: req }));
  for (let round = 1; next; round++) {
    const own = next.filter((v) => !v.request.footprintVias);
    const added = next.filter((v) => v.request.footprintVias);
    if (own.length > 0) yield own;
    if (added.length > 0 && (own.length === 0 || (results.length > 0 && stillOpen(pickBest(results))))) yield added;
    next = escalationRound(req, results, round);
  }
}

/** Whether a call's best result leaves a connection open that another try could make, and was
 *  not stopped. */
function stillOpen(best: RouteResult): boolean {
  return best.stopped !== 'cancelled' && routable(best).length > 0;
}

/** Routes every variant of every round in turn on one thread and keeps the best. */
export function routeDesign(design: Design, call: RouteRequest = {}, cache?: RouteCache): RouteResult {
  const req = variantRequest(call);
  const world = cache ?? new RouteCache();
  const results: RouteResult[] = [];
  for (const round of variantRounds(req, results))
    for (const v of round) {
      results.push(routeVariant(design, v.request, v.index, world));
      if (req.shouldStop?.()) return callResult(req, results);
    }
  return callResult(req, results);
}

/** The best of a call's results, told to its progress as the last word: the connections it keeps,
 *  those its finishing steps made (which report nothing of their own) included. */
export function callResult(req: Pick<RouteRequest, 'onProgress'>, results: readonly RouteResult[]): RouteResult {
  const best = pickBest(results);
  let work = 0;
  for (const r of results) work += r.work;
  req.onProgress?.({ made: best.summary.routed, connections: best.summary.routed + best.summary.open, work });
  return best;
}
