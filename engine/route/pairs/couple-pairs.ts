// Differential pairs routed as pairs: once a variant has routed both nets of a pair, the pair is
// routed again together — each stretch one centre line at the pair's width and gap, split into the
// two tracks and via pairs (pair-stretch.ts), the pads joined to them by the router, stubs cut —
// and kept where it runs coupled over at least half its length and the DRC finds nothing against
// it. A pair that cannot be coupled keeps its two single tracks and says why.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import type { Design } from '../../board/design.ts';
import { pairsAmong } from '../../board/diff-pairs.ts';
import { checkAdded } from '../../drc/drc.ts';
import { COUPLED_SHARE, gapTolerance, pairCoupling } from '../../drc/pair-coupling.ts';
import type { RouterHost } from '../core/host.ts';
import { boxOfPoints, inflateBox, type Box } from '../../geom/index.ts';
import { joinsAll, pruneDangling } from '../finish/dangling.ts';
import type { PairBody, PairGeometry } from './pair-body.ts';
import type { NewCopper } from '../zones/plane-cut.ts';
import { BUDGET_SPENT, coupleStretch, dist, LINE_WORK, MAX_ENDS_APART, merged, pin, stretchesOf } from './pair-stretch.ts';
import { mmText } from '../../geom/units.ts';
import { routeOptions, type PairOutcome, type Attempt, type RouteResult } from '../types.ts';
import { settledLater } from './later-findings.ts';
import { regrouped } from '../finish/leave-open.ts';

/** The least coupled share a pair routed together must reach to replace its single tracks. */
const MIN_SHARE = 0.5;
/** Work the router may take to join a pair's pads to its coupled tracks. */
const JOIN_WORK = 4_000_000;
/** How far round the pair's pads and coupled tracks its joins may wander (nm). */
const JOIN_MARGIN = 3_000_000;

/** What coupling asks of the variant it runs in: its route without coupling (for the pads'
 *  joins), and its router's host with extra fixed copper (from the board's parts it keeps). */
export interface PairWorld {
  join: (req: Attempt) => RouteResult;
  host: (extra: { tracks: readonly NewTrack[]; vias: readonly NewVia[] }) => RouterHost;
  /** The zone nets whose planes, refilled, `after` cuts where `before` did not (plane-cut.ts). */
  planesCut: (before: NewCopper, after: NewCopper) => number[];
}

/** The pairs (+ net, - net) both of whose nets `result` routed copper for, by + net. */
export function routedPairs(design: Design, result: RouteResult): [number, number][] {
  return pairsAmong(design.board, new Set(result.nets.filter((n) => n.tracks.length > 0 || n.vias.length > 0).map((n) => n.net)));
}

/** Work coupling one pair of one stretch may take: its centre line and its pads' joins. */
export const PAIR_WORK = LINE_WORK + JOIN_WORK;

/**
 * `result` with each pair it routed (both nets complete) routed again as a coupled pair — each
 * stretch where the two nets' pads lie side by side at both ends — where that fits and the DRC
 * allows it; `base` is the board the result's copper is judged on (the session's copper as board
 * copper), `design` the one the router routes on.
 */
export function couplePairs(design: Design, base: Design, req: Attempt, result: RouteResult, world: PairWorld): RouteResult {
  if (req.connection) return result;
  const pairs = routedPairs(design, result);
  if (pairs.length === 0) return result;
  let out = result;
  const outcomes: PairOutcome[] = [];
  for (const [plus, minus] of pairs) {
    const tried = couplePair(design, base, req, out, plus, minus, world);
    outcomes.push(tried.outcome);
    out = tried.result;
  }
  return { ...out, pairs: outcomes };
}

/** One pair's coupling: the call it runs in, the world without the pair's copper, and the work
 *  its steps have spent so far (each takes at most what the route's budget has left). */
interface Coupling {
  design: Design;
  base: Design;
  req: Attempt;
  result: RouteResult;
  plus: number;
  minus: number;
  world: PairWorld;
  host: RouterHost;
  /** The session's copper, fixed. */
  session: { tracks: NewTrack[]; vias: NewVia[] };
  /** Every other net's new copper. */
  others: { tracks: NewTrack[]; vias: NewVia[] };
  work: number;
}

/** Work the route's budget has left for this pair's next step. */
const left = (k: Coupling) => k.result.budget - k.result.work - k.work;

function couplePair(
  design: Design,
  base: Design,
  req: Attempt,
  result: RouteResult,
  plus: number,
  minus: number,
  world: PairWorld,
): { result: RouteResult; outcome: PairOutcome } {
  const rules = design.rules;
  const pairOf = (tracks: readonly NewTrack[]) => ({ p: tracks.filter((t) => t.net === plus), n: tracks.filter((t) => t.net === minus) });
  const cls = rules.netClass(plus);
  const first = pairOf(result.tracks);
  const gapRange = gapTolerance(cls.diffPairGap);
  const before = pairCoupling(first.p, first.n, gapRange).share;
  const keep = (why: string) => ({ result, outcome: { plus, minus, coupled: false, share: before, why } });
  if (result.connections.some((c) => (c.net === plus || c.net === minus) && !c.routed)) return keep('one of the two nets is not routed');

  // The world without the pair's copper: the session's and every other net's new copper fixed.
  const sessionTracks = (req.session?.tracks ?? []).map((t) => ({ ...t, rippable: false }));
  const sessionVias = (req.session?.vias ?? []).map((v) => ({ ...v, rippable: false }));
  const others = { tracks: result.tracks.filter((t) => t.net !== plus && t.net !== minus), vias: result.vias.filter((v) => v.net !== plus && v.net !== minus) };
  const host = merged(world.host({ tracks: [...sessionTracks, ...others.tracks], vias: [...sessionVias, ...others.vias] }), minus, plus);
  const stretches = stretchesOf(host, result.connections, plus, minus);
  if (stretches.length === 0)
    return keep(
      `no connection of ${name(design, plus)} has ${name(design, minus)}'s pads within ${mmText(MAX_ENDS_APART, 3)} of both its ends: the two nets do not run side by side`,
    );
  if (result.budget - result.work < LINE_WORK + JOIN_WORK) return keep(BUDGET_SPENT);

  const { geom, clearance } = pairGeometry(design, host, plus, minus);
  const k: Coupling = { design, base, req, result, plus, minus, world, host, session: { tracks: sessionTracks, vias: sessionVias }, others, work: 0 };
  // Each stretch's coupled tracks, the better way round first; where its pads lie in opposite
  // order at its two ends, both ways (the router may cross the fans at one end, on another layer).
  const made: { bodies: PairBody[]; crossed?: string }[] = [];
  const failed: string[] = [];
  for (const st of stretches) {
    const got = coupleStretch(host, st, geom, clearance, plus, minus, routeOptions(req.options), left(k));
    k.work += got.work;
    if (typeof got.bodies === 'string') failed.push(`${pin(st.pa)}–${pin(st.pb)}: ${got.bodies}`);
    else made.push({ bodies: got.bodies, ...(got.crossed ? { crossed: got.crossed } : {}) });
  }
  const spent = (r: RouteResult) => ({ ...r, work: r.work + k.work });
  const refuse = (why: string) => ({ result: spent(result), outcome: { plus, minus, coupled: false, share: before, why } });
  if (made.length === 0) return refuse(failed.join('; '));
  const choice = made.map(() => 0);
  let laid = attempt(k, made, choice);
  // A stretch whose pads lie in opposite order is tried the other way round as well.
  const crossing = made.findIndex((m) => m.bodies.length > 1);
  if (typeof laid === 'string' && crossing >= 0 && left(k) >= JOIN_WORK) {
    choice[crossing] = 1;
    const other = attempt(k, made, choice);
    laid = typeof other === 'string' ? made[crossing].crossed! : other;
  }
  if (typeof laid === 'string') return refuse(laid);
  const { tracks, vias } = laid;
  const now = pairOf(tracks);
  const c = pairCoupling(now.p, now.n, gapRange);
  const fans = fanNote(stretches, c.uncoupled);
  if (c.share < MIN_SHARE || c.share <= before)
    return refuse(`routed together it ran coupled over only ${Math.round(100 * c.share)} % of its length (${fans}), so its single tracks were kept`);
  const notes = [...(c.share < COUPLED_SHARE ? [fans] : []), ...(failed.length > 0 ? [`not coupled: ${failed.join('; ')}`] : [])];
  return {
    result: spent(regrouped(result, tracks, vias)),
    outcome: { plus, minus, coupled: true, share: c.share, ...(notes.length > 0 ? { why: notes.join('; ') } : {}) },
  };
}

/** Short of full coupling, where the rest lies: the fans out to pads that lie apart, over
 *  `uncoupled` nm of the longer net. */
function fanNote(stretches: ReturnType<typeof stretchesOf>, uncoupled: number): string {
  const apart = stretches
    .flatMap((st) => [
      [st.pa, st.na],
      [st.pb, st.nb],
    ])
    .map(([p, n]) => `${mmText(dist(p.at, n.at), 3)} at ${pin(p)} / ${pin(n)}`);
  return `its pads lie ${[...new Set(apart)].join(', ')}, and the tracks fan out to them over ${mmText(uncoupled, 3)} of the longer net`;
}

/** The pair's copper with each stretch's body `choice`, the pads joined to it, or why not. */
function attempt(k: Coupling, made: { bodies: PairBody[] }[], choice: number[]): { tracks: NewTrack[]; vias: NewVia[] } | string {
  const { design, base, req, result, plus, minus, world, others } = k;
  const bodies = made.map((m, i) => m.bodies[choice[i]]);
  const bodyTracks = bodies.flatMap((b) => [...b.left.tracks, ...b.right.tracks]);
  const bodyVias = bodies.flatMap((b) => [...b.left.vias, ...b.right.vias]);
  const joinWork = Math.min(JOIN_WORK, left(k));
  if (joinWork <= 0) return BUDGET_SPENT;
  const joined = world.join({
    ...req,
    nets: [plus, minus],
    window: joinWindow(design, plus, minus, bodyTracks),
    work: joinWork,
    variants: 1,
    // The call's progress is the whole route's, not this join's.
    onProgress: undefined,
    session: { tracks: [...k.session.tracks, ...others.tracks, ...bodyTracks], vias: [...k.session.vias, ...others.vias, ...bodyVias] },
  });
  k.work += joined.work;
  if (joined.open.length > 0)
    return joined.stopped === 'budget' && joinWork < JOIN_WORK ? BUDGET_SPENT : "the router could not join the pair's pads to its coupled tracks";
  const mine = (n: number) => n === plus || n === minus;
  const padsOf = (net: number, only?: Set<number>) =>
    design.board.pads
      .filter((p) => p.net === net && (!only || only.has(p.index)))
      .map((p) => ({ shape: k.host.pads.find((q) => q.index === p.index)!.shape, layers: p.layers }));
  // Where the router joined a pad to a track short of its end, the end beyond is a stub: cut.
  const pairTracks = [...bodyTracks, ...joined.tracks.filter((t) => mine(t.net))];
  const pairVias = [...bodyVias, ...joined.vias.filter((v) => mine(v.net))];
  const pruned = [plus, minus].flatMap((net) =>
    pruneDangling(
      pairTracks.filter((t) => t.net === net),
      pairVias.filter((v) => v.net === net),
      padsOf(net),
    ),
  );
  // Every pad the first route joined is joined still, by the new copper and the board's (the
  // session's included).
  for (const net of [plus, minus]) {
    const ends = new Set(result.connections.filter((c) => c.net === net).flatMap((c) => [c.from.pad, c.to.pad]));
    const fixed = { tracks: base.board.tracks.filter((t) => t.net === net), vias: base.board.vias.filter((v) => v.net === net) };
    if (!joinsAll([...pruned.filter((t) => t.net === net), ...fixed.tracks], [...pairVias.filter((v) => v.net === net), ...fixed.vias], padsOf(net, ends)))
      return "its coupled tracks and the joins to its pads do not join all of the net's pads";
  }
  const tracks = [...others.tracks, ...pruned];
  const vias = [...others.vias, ...pairVias];
  const wrong = pairFinding(base, req, tracks, vias, [plus, minus]);
  if (wrong) return `the coupled route breaks a rule: ${wrong}`;
  // The router judged its single tracks against the planes KiCad refills; the pair's own
  // copper is judged the same way, or a pad its plane fed could be left cut off.
  const cut = routeOptions(req.options).softZones ? world.planesCut(result, { tracks, vias }) : [];
  if (cut.length > 0) return `laid as a pair it would cut the plane of ${cut.map((n) => name(design, n)).join(', ')} in two once KiCad refills it`;
  return { tracks, vias };
}

/** The pair's geometry as its class sets it — its width never below what the rules allow either
 *  net — and the clearance its tracks keep. */
export function pairGeometry(design: Design, host: RouterHost, plus: number, minus: number): { geom: PairGeometry; clearance: number } {
  const cls = design.rules.netClass(plus);
  let width = cls.diffPairWidth > 0 ? cls.diffPairWidth : cls.trackWidth;
  for (let l = 0; l < host.layerCount; l++) width = Math.max(width, host.rules.minTrackWidth(plus, l), host.rules.minTrackWidth(minus, l));
  const via = host.rules.via(plus);
  return {
    geom: { width, gap: cls.diffPairGap, viaDiameter: via.diameter, viaDrill: via.drill, viaGap: cls.diffPairViaGap },
    clearance: Math.max(host.rules.clearance(plus, 0, 0), host.rules.clearance(minus, 0, 0)),
  };
}

/** The box the joins are searched in: the pair's pads and its coupled tracks, JOIN_MARGIN round
 *  them, so a join pays for the pair's region and not for the whole board. */
function joinWindow(design: Design, plus: number, minus: number, body: readonly NewTrack[]): Box {
  const pads = design.board.pads.filter((p) => p.net === plus || p.net === minus).map((p) => p.at);
  // The pair's pads are routed, so the box holds at least them.
  return inflateBox(boxOfPoints([...pads, ...body.flatMap((t) => [t.start, t.end])])!, JOIN_MARGIN);
}

const name = (design: Design, n: number) => design.board.nets[n]?.name ?? String(n);

/** The description of the first error the DRC finds on the pair's new copper, other than a net
 *  too short for its length or skew rule (tuned after), a pair rule's (settled after) or a
 *  finding against a fill KiCad refills. */
function pairFinding(base: Design, req: Attempt, tracks: NewTrack[], vias: NewVia[], nets: number[]): string | undefined {
  const soft = routeOptions(req.options).softZones;
  const t0 = base.board.tracks.length;
  const v0 = base.board.vias.length;
  const mine = (it: { kind: string; index: number }) =>
    (it.kind === 'track' && it.index >= t0 && nets.includes(tracks[it.index - t0].net)) ||
    (it.kind === 'via' && it.index >= v0 && nets.includes(vias[it.index - v0].net));
  return checkAdded(base, tracks, vias).violations.find((v) => v.severity === 'error' && !settledLater(v, soft) && v.items.some(mine))?.description;
}

/**
 * `result` with the pairs `undo` laid as `original` laid them (their single tracks), each saying
 * `why`: where a coupled pair cannot be brought to its length rules, its single tracks may be.
 */
export function uncouple(result: RouteResult, original: RouteResult, undo: readonly PairOutcome[], why: string): RouteResult {
  const nets = undo.flatMap((p) => [p.plus, p.minus]);
  const tracks = [...result.tracks.filter((t) => !nets.includes(t.net)), ...original.tracks.filter((t) => nets.includes(t.net))];
  const vias = [...result.vias.filter((v) => !nets.includes(v.net)), ...original.vias.filter((v) => nets.includes(v.net))];
  const pairs = (result.pairs ?? []).map((p) => (undo.some((u) => u.plus === p.plus) ? { ...p, coupled: false, share: 0, why } : p));
  return { ...regrouped(result, tracks, vias), pairs };
}
