// The tools that judge and write: check (DRC and unconnected items, and what the session added
// to the input board), stuck_report (why the last route left connections open) and save (the
// board text with the session copper, handed to the port that owns the output file).

import { ToolError } from './errors.ts';
import type { End } from './ratsnest.ts';
import type { CheckResult, PointMm, SaveResult, StuckReportResult } from './results.ts';
import type { ToolArgs } from './schemas.ts';
import type { DrcSummary, SessionState } from './session-state.ts';
import { addedErrors } from './transaction.ts';
import { nmToMm } from '../geom/units.ts';
import { reasonFor } from './tools-look.ts';

/** The reason code of an open connection the router gave no reason for. */
const NO_REASON = 'no_reason';

const NO_REFILL = 'refill is not available: KiCad refills zones when the board is opened or checked; fills are checked as the file has them';

function drcOf(s: SessionState, tool: string): { now: DrcSummary; input: DrcSummary } {
  if (!s.ports.drc) throw new ToolError('failed', `${tool}: no design-rule check is available in this build`);
  const st = s.states.current;
  const input = s.inputDrc()!;
  const now = st.copper.tracks.length + st.copper.vias.length === 0 ? input : s.ports.drc(s.design, st.copper, { full: true });
  return { now, input };
}

function byType(d: DrcSummary): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of [...d.errors.keys()].sort()) out[t] = d.errors.get(t)!.length;
  return out;
}

export function check(s: SessionState, a: ToolArgs<'check'>): CheckResult {
  if (a.refill) throw new ToolError('not_allowed', `check: ${NO_REFILL}`);
  const { now, input } = drcOf(s, 'check');
  const added = addedErrors(input, now);
  return {
    state: s.states.current.id,
    unconnected: now.unconnected,
    errors_by_type: byType(now),
    ...(a.full ? { input: { unconnected: input.unconnected, errors_by_type: byType(input) } } : {}),
    added: { unconnected: now.unconnected - input.unconnected, errors: added },
  };
}

export function save(s: SessionState, a: ToolArgs<'save'>): SaveResult {
  if (a.refill) throw new ToolError('not_allowed', `save: ${NO_REFILL}`);
  const st = s.states.current;
  const wrote = s.ports.save(s.ports.write(s.design, st.copper));
  let added: string[] | null = null;
  if (s.ports.drc) {
    const { now, input } = drcOf(s, 'save');
    added = addedErrors(input, now).map((e) => e.type);
  }
  return {
    saved: true,
    state: st.id,
    counts: { tracks: st.copper.tracks.length, vias: st.copper.vias.length },
    drc_types_added: added,
    rules_written: wrote?.rulesWritten ?? [],
  };
}

/** Stable stand-ins for names when the caller asks for a redacted report. */
class Redactor {
  readonly #map = new Map<string, string>();
  constructor(
    readonly on: boolean,
    readonly prefix: string,
  ) {}
  name(real: string): string {
    if (!this.on) return real;
    let r = this.#map.get(real);
    if (!r) this.#map.set(real, (r = `${this.prefix}${this.#map.size + 1}`));
    return r;
  }
}

/**
 * Why the last route left connections open, over the one set every tool counts: the open
 * connections of the copper that route left (Session.open, zones connecting; the state it made
 * when kept), each with the router's reason keyed onto it. The router counts a net's pieces its
 * own way (a refilled plane may join what the file's fills do not), so a connection of the set
 * may have no reason from it: such a connection says so.
 */
export function stuckReport(s: SessionState, a: ToolArgs<'stuck_report'>): StuckReportResult {
  const last = s.lastRoute;
  if (!last) throw new ToolError('not_allowed', 'stuck_report: no route has run in this session yet');
  const { board } = s.design;
  const nets = new Redactor(a.redact ?? false, 'net');
  const parts = new Redactor(a.redact ?? false, 'part');
  const routed = last.nets ? new Set(last.nets) : undefined;
  const open = s.open(last.copper, last.digest, true);
  const reasons: Record<string, number> = {};
  const crowd = new Map<string, number>();
  const atParts = new Map<string, number>();
  const refOf = (e: End) => ('pad' in e ? board.footprints[board.pads[e.pad].footprint]?.reference : undefined);
  const rows = open.map((c) => {
    const r = reasonFor(last.note, c);
    const code = r?.reason ?? NO_REASON;
    reasons[code] = (reasons[code] ?? 0) + 1;
    for (const b of r?.blockers ?? []) crowd.set(b.name, (crowd.get(b.name) ?? 0) + b.count);
    for (const e of [c.a, c.b]) {
      const ref = refOf(e);
      if (ref !== undefined) atParts.set(ref, (atParts.get(ref) ?? 0) + 1);
    }
    return { c, r };
  });
  const sorted = <T>(m: Map<string, number>, f: (k: string, n: number) => T) =>
    [...m].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)).map(([k, n]) => f(k, n));
  const fp = new Map(board.footprints.map((f) => [f.reference, f]));
  const end = (e: End) => ('pad' in e ? `${parts.name(refOf(e) ?? '')}.${board.pads[e.pad].number}` : 'zone');
  const unexplained = (net: number) =>
    routed && !routed.has(net)
      ? 'Its net was not among the nets this route was asked to make, and no earlier route gave a reason.'
      : "The router gave no reason: it counted this connection as made or as part of another (its count of the net's pieces differs, e.g. where a zone's plane, refilled around the new copper, joins what the file's fills do not).";
  return {
    committed: last.committed,
    state: last.state,
    open: open.length,
    stopped: last.result.stopped,
    reasons,
    crowding: sorted(crowd, (k, n) => ({ net: nets.name(k), hits: n })).slice(0, 20),
    parts: sorted(atParts, (k, n) => {
      const f = fp.get(k);
      return { ref: parts.name(k), open_ends: n, ...(f ? { at_mm: [nmToMm(f.at.x), nmToMm(f.at.y)] satisfies PointMm, pads: f.pads.length } : {}) };
    }).slice(0, 20),
    connections: rows.slice(0, 64).map(({ c, r }) => ({
      net: nets.name(s.names.netName(c.net)),
      a: end(c.a),
      b: end(c.b),
      reason: r?.reason ?? NO_REASON,
      why: a.redact ? undefined : (r?.why ?? unexplained(c.net)),
      blockers: (r?.blockers ?? []).map((b) => nets.name(b.name)),
    })),
  };
}
