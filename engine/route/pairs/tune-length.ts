// Length tuning: a routed net shorter than its length rule's minimum, or than the longest net of
// its skew rule's set by more than the skew allows, is lengthened with meanders — rows of bumps
// with rounded corners to one side of a straight run, at the net's width — to the rule's target;
// a coupled pair both of whose nets are short, with pair meanders first (pair-meander.ts: rounded
// bumps along the board's axes, square ones elsewhere). Lengths are KiCad's
// (engine/drc/net-length.ts) and every meander is judged by the DRC before it is kept; a net that cannot be brought to its rules is taken out and left open, saying
// why (and detour.ts may then route it the long way round).

import { withCopper, type NewTrack } from '../../board/added-copper.ts';
import type { Design } from '../../board/design.ts';
import type { Pt } from '../../board/model.ts';
import { checkAdded } from '../../drc/drc.ts';
import { CopperItems } from '../../drc/copper-items.ts';
import { trackShape } from '../../drc/item-shapes.ts';
import { collides } from '../../geom/collide.ts';
import { mmText } from '../../geom/units.ts';
import type { Violation } from '../../drc/violation.ts';
import type { RouteResult } from '../types.ts';
import { leaveOpen } from '../finish/leave-open.ts';
import { quarterArc, type FramePoint } from './meander-corner.ts';
import { pairMeander, pairRuns, roundedPitch } from './pair-meander.ts';
import { gapTolerance, pairCoupling } from '../../drc/pair-coupling.ts';
import { byNetName } from '../core/net-rank.ts';

/** Length checks that are not about where copper lies: a meander changes them on purpose. */
const LENGTH_TYPES = new Set(['length_out_of_range', 'skew_out_of_range', 'too_many_vias']);

/** Tallest bump, as a multiple of the bump pitch: meanders stay compact, as a designer draws them. */
const MAX_RISE = 6;

type Short = NonNullable<Violation['length']>;

/** Where a rule wants a net: its opt, else midway between min and max, else a little past min. */
export function target(l: Short): number {
  if (l.opt !== undefined && l.opt >= l.min! && (l.max === undefined || l.opt <= l.max)) return l.opt;
  if (l.max !== undefined) return Math.round((l.min! + l.max) / 2);
  return l.min! + 50_000;
}

/** A row of `k` bumps of height `h` and pitch `p` on the run a→b, on the side `side` (±1) of its
 *  direction, starting `s0` along it: the run's track is replaced by these. Each corner is a
 *  quarter arc of radius r (a quarter of the smaller of pitch and height), as KiCad's tuner rounds
 *  them, and each bump stands (4 − π)·r taller than `h` so it still adds 2·h. */
function meander(t: NewTrack, k: number, h: number, p: number, side: number, s0: number): NewTrack[] {
  const { start: a, end: b } = t;
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const u = { x: (b.x - a.x) / len, y: (b.y - a.y) / len };
  const n = { x: -u.y * side, y: u.x * side };
  const r = Math.floor(Math.min(p, h) / 4);
  const top = h + Math.ceil((4 - Math.PI) * r);
  const at = (s: number, up: number): Pt => ({ x: Math.round(a.x + u.x * s + n.x * up), y: Math.round(a.y + u.y * s + n.y * up) });
  // The way as corners, each with the directions it turns from and to (along the run or across).
  const out: NewTrack[] = [];
  let from: Pt = a;
  const line = (to: Pt) => {
    if (from.x !== to.x || from.y !== to.y) out.push({ ...t, start: from, end: to });
    from = to;
  };
  const corner = (s: number, up: number, d1: FramePoint, d2: FramePoint) => {
    if (r === 0) return line(at(s, up));
    const q = quarterArc({ s, up }, d1, d2, r);
    line(at(q.from.s, q.from.up));
    const end = at(q.to.s, q.to.up);
    out.push({ ...t, start: from, mid: at(q.mid.s, q.mid.up), end });
    from = end;
  };
  const along = { s: 1, up: 0 };
  const upward = { s: 0, up: 1 };
  const downward = { s: 0, up: -1 };
  for (let j = 0; j < k; j++) {
    const s = s0 + 2 * j * p;
    corner(s, 0, along, upward);
    corner(s, top, upward, along);
    corner(s + p, top, along, downward);
    corner(s + p, 0, downward, along);
  }
  line(b);
  return out;
}

/** True when the DRC finds nothing but length findings on the tracks of `tracks` `placed` names. */
function clean(base: Design, tracks: readonly NewTrack[], result: RouteResult, placed: (i: number) => boolean): boolean {
  const t0 = base.board.tracks.length;
  for (const v of checkAdded(base, tracks, result.vias).violations) {
    if (v.severity !== 'error' || LENGTH_TYPES.has(v.type)) continue;
    if (v.items.some((it) => it.kind === 'track' && placed(it.index - t0))) return false;
  }
  return true;
}

/**
 * A quick look for other nets' copper too near a meander, before the DRC's exact judgement: the
 * board with the result's copper as it stands, indexed once per net tuned. It only rejects; what
 * it passes the DRC still judges.
 */
class MeanderProbe {
  readonly #copper: CopperItems;

  constructor(
    readonly base: Design,
    tracks: readonly NewTrack[],
    result: RouteResult,
  ) {
    const board = withCopper(base.board, tracks, result.vias);
    this.#copper = new CopperItems(board, Math.max(base.rules.maxClearance(), base.rules.minimums.holeClearance));
  }

  /** False when a bump's track comes within clearance of another net's copper on its layer. */
  clear(bumps: readonly NewTrack[]): boolean {
    const rules = this.base.rules;
    for (const t of bumps) {
      const shape = trackShape(t);
      for (const id of this.#copper.near(shape, rules.maxClearance())) {
        const it = this.#copper.items[id];
        if (it.net === t.net || !((it.layers >>> t.layer) & 1) || it.kind === 'zone') continue;
        const gap = rules.clearance({ net: t.net, layer: t.layer }, { net: it.net, layer: t.layer });
        if (collides(shape, it.shape, gap)) return false;
      }
    }
    return true;
  }
}

/**
 * Lengthens one net by `need` nm, run by run, longest first: each run gets as many bumps as fit
 * (pitch three widths, or width plus twice the clearance, whichever is more), as low as makes up
 * what is still needed; where they do not fit, lower or fewer bumps, slid along the run, on
 * either side. Returns the tracks and what is still needed.
 */
function lengthen(base: Design, tracks: NewTrack[], result: RouteResult, net: number, need: number): { tracks: NewTrack[]; need: number } {
  const clearance = base.rules.netClass(net).clearance;
  const runs = tracks
    .map((t, i) => ({ i, len: Math.hypot(t.end.x - t.start.x, t.end.y - t.start.y) }))
    // Straight runs only: a bump's arc is no run to bend again.
    .filter((r) => tracks[r.i].net === net && !tracks[r.i].mid)
    .sort((a, b) => b.len - a.len || a.i - b.i);
  const probe = new MeanderProbe(base, tracks, result);
  let current = tracks;
  for (const r of runs) {
    if (need <= 0) break;
    const t = tracks[r.i];
    // Indices shift as runs are replaced: each run is found again by its ends.
    const at = current.findIndex((x) => x.net === net && x.start === t.start && x.end === t.end);
    if (at < 0) continue;
    // The pitch a designer would choose, then a tighter one (two widths, or a width and a
    // clearance) where a run is short or crowded.
    for (const p of [Math.max(3 * t.width, t.width + 2 * clearance), Math.max(2 * t.width, t.width + clearance)]) {
      // k bumps take (2k − 1) pitches; a pitch of straight track is kept at either end.
      const k = Math.floor((r.len - p) / (2 * p));
      if (k < 1) continue;
      const placed = place(
        r.len,
        k,
        p,
        need,
        0,
        (used, h, side, s0) => meander(t, used, h, p, side, s0),
        (bumps) => {
          if (!probe.clear(bumps)) return false;
          const next = [...current.slice(0, at), ...bumps, ...current.slice(at + 1)];
          if (!clean(base, next, result, (i) => i >= at && i < at + bumps.length)) return false;
          current = next;
          return true;
        },
      );
      need -= placed;
      if (placed > 0) break;
    }
  }
  return { tracks: current, need };
}

/**
 * Lengthens both nets of a coupled pair by `need` nm with pair meanders (pair-meander.ts), run by
 * run, longest shared stretch first, as `lengthen` does one net: each bump's pitch is the pair's
 * centre-to-centre distance more than a single track's, so the inner track's bump and the outer
 * one's valley keep a single bump's room. Returns the tracks and what each net still needs.
 */
function lengthenPair(base: Design, tracks: NewTrack[], result: RouteResult, plus: number, minus: number, need: number): { tracks: NewTrack[]; need: number } {
  const cls = base.rules.netClass(plus);
  // The pair's own tracks are judged against each other by the DRC, not the quick look.
  const probe = new MeanderProbe(
    base,
    tracks.filter((t) => t.net !== plus && t.net !== minus),
    result,
  );
  let current = tracks;
  for (const run of pairRuns(tracks, plus, minus, cls.diffPairGap)) {
    if (need <= 0) break;
    const ta = tracks[run.a];
    const tb = tracks[run.b];
    const a = current.findIndex((x) => x.net === plus && x.start === ta.start && x.end === ta.end);
    const b = current.findIndex((x) => x.net === minus && x.start === tb.start && x.end === tb.end);
    if (a < 0 || b < 0) continue;
    const w = Math.max(ta.width, tb.width);
    // Rounded corners first, at the pitch their arcs need (and no tighter than a designer's),
    // then the square bumps' pitches.
    const square = [Math.max(3 * w, w + 2 * cls.clearance), Math.max(2 * w, w + cls.clearance)].map((room) => run.apart + room);
    for (const p of [Math.max(roundedPitch(run.apart), square[0]), ...square]) {
      const k = Math.floor((run.shared - p - run.apart) / (2 * p));
      if (k < 1) continue;
      const placed = place(
        run.shared,
        k,
        p,
        need,
        run.apart,
        (used, h, side, s0) => pairMeander(current, { ...run, a, b }, used, h, p, side, s0),
        (bumps) => {
          if (!probe.clear([...bumps.a, ...bumps.b])) return false;
          // Both tracks replaced at once, in index order: the second's bumps follow the first's.
          const [lo, hi, first, second] = a < b ? [a, b, bumps.a, bumps.b] : [b, a, bumps.b, bumps.a];
          const next = [...current.slice(0, lo), ...first, ...current.slice(lo + 1, hi), ...second, ...current.slice(hi + 1)];
          const from2 = hi - 1 + first.length;
          const isNew = (i: number) => (i >= lo && i < lo + first.length) || (i >= from2 && i < from2 + second.length);
          if (!clean(base, next, result, isNew)) return false;
          current = next;
          return true;
        },
      );
      need -= placed;
      if (placed > 0) break;
    }
  }
  return { tracks: current, need };
}

/**
 * The first placement of bumps on a run of length `len` that `fits` accepts, most length first:
 * as many bumps as fit, as low as makes up `need` (half a pitch tall at least, at most MAX_RISE
 * pitches), then half and a quarter as tall, then fewer bumps; each centred, then slid along the
 * run a pitch at a time, on either side. `build` draws `used` bumps of height h on a side from
 * `s0` along the run; `wider` is how much wider than its pitches a row of bumps is (a pair's outer
 * track). Returns the length added to each net (0 when nothing fits).
 */
function place<T>(
  len: number,
  k: number,
  p: number,
  need: number,
  wider: number,
  build: (used: number, h: number, side: number, s0: number) => T,
  fits: (bumps: T) => boolean,
): number {
  const most = Math.max(1, Math.min(k, Math.floor(need / (2 * p))));
  for (let used = most; used >= 1; used = used > 2 ? Math.ceil(used / 2) : used - 1) {
    const rise = Math.min(Math.ceil(need / (2 * used)), MAX_RISE * p);
    for (const h of [rise, Math.round(rise / 2), Math.round(rise / 4)]) {
      if (h < p / 2) break;
      const span = (2 * used - 1) * p + wider;
      const centre = (len - span) / 2;
      const offsets = [centre];
      for (let s = p; s + span + p <= len; s += p) if (Math.abs(s - centre) >= p / 2) offsets.push(s);
      for (const s of offsets)
        for (const side of [1, -1]) {
          if (fits(build(used, h, side, s + wider / 2))) return 2 * used * h;
        }
    }
  }
  return 0;
}

/** A skew finding in words: the two lengths, whose the longer is, and what the rule allows. */
function skewText(base: Design, k: NonNullable<Violation['skew']>): string {
  const name = (n: number) => base.board.nets[n]?.name ?? String(n);
  return `${name(k.net)} at ${mmText(k.actual)} is matched to ${name(k.targetNet)} at ${mmText(k.target)}, and rule '${k.rule}' allows ${mmText(k.max)} between them`;
}

/** True when a custom rule sets a length or a skew: else there is nothing to tune. */
function hasLengthRules(base: Design): boolean {
  return base.rules.custom.some((r) => r.constraints.some((c) => c.kind === 'length' || c.kind === 'skew'));
}

/**
 * `result` with its nets brought to their length rules: each net shorter than its rule's minimum
 * lengthened to the rule's target, each shorter than the longest of its skew set by more than
 * the skew allows lengthened to within half of it; then, pass after pass, a net still short is
 * taken out, and so is a net of ours in a skew finding the route made (or, when that finding's
 * net is not ours, the longest net it was matched to, if that one is).
 */
export function tuneLengths(base: Design, result: RouteResult): RouteResult {
  if (!hasLengthRules(base)) return result;
  const mine = new Set(result.nets.filter((n) => n.tracks.length > 0).map((n) => n.net));
  if (mine.size === 0) return result;
  const nets = [...mine];
  const skewKey = (v: Violation) => `${v.skew!.rule}\u0000${v.skew!.net}`;
  const before = new Set(
    checkAdded(base, [], [], nets)
      .violations.filter((v) => v.skew && v.severity === 'error')
      .map(skewKey),
  );
  let tracks = result.tracks;
  let vias = result.vias;
  const judge = () => checkAdded(base, tracks, vias, nets).violations.filter((v) => v.severity === 'error');
  const failed = new Map<number, string>();
  const tuned = new Map<number, string>();
  // Lengths first, then skew: a net matched up to its set's longest stays within that one's length.
  for (const kind of ['length', 'skew'] as const) {
    const want = new Map<number, { need: number; full: number; why: string }>();
    for (const v of judge()) {
      if (kind === 'length' && v.length && v.length.min !== undefined && v.length.actual < v.length.min && mine.has(v.length.net) && !want.has(v.length.net)) {
        const l = v.length;
        want.set(l.net, {
          need: target(l) - l.actual,
          full: target(l) - l.actual,
          why: `Routed at ${mmText(l.actual)}, shorter than the ${mmText(l.min!)} rule '${l.rule}' asks`,
        });
      }
      if (kind === 'skew' && v.skew && mine.has(v.skew.net) && !want.has(v.skew.net)) {
        const k = v.skew;
        const need = k.target - Math.round(k.max / 2) - k.actual;
        want.set(k.net, { need, full: need, why: skewText(base, k) });
      }
    }
    // A coupled pair both of whose nets are short is lengthened as a pair, by what the less short
    // one needs; what the other still needs is made up on its own below, as skew is.
    if (kind === 'length')
      for (const pair of result.pairs ?? []) {
        const a = want.get(pair.plus);
        const b = want.get(pair.minus);
        if (!pair.coupled || !a || !b) continue;
        const need = Math.min(a.need, b.need);
        const got = lengthenPair(base, tracks, { ...result, vias }, pair.plus, pair.minus, need);
        tracks = got.tracks;
        a.need -= need - got.need;
        b.need -= need - got.need;
      }
    const byName = byNetName({ netNames: base.board.nets.map((n) => n?.name ?? '') });
    for (const [net, w] of [...want].sort((a, b) => byName(a[0], b[0]))) {
      const got = lengthen(base, tracks, { ...result, vias }, net, w.need);
      tracks = got.tracks;
      if (got.need > 0)
        tuned.set(
          net,
          `${w.why}; meanders where the DRC allows them made up ${mmText(w.full - got.need)} of the ${mmText(w.full)} needed, so the route was left out.`,
        );
    }
  }
  for (let pass = 0; pass < 8; pass++) {
    const drop = new Map<number, string>();
    for (const v of judge()) {
      const l = v.length;
      if (l && l.min !== undefined && l.actual < l.min && mine.has(l.net) && !failed.has(l.net))
        drop.set(
          l.net,
          tuned.get(l.net) ?? `Routed at ${mmText(l.actual)}, shorter than the ${mmText(l.min)} rule '${l.rule}' asks, so the route was left out.`,
        );
      const k = v.skew;
      if (!k || before.has(skewKey(v))) continue;
      const net = mine.has(k.net) && !failed.has(k.net) ? k.net : mine.has(k.targetNet) && !failed.has(k.targetNet) ? k.targetNet : -1;
      if (net >= 0 && !drop.has(net)) drop.set(net, tuned.get(net) ?? `${skewText(base, k)}, so the route was left out.`);
    }
    if (drop.size === 0) break;
    for (const [net, why] of drop) failed.set(net, why);
    tracks = tracks.filter((t) => !failed.has(t.net));
    vias = vias.filter((v) => !failed.has(v.net));
  }
  // A coupled pair's share changes with its meanders (a pair's bumps stay coupled but for square
  // corners; one net's own bumps do not): measured again, as KiCad measures it.
  const pairs = result.pairs?.map((p) => {
    if (!p.coupled) return p;
    const gap = gapTolerance(base.rules.netClass(p.plus).diffPairGap);
    const share = pairCoupling(
      tracks.filter((t) => t.net === p.plus),
      tracks.filter((t) => t.net === p.minus),
      gap,
    ).share;
    return { ...p, share };
  });
  return leaveOpen(
    { ...result, tracks, vias, ...(pairs ? { pairs } : {}) },
    new Map([...failed].map(([net, why]) => [net, { reason: 'length_rule' as const, why: () => why }])),
  );
}
