// The tools that move between states: route (a transaction kept or dropped by verify and
// commit, transaction.ts), rip_net, undo and restore. A kept change is a new state whose parent is the
// current one; nothing here ever touches the board's own copper.

import { type RouteHints, type RouteRequest, type RouteResult, type StuckReason, routeOptions } from '../route/index.ts';
import { type SessionCopper, appendCopper, copperDigest, copperLength, withoutNet } from './copper.ts';
import { ToolError } from './errors.ts';
import { mmToNm } from '../geom/units.ts';
import { lengthMm } from './names.ts';
import { toRouteOptions } from './route-options.ts';
import type { RipNetResult, RouteCallResult, RouteDoneResult, StateMoveResult } from './results.ts';
import type { ToolArgs } from './schemas.ts';
import type { CallContext, SessionState, StateNote } from './session-state.ts';
import { settle } from './transaction.ts';
import { connectionJson, currentOpen, netLength, pairJson, reasonKey } from './tools-look.ts';
import { diffPairOf, pairsAmong } from '../board/diff-pairs.ts';
import { COUPLED_SHARE } from '../drc/pair-coupling.ts';
import { MAX_LISTED } from './limits.ts';
import { routeEstimate, setupNote } from './route-estimate.ts';

function toHints(s: SessionState, h: ToolArgs<'route'>['hints']): RouteHints | undefined {
  if (!h) return undefined;
  const net = (n: string, key: string) => s.names.net('route', key, n);
  const out: RouteHints = {};
  if (h.first_nets) out.firstNets = h.first_nets.map((n) => net(n, 'hints.first_nets'));
  if (h.priority) {
    out.priority = {};
    for (const k of Object.keys(h.priority).sort()) out.priority[net(k, 'hints.priority')] = h.priority[k];
  }
  if (h.layers) {
    out.layers = h.layers.map((l) => ({
      ...(l.net !== undefined ? { net: net(l.net, 'hints.layers.net') } : {}),
      layer: s.names.layer('route', 'hints.layers.layer', l.layer),
      cost: l.cost,
    }));
  }
  if (h.regions) {
    out.regions = h.regions.map((r) => ({
      minX: mmToNm(Math.min(r.box_mm[0], r.box_mm[2])),
      minY: mmToNm(Math.min(r.box_mm[1], r.box_mm[3])),
      maxX: mmToNm(Math.max(r.box_mm[0], r.box_mm[2])),
      maxY: mmToNm(Math.max(r.box_mm[1], r.box_mm[3])),
      mode: r.mode,
      ...(r.layers ? { layers: r.layers.map((l) => s.names.layer('route', 'hints.regions.layers', l)) } : {}),
      ...(r.nets ? { nets: r.nets.map((n) => net(n, 'hints.regions.nets')) } : {}),
    }));
  }
  return out;
}

/** The state's copper minus what the router ripped, plus what it added, in that order. */
function afterRoute(copper: SessionCopper, r: RouteResult): SessionCopper {
  const rt = new Set(r.ripped.tracks);
  const rv = new Set(r.ripped.vias);
  const kept: SessionCopper =
    rt.size || rv.size ? { tracks: copper.tracks.filter((_, i) => !rt.has(i)), vias: copper.vias.filter((_, i) => !rv.has(i)) } : copper;
  return appendCopper(kept, { tracks: r.tracks, vias: r.vias });
}

/** `cx` carries the caller's progress and stop callbacks to the router; they never reach the log. */
export async function route(s: SessionState, a: ToolArgs<'route'>, cx: CallContext = {}): Promise<RouteCallResult> {
  const left = s.workLeft;
  if (left !== null && left <= 0) throw new ToolError('limit', 'route: the session work limit is spent');
  const nets = a.nets ? [...new Set(a.nets.map((n) => s.names.net('route', 'nets', n)))] : undefined;
  const netSet = nets ? new Set(nets) : undefined;
  const st = s.states.current;
  const variants = a.variants;
  const count = variants ?? s.ports.defaultVariants(nets === undefined);
  // `work` bounds the whole call, its variants together; within a session limit, at most what is left.
  let work = a.work;
  if (left !== null) work = Math.min(work ?? count * s.ports.defaultWork, left);
  if (a.estimate) {
    const open = currentOpen(s).filter((c) => !netSet || netSet.has(c.net));
    return routeEstimate(s, { work, variants: count, connections: open.length, pairs: pairsAmong(s.design.board, new Set(open.map((c) => c.net))).length });
  }
  const request = routeRequest(s, a, cx, nets, work);
  const before = currentOpen(s).filter((c) => !netSet || netSet.has(c.net));
  const result = await s.ports.route(s.design, request);
  s.workUsed += result.work;
  const copper = afterRoute(st.copper, result);
  const digest = copperDigest(copper);
  const openAll = s.open(copper, digest, true);
  const after = openAll.filter((c) => !netSet || netSet.has(c.net));

  const note: StateNote = { open: openAll.length, reasons: keptReasons(st.note, netSet, result), ...(st.note?.reserved ? { reserved: st.note.reserved } : {}) };
  s.lastRoute = { result, committed: false, state: st.id, ...(nets ? { nets } : {}), copper, digest, note };
  const newCopper = { tracks: result.tracks, vias: result.vias };
  // KiCad refills other nets' zones around new copper: with soft zones (the router's default)
  // findings against the fill as the file has it are left to that refill, as the router's gate does.
  const v = settle(s, { tool: 'route', args: a }, copper, newCopper, {
    verify: a.verify,
    commit: a.commit,
    mustGain: true,
    note,
    softZones: routeOptions(request.options).softZones,
  });
  if (v.committed) {
    s.lastRoute.committed = true;
    s.lastRoute.state = v.state;
  }
  const byNet = countsByNet(result);
  const { pairs, pairNotes } = pairReport(s, result, byNet, copper, openAll);
  return {
    committed: v.committed,
    ...(v.reason ? { reason: v.reason } : {}),
    state: v.state,
    connections: before.length,
    routed: Math.max(0, before.length - after.length),
    open_after: after.length,
    open_total: openAll.length,
    nets: [...byNet.keys()]
      .sort((x, y) => x - y)
      .map((n) => ({ net: s.names.netName(n), tracks: byNet.get(n)!.tracks, vias: byNet.get(n)!.vias, length_mm: lengthMm(copperLength(newCopper, n)) })),
    pairs,
    pair_notes: pairNotes,
    ripped: { tracks: result.ripped.tracks.length, vias: result.ripped.vias.length },
    added_errors: v.added_errors,
    breaks_reservations: v.breaks_reservations,
    open: after.slice(0, MAX_LISTED).map((c) => connectionJson(s, c, note)),
    work: { used: result.work, bound: result.budget, setup: result.setup, total_used: s.workUsed, left: s.workLeft },
    ...(result.work === 0 && result.setup > result.budget ? { note: setupNote(result.budget, result.setup, count) } : {}),
  };
}

/** The router's request for a route call: the caller's nets, work, seed, variants, hints and
 *  options, the state's reservations, and its copper, that of the named nets rippable. */
function routeRequest(s: SessionState, a: ToolArgs<'route'>, cx: CallContext, nets: number[] | undefined, work: number | undefined): RouteRequest {
  const left = s.workLeft;
  const st = s.states.current;
  const request: RouteRequest = {
    ...(nets ? { nets } : {}),
    // Without work of its own, a call within a session limit routes as it would without one,
    // the limit only capping it.
    ...(a.work !== undefined ? { work } : left !== null ? { workCap: left } : {}),
    ...(a.seed !== undefined ? { seed: a.seed } : {}),
    ...(a.variants !== undefined ? { variants: a.variants } : {}),
    ...(a.hints ? { hints: toHints(s, a.hints) } : {}),
    ...(a.options ? { options: toRouteOptions(a.options) } : {}),
    ...(st.note?.reserved?.length ? { reserved: [...st.note.reserved] } : {}),
    ...(cx.onProgress ? { onProgress: cx.onProgress } : {}),
    ...(cx.shouldStop ? { shouldStop: cx.shouldStop } : {}),
  };
  if (st.copper.tracks.length || st.copper.vias.length) {
    // Session copper of the named nets may be ripped and redone; everything else stays put.
    const netSet = nets ? new Set(nets) : undefined;
    const rip = (net: number) => netSet !== undefined && netSet.has(net);
    request.session = {
      tracks: st.copper.tracks.map((t) => ({ ...t, rippable: rip(t.net) })),
      vias: st.copper.vias.map((v) => ({ ...v, rippable: rip(v.net) })),
    };
  }
  return request;
}

/** The stuck reasons the new state keeps: the earlier state's for nets the call did not name
 *  (none where it named none), and the call's own for what it left open. */
function keptReasons(earlier: StateNote | undefined, netSet: Set<number> | undefined, result: RouteResult): Map<string, StuckReason> {
  const reasons = new Map<string, StuckReason>();
  for (const [k, r] of earlier?.reasons ?? []) if (!netSet || !netSet.has(Number(k.split('|')[0]))) reasons.set(k, r);
  if (!netSet) reasons.clear();
  for (const c of result.open) if (c.stuck) reasons.set(reasonKey(c.net, c.from.pad, c.to.pad), c.stuck);
  return reasons;
}

/** Tracks and vias the call added, per net. */
function countsByNet(result: RouteResult): Map<number, { tracks: number; vias: number; length: number }> {
  const byNet = new Map<number, { tracks: number; vias: number; length: number }>();
  for (const t of result.tracks) {
    const e = byNet.get(t.net) ?? { tracks: 0, vias: 0, length: 0 };
    e.tracks++;
    byNet.set(t.net, e);
  }
  for (const via of result.vias) {
    const e = byNet.get(via.net) ?? { tracks: 0, vias: 0, length: 0 };
    e.vias++;
    byNet.set(via.net, e);
  }
  return byNet;
}

/** The pairs the call touched, each once, seen from its + net on the copper it leaves, and how
 *  each was laid: coupled, or why not. */
function pairReport(
  s: SessionState,
  result: RouteResult,
  byNet: Map<number, unknown>,
  copper: SessionCopper,
  openAll: ReturnType<typeof currentOpen>,
): { pairs: RouteDoneResult['pairs']; pairNotes: string[] } {
  // The pairs the call touched, each once, seen from its + net, on the copper it leaves.
  const plusNets = new Set<number>();
  for (const n of [...byNet.keys()].sort((x, y) => x - y)) {
    const p = diffPairOf(s.names.netName(n), s.design.board.netByName);
    if (p) plusNets.add(p.polarity === '+' ? n : s.design.board.netByName.get(p.partner)!);
  }
  const pairs = [...plusNets].map((n) => ({
    net: s.names.netName(n),
    track_length_mm: lengthMm(netLength(s, n, copper)),
    ...pairJson(s, n, copper, openAll)!,
  }));
  // How each pair was laid is said, not left for the user to find: coupled, or why not.
  const outcome = new Map((result.pairs ?? []).map((p) => [s.names.netName(p.plus), p]));
  const pairNotes = pairs.flatMap((p) => {
    const o = outcome.get(p.net);
    const pct = Math.round(100 * p.coupling.coupled_fraction);
    const lengths = `lengths ${p.track_length_mm} and ${p.partner_track_length_mm} mm`;
    if (o?.coupled)
      return p.coupling.coupled_fraction < COUPLED_SHARE || o.why
        ? [
            `${p.net} and ${p.partner} are routed as a coupled pair over ${pct} % of their length at the ${p.coupling.class_gap_mm} mm pair gap (${lengths})${o.why ? `; ${o.why}` : ''}.`,
          ]
        : [];
    if (p.coupling.coupled_fraction >= COUPLED_SHARE) return [];
    return [
      `${p.net} and ${p.partner} are routed as two single tracks, not as a coupled pair (${pct} % at the ${p.coupling.class_gap_mm} mm pair gap; ${lengths})${o?.why ? `: ${o.why}` : ''}.`,
    ];
  });
  return { pairs, pairNotes };
}

export function ripNet(s: SessionState, a: ToolArgs<'rip_net'>): RipNetResult {
  const net = s.names.net('rip_net', 'net', a.net);
  const st = s.states.current;
  const copper = withoutNet(st.copper, net);
  const removed = { tracks: st.copper.tracks.length - copper.tracks.length, vias: st.copper.vias.length - copper.vias.length };
  if (removed.tracks === 0 && removed.vias === 0)
    throw new ToolError('not_allowed', "rip_net: that net has no session copper (the board's own copper is never removed)");
  const reasons = new Map([...(st.note?.reasons ?? [])].filter(([k]) => Number(k.split('|')[0]) !== net));
  const open = s.open(copper, copperDigest(copper), true).length;
  const next = s.states.push({ tool: 'rip_net', args: a }, copper, { open, reasons, ...(st.note?.reserved ? { reserved: st.note.reserved } : {}) });
  return { state: next.id, removed, open_total: open };
}

export function undo(s: SessionState): StateMoveResult {
  const st = s.states.undo();
  return { state: st.id, open_total: currentOpen(s).length };
}

export function restore(s: SessionState, a: ToolArgs<'restore'>): StateMoveResult {
  const st = s.states.restore(a.state);
  return { state: st.id, open_total: currentOpen(s).length };
}
