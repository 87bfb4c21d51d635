// The read-only tools: board_info, open_connections, inspect_pad, inspect_net and history.
// Results speak millimetres and names (REF.PIN, net and layer names as JSON strings); nothing
// here changes the state.

import { maskLayers } from '../board/layers.ts';
import type { StuckReason } from '../route/index.ts';
import { type End, type OpenConnection, padOf } from './ratsnest.ts';
import { copperLength, type SessionCopper } from './copper.ts';
import { trackLength } from '../geom/arc.ts';
import { boxOfPoints } from '../geom/box.ts';
import { diffPairOf } from '../board/diff-pairs.ts';
import { gapTolerance, pairCoupling, type PairTrack } from '../drc/pair-coupling.ts';
import { MAX_LISTED } from './limits.ts';
import { mmToNm, nmToMm } from '../geom/units.ts';
import { lengthMm } from './names.ts';
import type {
  BoardInfoResult,
  ConnectionJson,
  HistoryResult,
  InspectNetResult,
  InspectPadResult,
  OpenConnectionsResult,
  PairJson,
  RuleBounds,
} from './results.ts';
import { measureNets } from '../drc/net-length.ts';
import { withCopper } from '../board/added-copper.ts';
import type { ToolArgs } from './schemas.ts';
import type { SessionState, StateNote } from './session-state.ts';

/** The key a stuck reason is filed under: net and the two pad indices, smaller first. */
export function reasonKey(net: number, a: number, b: number): string {
  return a <= b ? `${net}|${a}|${b}` : `${net}|${b}|${a}`;
}

/** The route's reason for an open connection of a state, when a route gave one. */
export function reasonFor(note: StateNote | undefined, c: OpenConnection): StuckReason | undefined {
  if (!note || note.reasons.size === 0) return undefined;
  const pads = [padOf(c.a), padOf(c.b)];
  const exact = note.reasons.get(reasonKey(c.net, pads[0], pads[1]));
  if (exact) return exact;
  // The islands may have merged differently since; fall back to a reason on the same net and pad.
  for (const [key, r] of note.reasons) {
    const [net, a, b] = key.split('|').map(Number);
    if (net === c.net && (pads.includes(a) || pads.includes(b))) return r;
  }
  return undefined;
}

/** One open connection as the tools list it, with the route's reason when there is one. */
export function connectionJson(s: SessionState, c: OpenConnection, note: StateNote | undefined): ConnectionJson {
  const name = s.names.netName(c.net);
  const out: ConnectionJson = { net: name, a: s.names.end(c.a), b: s.names.end(c.b), length_mm: lengthMm(c.length) };
  const pair = diffPairOf(name, s.design.board.netByName);
  if (pair) out.pair = pair.partner;
  // A zone end's piece holds pads too; the nearest is what route_connection takes for that end.
  if ('zone' in c.a) out.a_pad = s.names.end({ pad: c.a.near });
  if ('zone' in c.b) out.b_pad = s.names.end({ pad: c.b.near });
  const r = reasonFor(note, c);
  if (r) {
    out.reason = r.reason;
    out.why = r.why;
    out.tried = r.tried;
    out.rips = r.rips;
    out.fails = r.fails;
    // Blockers bound the region the flood reached (the cut), most boundary first; what the
    // searches ran into is statistics, kept apart so it is not read as an enclosure.
    out.blockers = r.blockers.map((b) => ({ net: b.name, boundary_sites: b.count }));
    if (r.searchHits?.length) out.search_hits = r.searchHits.map((b) => ({ net: b.name, hits: b.count }));
    if (r.hint) out.hint = r.hint;
    if (r.fixedWalls) out.fixed_walls = true;
    if (r.at) out.at_mm = [nmToMm(r.at.x), nmToMm(r.at.y)];
    if (r.layer !== undefined) out.layer = s.names.layerName(r.layer);
  }
  return out;
}

export function currentOpen(s: SessionState, zones = true): OpenConnection[] {
  const st = s.states.current;
  return s.open(st.copper, st.digest, zones);
}

export function boardInfo(s: SessionState): BoardInfoResult {
  const { board, rules, warnings } = s.design;
  const st = s.states.current;
  const def = rules.defaultClass;
  const via = rules.via(0);
  return {
    board: s.options.boardName,
    copper_layers: board.copperLayers.map((l) => l.name),
    counts: {
      parts: board.footprints.length,
      pads: board.pads.length,
      nets: board.nets.filter((n) => n.code !== 0).length,
      board: { tracks: board.tracks.length, vias: board.vias.length },
      session: { tracks: st.copper.tracks.length, vias: st.copper.vias.length },
    },
    open_connections: currentOpen(s).length,
    state: st.id,
    work: { used: s.workUsed, left: s.workLeft, limit: s.options.workLimit ?? null },
    rules: {
      clearance_mm: nmToMm(Math.max(def.clearance, rules.minimums.clearance)),
      track_width_mm: nmToMm(Math.max(def.trackWidth, rules.minimums.trackWidth)),
      via: { diameter_mm: nmToMm(via.diameter), drill_mm: nmToMm(via.drill) },
      net_classes: rules.project.classes.map((c) => c.name),
    },
    warnings: warnings.map((w) => (w.line ? `line ${w.line}:${w.column}: ${w.message}` : w.message)),
  };
}

export function listOpen(s: SessionState, a: ToolArgs<'open_connections'>): OpenConnectionsResult {
  const net = a.net === undefined ? undefined : s.names.net('open_connections', 'net', a.net);
  const all = currentOpen(s, !a.soft_zones).filter((c) => net === undefined || c.net === net);
  const limit = Math.min(a.limit ?? MAX_LISTED, MAX_LISTED);
  const note = s.states.current.note;
  return {
    state: s.states.current.id,
    total: all.length,
    listed: Math.min(limit, all.length),
    connections: all.slice(0, limit).map((c) => connectionJson(s, c, note)),
  };
}

function endsOnPad(e: End, pad: number): boolean {
  return 'pad' in e && e.pad === pad;
}

export function inspectPad(s: SessionState, a: ToolArgs<'inspect_pad'>): InspectPadResult {
  const { board } = s.design;
  const i = s.names.pad('inspect_pad', 'pad', a.pad);
  const p = board.pads[i];
  const radius = mmToNm(a.radius_mm ?? 2);
  const st = s.states.current;
  const open = currentOpen(s).filter((c) => endsOnPad(c.a, i) || endsOnPad(c.b, i));
  const near = board.pads
    .filter((q) => q.index !== i)
    .map((q) => ({ q, d: Math.hypot(q.at.x - p.at.x, q.at.y - p.at.y) }))
    .filter((x) => x.d <= radius)
    .sort((x, y) => x.d - y.d || x.q.index - y.q.index)
    .slice(0, 40)
    .map((x) => ({ pad: s.names.padName[x.q.index], net: s.names.netName(x.q.net), distance_mm: lengthMm(x.d) }));
  // Copper whose nearest end or centre lies in the radius, grouped per net and layer.
  const rows = new Map<string, { net: number; layer: number; source: string; tracks: number; vias: number; length: number }>();
  const inR = (x: number, y: number) => Math.hypot(x - p.at.x, y - p.at.y) <= radius;
  const add = (net: number, layer: number, source: string, kind: 'track' | 'via', len: number) => {
    const key = `${net}|${layer}|${source}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { net, layer, source, tracks: 0, vias: 0, length: 0 }));
    if (kind === 'track') {
      r.tracks++;
      r.length += len;
    } else r.vias++;
  };
  const sources = [
    { source: 'board', tracks: board.tracks, vias: board.vias },
    { source: 'session', tracks: st.copper.tracks, vias: st.copper.vias },
  ];
  for (const src of sources) {
    for (const t of src.tracks) if (inR(t.start.x, t.start.y) || inR(t.end.x, t.end.y)) add(t.net, t.layer, src.source, 'track', trackLength(t));
    for (const v of src.vias) if (inR(v.at.x, v.at.y)) add(v.net, v.layerFrom, src.source, 'via', 0);
  }
  const copper = [...rows.values()]
    .sort((x, y) => x.net - y.net || x.layer - y.layer || (x.source < y.source ? -1 : x.source > y.source ? 1 : 0))
    .slice(0, 30)
    .map((r) => ({
      net: s.names.netName(r.net),
      layer: s.names.layerName(r.layer),
      source: r.source,
      tracks: r.tracks,
      vias: r.vias,
      length_mm: lengthMm(r.length),
    }));
  return {
    pad: s.names.padName[i],
    net: s.names.netName(p.net),
    position_mm: [nmToMm(p.at.x), nmToMm(p.at.y)],
    layers: maskLayers(p.layers).map((l) => s.names.layerName(l)),
    size_mm: [nmToMm(p.size.w), nmToMm(p.size.h)],
    shape: p.shape,
    type: p.type,
    ...(p.drill ? { drill_mm: nmToMm(p.drill.w) } : {}),
    open: open.map((c) => connectionJson(s, c, st.note)),
    pads_near: near,
    copper_near: copper,
  };
}

export function inspectNet(s: SessionState, a: ToolArgs<'inspect_net'>): InspectNetResult {
  const { board, rules } = s.design;
  const net = s.names.net('inspect_net', 'net', a.net);
  const st = s.states.current;
  const pads = board.pads.filter((p) => p.net === net);
  const perLayer: Record<string, number> = {};
  for (const t of st.copper.tracks) if (t.net === net) perLayer[s.names.layerName(t.layer)] = (perLayer[s.names.layerName(t.layer)] ?? 0) + trackLength(t);
  for (const k of Object.keys(perLayer)) perLayer[k] = lengthMm(perLayer[k]);
  const frame = boxOfPoints([
    ...pads.map((p) => p.at),
    ...[...board.tracks, ...st.copper.tracks].filter((t) => t.net === net).flatMap((t) => [t.start, t.end]),
  ]);
  const cls = rules.netClass(net);
  const open = currentOpen(s);
  const pair = pairJson(s, net, st.copper, open);
  const measured = measureNets({ ...s.design, board: withCopper(board, st.copper.tracks, st.copper.vias) }, [net]).get(net)!;
  const bounds = (kind: 'length' | 'skew' | 'via_count'): RuleBounds | null => {
    const hit = rules.netConstraint(kind, net, 0);
    if (!hit) return null;
    const c = hit.constraint;
    const v = (x: number | undefined) => (x === undefined ? undefined : kind === 'via_count' ? x : nmToMm(x));
    return { rule: hit.rule.name, min: v(c.min), max: v(c.max), ...(c.withinDiffPairs ? { within_diff_pairs: true } : {}) };
  };
  return {
    net: s.names.netName(net),
    class: cls.name,
    track_width_mm: nmToMm(rules.trackWidth(net, 0)),
    clearance_mm: nmToMm(Math.max(cls.clearance, rules.minimums.clearance)),
    pad_count: pads.length,
    pads: pads.slice(0, 60).map((p) => s.names.padName[p.index]),
    board: { tracks: board.tracks.filter((t) => t.net === net).length, vias: board.vias.filter((v) => v.net === net).length },
    session: {
      tracks: st.copper.tracks.filter((t) => t.net === net).length,
      vias: st.copper.vias.filter((v) => v.net === net).length,
      length_mm: lengthMm(copperLength(st.copper, net)),
      length_mm_by_layer: perLayer,
    },
    open: open
      .filter((c) => c.net === net)
      .slice(0, MAX_LISTED)
      .map((c) => connectionJson(s, c, st.note)),
    bbox_mm: frame ? [nmToMm(frame.minX), nmToMm(frame.minY), nmToMm(frame.maxX), nmToMm(frame.maxY)] : null,
    track_length_mm: lengthMm(netLength(s, net, st.copper)),
    kicad_length_mm: lengthMm(measured.total),
    vias_counted: measured.vias,
    length_rules: { length: bounds('length'), skew: bounds('skew'), via_count: bounds('via_count') },
    pair,
  };
}

/** A net's tracks on the board and in `copper`: what KiCad measures once they are written. */
function netTracks(s: SessionState, net: number, copper: SessionCopper): PairTrack[] {
  return [...s.design.board.tracks.filter((t) => t.net === net), ...copper.tracks.filter((t) => t.net === net)];
}

export function netLength(s: SessionState, net: number, copper: SessionCopper): number {
  return netTracks(s, net, copper).reduce((sum, t) => sum + trackLength(t), 0);
}

/** The pair `net` is one of, seen from it, with `copper` as the session's; null when none. */
export function pairJson(s: SessionState, net: number, copper: SessionCopper, open: readonly OpenConnection[]): PairJson | null {
  const { board, rules } = s.design;
  const pair = diffPairOf(board.nets[net].name, board.netByName);
  if (!pair) return null;
  const partner = board.netByName.get(pair.partner)!;
  const [plus, minus] = pair.polarity === '+' ? [net, partner] : [partner, net];
  // One gap for the pair whichever net is asked about: the + net's class's, as the benchmark takes it.
  const classGap = rules.netClass(plus).diffPairGap;
  const c = pairCoupling(netTracks(s, plus, copper), netTracks(s, minus, copper), gapTolerance(classGap));
  const gaps = c.stretches.map((x) => x.gap);
  return {
    base: pair.base,
    polarity: pair.polarity,
    partner: pair.partner,
    partner_track_length_mm: lengthMm(plus === partner ? c.lengthP : c.lengthN),
    length_difference_mm: lengthMm(Math.abs(c.lengthP - c.lengthN)),
    partner_open: open.filter((o) => o.net === partner).length,
    coupling: {
      class_gap_mm: nmToMm(classGap),
      coupled_mm: lengthMm(c.coupled),
      uncoupled_mm: lengthMm(c.uncoupled),
      coupled_fraction: +c.share.toFixed(3),
      gap_range_mm: gaps.length ? [lengthMm(Math.min(...gaps)), lengthMm(Math.max(...gaps))] : null,
    },
  };
}

/**
 * The kept states (what each holds) and the moves between them (which call went from which
 * state to which: changes, undos, restores), oldest first. `moves_made` counts dropped moves too.
 */
export function history(s: SessionState): HistoryResult {
  const input = s.states.get(0)!;
  const openInput = input.note?.open ?? s.open(input.copper, input.digest, true).length;
  return {
    current: s.states.current.id,
    states: s.states.list().map((st) => ({
      id: st.id,
      parent: st.parent,
      call: st.call,
      routed: openInput - (st.note?.open ?? openInput),
      vias: st.copper.vias.length,
      length_mm: lengthMm(copperLength(st.copper)),
    })),
    moves: s.states.moves().map((m) => ({ n: m.n, tool: m.tool, args: m.args, from: m.from, to: m.to })),
    moves_made: s.states.movesMade,
  };
}
