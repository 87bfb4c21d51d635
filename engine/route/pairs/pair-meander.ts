// Meanders for a coupled pair, in the way of KiCad's pair length tuner: both nets' tracks bent
// together round one centre line, so the gap between them holds through every bump and each net
// gains the same length, the pair's skew kept as it was. Each corner is a pair of quarter arcs
// round one centre, which KiCad couples like the straights: every arc end lies on a whole
// nanometre and every centre on a 100 nm grid. Along the axes KiCad's own centre for each arc is
// then that centre, and the two arcs' sweeps agree to the last digit; on a diagonal the arcs'
// middles are nudged by a nanometre where KiCad's centres would part the sweeps. Where the arcs
// would not couple (checked as KiCad checks them), the corners stay square and run uncoupled.

import type { NewTrack } from '../../board/added-copper.ts';
import type { Pt } from '../../board/model.ts';
import { arcStretch } from '../../drc/pair-arcs.ts';
import { pairCoupling } from '../../drc/pair-coupling.ts';
import { trackLength } from '../../geom/arc.ts';
import { quarterArc, type FramePoint } from './meander-corner.ts';

/** How far (nm) a track's far end may stray from the line through its pair partner's direction
 *  and still count as parallel to it: a 45° track's ends are rounded to whole nanometres. */
const PARALLEL_SLACK = 2;

/** Two parallel tracks of a pair on one layer: the plus net's (`a`) and the minus net's (`b`)
 *  indices, the stretch they share along their direction and their centre-to-centre distance. */
export interface PairRun {
  a: number;
  b: number;
  shared: number;
  apart: number;
}

/** A track's frame: its start `o` the origin, (`ux`, `uy`) its unit direction. */
interface Frame {
  o: Pt;
  ux: number;
  uy: number;
}

const frame = (t: NewTrack): Frame => {
  const len = Math.hypot(t.end.x - t.start.x, t.end.y - t.start.y);
  return { o: t.start, ux: (t.end.x - t.start.x) / len, uy: (t.end.y - t.start.y) / len };
};
/** Along the frame's direction and across it (to the left). */
const along = (f: Frame, p: Pt) => (p.x - f.o.x) * f.ux + (p.y - f.o.y) * f.uy;
const across = (f: Frame, p: Pt) => -(p.x - f.o.x) * f.uy + (p.y - f.o.y) * f.ux;
const point = (f: Frame, s: number, y: number): Pt => ({ x: Math.round(f.o.x + f.ux * s - f.uy * y), y: Math.round(f.o.y + f.uy * s + f.ux * y) });

/**
 * The runs of `tracks` where a track of net `plus` and one of `minus` lie parallel on one layer,
 * `gap` apart edge to edge (± 2 nm), and share a stretch: longest shared first (then by index).
 * The stretches are those KiCad's coupling check pairs (engine/drc/pair-coupling.ts), kept where
 * the two lines are parallel to the nanometre, as a bump's offsets need.
 */
export function pairRuns(tracks: readonly NewTrack[], plus: number, minus: number, gap: number): PairRun[] {
  const ip: number[] = [];
  const im: number[] = [];
  tracks.forEach((t, i) => (t.net === plus ? ip.push(i) : t.net === minus && im.push(i)));
  const out: PairRun[] = [];
  for (const s of pairCoupling(
    ip.map((i) => tracks[i]),
    im.map((i) => tracks[i]),
  ).stretches) {
    const [a, b] = [ip[s.plus], im[s.minus]];
    const f = frame(tracks[a]);
    const apart = gap + (tracks[a].width + tracks[b].width) / 2;
    const y0 = across(f, tracks[b].start);
    const y1 = across(f, tracks[b].end);
    if (Math.abs(y0 - y1) <= PARALLEL_SLACK && Math.abs(Math.abs(y0) - apart) <= PARALLEL_SLACK) out.push({ a, b, shared: s.length, apart });
  }
  return out.sort((x, y) => y.shared - x.shared || x.a - y.a || x.b - y.b);
}

/** The whole-nanometre steps round a point, nearest first. */
const NEIGHBOURS = [
  [0, 0],
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
] as const;

/** The grid (nm, on the board, whichever way the run goes) a rounded pair corner's centre sits on. */
const GRID = 100;

/** The least corner radius (centre line) for a pair `apart` centre to centre: KiCad couples two
 *  arcs only when the smaller radius is at least half the larger, so (r − apart/2) ≥ (r + apart/2)/2. */
const leastRadius = (apart: number) => (3 * apart) / 2 + GRID;

/** The least bump pitch (centre line) at which a pair `apart` centre to centre gets rounded
 *  corners: room for two corners of the least radius, each moved up to a grid step, along an axis
 *  or (in √2 nm units) a diagonal. */
export const roundedPitch = (apart: number) => 2 * leastRadius(apart) + 8 * GRID;

/**
 * `k` bumps of height `h` at centre-line pitch `p` on the side `side` (±1, left of track a's
 * direction) of the pair run `run`, the first starting `s0` into the shared stretch: the two
 * tracks' replacements, each net lengthened by 2·k·h (rounded bumps by up to a few hundred
 * nanometres more). Each track's bump is its offset of the centre line's bump, so the outer one is
 * wider than the inner by the pair's pitch.
 */
export function pairMeander(
  tracks: readonly NewTrack[],
  run: PairRun,
  k: number,
  h: number,
  p: number,
  side: number,
  s0: number,
): { a: NewTrack[]; b: NewTrack[] } {
  return roundedPairMeander(tracks, run, k, h, p, side, s0) ?? squarePairMeander(tracks, run, k, h, p, side, s0);
}

/** A run's frame in whole-nanometre terms: its unit (1 nm along an axis, √2 nm along a diagonal,
 *  so that whole units step to whole nanometres), where the frame's origin and centre line lie
 *  against the 100 nm grid (in units), track b's across position (units), and the way to the
 *  board (not rounded). */
interface Lattice {
  unit: number;
  a0: number;
  c0: number;
  yb: number;
  toBoard: (s: number, y: number) => Pt;
}

/** The lattice of a pair run whose track a has frame `f` and track b lies `yb` nm across it;
 *  undefined off the octilinear directions. */
function latticeOf(f: Frame, yb: number): Lattice | undefined {
  const diagonal = Math.abs(Math.abs(f.ux) - Math.SQRT1_2) < 1e-9;
  if (!diagonal && Math.abs(f.ux) !== 1 && Math.abs(f.uy) !== 1) return undefined;
  const unit = diagonal ? Math.SQRT2 : 1;
  // The frame's steps on the board: whole-nanometre vectors of length `unit`.
  const U = { x: Math.round(f.ux * unit), y: Math.round(f.uy * unit) };
  const N = { x: -U.y, y: U.x };
  const n2 = U.x * U.x + U.y * U.y;
  const y = Math.round(yb / unit);
  if (Math.abs(yb / unit - y) > 1e-6) return undefined;
  return {
    unit,
    a0: (f.o.x * U.x + f.o.y * U.y) / n2,
    c0: (f.o.x * N.x + f.o.y * N.y) / n2 + y / 2,
    yb: y,
    toBoard: (s, t) => ({ x: f.o.x + s * U.x + t * N.x, y: f.o.y + s * U.y + t * N.y }),
  };
}

/**
 * The pair meander with quarter-arc corners, or undefined where it cannot be drawn so (a run off
 * the octilinear directions, a bump too small for arcs round the pair, or arcs KiCad would not
 * couple). The centre line's bottom corners have radius Rb and its top ones Rt; a track e off the
 * centre line (toward the bumps) turns at Rb − e below and Rt + e above, so both tracks lose the
 * same (4 − π)·(Rb + Rt) a bump to their arcs, and the bump stands half that taller. All is
 * worked in the run's lattice units, where each corner's centre keeps to the lattice's step.
 */
function roundedPairMeander(
  tracks: readonly NewTrack[],
  run: PairRun,
  k: number,
  hNm: number,
  pNm: number,
  side: number,
  s0Nm: number,
): { a: NewTrack[]; b: NewTrack[] } | undefined {
  const ta = tracks[run.a];
  const tb = tracks[run.b];
  const f = frame(ta);
  const lat = latticeOf(f, across(f, tb.start));
  if (!lat) return undefined;
  const { unit, a0, c0, yb } = lat;
  const step = GRID;
  const mod = (x: number) => ((x % step) + step) % step;
  // Whole units (half units where the centre line falls between): a diagonal's √2 rounded away.
  const [h, p, s0] = [Math.ceil(hNm / unit), Math.round(pNm / unit), Math.round(s0Nm / unit)];
  const alongU = (q: Pt) => along(f, q) / unit;
  const lo = Math.max(0, Math.round(2 * Math.min(alongU(tb.start), alongU(tb.end))) / 2);
  const r = Math.max(leastRadius(Math.abs(yb)), Math.floor(Math.min(p, h) / 4));
  const rb = r + mod(-side * c0 - r);
  const rt = r + mod(-rb - r);
  const pt = p + mod(-2 * rb - p);
  const top = Math.ceil((h + ((4 - Math.PI) * (rb + rt)) / 2) / step) * step;
  if (pt < 2 * rt || p < 2 * rb + 2 * step || top < rb + rt) return undefined;
  // The bumps' left legs, each moved up to a step along so that its corners' centres keep to it.
  const starts: number[] = [];
  for (let j = 0; j < k; j++) {
    const s = lo + s0 + 2 * j * p;
    starts.push(s + mod(rb - a0 - s));
  }
  // An arc's ends must be whole nanometres (else KiCad's sweeps of the two arcs part by a
  // hair); its middle is rounded.
  let offGrid = false;
  const at = (q: FramePoint): Pt => {
    const b = lat.toBoard(q.s, yb / 2 + side * q.up);
    const r = { x: Math.round(b.x), y: Math.round(b.y) };
    if (Math.abs(b.x - r.x) > 1e-6 || Math.abs(b.y - r.y) > 1e-6) offGrid = true;
    return r;
  };
  const near = (q: FramePoint): Pt => {
    const b = lat.toBoard(q.s, yb / 2 + side * q.up);
    return { x: Math.round(b.x), y: Math.round(b.y) };
  };
  const bend = (t: NewTrack, y: number): NewTrack[] | undefined => {
    // The track's offset from the centre line, toward the bumps.
    const e = side * (y - yb / 2);
    const ends = [t.start, t.end].sort((m, n) => along(f, m) - along(f, n));
    if (starts[0] - rb < alongU(ends[0]) || starts[k - 1] + pt + rb > alongU(ends[1])) return undefined;
    const out: NewTrack[] = [];
    let from = ends[0];
    const line = (to: Pt) => {
      if (from.x !== to.x || from.y !== to.y) out.push({ ...t, start: from, end: to });
      from = to;
    };
    const corner = (q: FramePoint, d1: FramePoint, d2: FramePoint, radius: number) => {
      const c = quarterArc(q, d1, d2, radius);
      line(at(c.from));
      const end = at(c.to);
      out.push({ ...t, start: from, mid: near(c.mid), end });
      from = end;
    };
    const alongRun = { s: 1, up: 0 };
    const upward = { s: 0, up: 1 };
    const downward = { s: 0, up: -1 };
    for (const s of starts) {
      corner({ s: s - e, up: e }, alongRun, upward, rb - e);
      corner({ s: s - e, up: top + e }, upward, alongRun, rt + e);
      corner({ s: s + pt + e, up: top + e }, alongRun, downward, rt + e);
      corner({ s: s + pt + e, up: e }, downward, alongRun, rb - e);
    }
    line(ends[1]);
    return out;
  };
  const a = bend(ta, 0);
  const b = bend(tb, yb);
  if (!a || !b || offGrid) return undefined;
  // Each corner's two arcs must couple over all their sweep, as KiCad will judge them.
  const arcsA = a.filter((t) => t.mid);
  const arcsB = b.filter((t) => t.mid);
  for (let i = 0; i < arcsA.length; i++) if (!coupleCorner(arcsA, arcsB, i)) return undefined;
  return { a, b };
}

/** Whether arc `i` of `plus` couples with arc `i` of `minus` over all its sweep, as KiCad judges
 *  it; when it does not, each middle is tried a nanometre or so off its rounding (KiCad's centre
 *  for an arc moves with its middle by up to a few nanometres, and with it the sweep's ends), and
 *  the first pair that couples is kept in place. */
function coupleCorner(plus: NewTrack[], minus: NewTrack[], i: number): boolean {
  const couples = (p: NewTrack, m: NewTrack) => {
    const c = arcStretch(p, m);
    return c !== null && c.length >= trackLength(m) - 1;
  };
  const [p, m] = [plus[i], minus[i]];
  for (const [dx, dy] of NEIGHBOURS)
    for (const [ex, ey] of NEIGHBOURS) {
      const pm = { ...p, mid: { x: p.mid!.x + dx, y: p.mid!.y + dy } };
      const mm = { ...m, mid: { x: m.mid!.x + ex, y: m.mid!.y + ey } };
      if (couples(pm, mm)) {
        Object.assign(p, { mid: pm.mid });
        Object.assign(m, { mid: mm.mid });
        return true;
      }
    }
  return false;
}

/** The pair meander with square corners. */
const squarePairMeander: typeof pairMeander = (tracks, run, k, h, p, side, s0) => {
  const ta = tracks[run.a];
  const tb = tracks[run.b];
  const f = frame(ta);
  const yb = across(f, tb.start);
  const lo = Math.max(0, Math.min(along(f, tb.start), along(f, tb.end)));
  const centre = yb / 2;
  const bend = (t: NewTrack, y: number): NewTrack[] => {
    // The track's offset from the centre line, toward the bump's side.
    const e = side * (y - centre);
    const ends = [t.start, t.end].sort((m, n) => along(f, m) - along(f, n));
    const pts: Pt[] = [ends[0]];
    for (let j = 0; j < k; j++) {
      const s = lo + s0 + 2 * j * p;
      pts.push(point(f, s - e, y), point(f, s - e, y + side * h), point(f, s + p + e, y + side * h), point(f, s + p + e, y));
    }
    pts.push(ends[1]);
    const out: NewTrack[] = [];
    for (let i = 0; i + 1 < pts.length; i++) if (pts[i].x !== pts[i + 1].x || pts[i].y !== pts[i + 1].y) out.push({ ...t, start: pts[i], end: pts[i + 1] });
    return out;
  };
  return { a: bend(ta, 0), b: bend(tb, yb) };
};
