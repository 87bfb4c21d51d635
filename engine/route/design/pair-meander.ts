// Meanders for a coupled pair, in the way of KiCad's pair length tuner: both nets' tracks bent
// together round one centre line, so the gap between them holds through every bump and each net
// gains the same length, the pair's skew kept as it was. On a run along the board's axes each
// corner is a pair of quarter arcs round one centre, which KiCad couples like the straights; the
// centres sit on a 100 nm grid and every arc end on a whole nanometre, so that KiCad's own centre
// for each arc is that centre and the two arcs' sweeps agree to the last digit. Elsewhere, or where
// the arcs would not couple, the corners stay square (their corners then run uncoupled).

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

/** The grid (nm) a rounded pair corner's centre sits on. */
const GRID = 100;

/** x mod GRID in [0, GRID), for any real x. */
const mod = (x: number) => ((x % GRID) + GRID) % GRID;

/** The least corner radius (centre line) for a pair `apart` centre to centre: KiCad couples two
 *  arcs only when the smaller radius is at least half the larger, so (r − apart/2) ≥ (r + apart/2)/2. */
const leastRadius = (apart: number) => (3 * apart) / 2 + GRID;

/** The least bump pitch (centre line) at which a pair `apart` centre to centre gets rounded
 *  corners: room for two corners of the least radius, each moved up to a grid step. */
export const roundedPitch = (apart: number) => 2 * leastRadius(apart) + 4 * GRID;

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

/**
 * The pair meander with quarter-arc corners, or undefined where it cannot be drawn so (a run off
 * the axes, a bump too small for arcs round the pair, or arcs KiCad would not couple). The
 * centre line's bottom corners have radius Rb and its top ones Rt; a track e off the centre line
 * (toward the bumps) turns at Rb − e below and Rt + e above, so both tracks lose the same
 * (4 − π)·(Rb + Rt) a bump to their arcs, and the bump stands half that taller.
 */
function roundedPairMeander(
  tracks: readonly NewTrack[],
  run: PairRun,
  k: number,
  h: number,
  p: number,
  side: number,
  s0: number,
): { a: NewTrack[]; b: NewTrack[] } | undefined {
  const ta = tracks[run.a];
  const tb = tracks[run.b];
  const f = frame(ta);
  if (Math.abs(f.ux) !== 1 && Math.abs(f.uy) !== 1) return undefined;
  const yb = across(f, tb.start);
  const lo = Math.max(0, Math.min(along(f, tb.start), along(f, tb.end)));
  // Where the frame's origin lies on the board's grid, along the run and across it (at the
  // centre line): each corner's centre is put on the grid from these.
  const a0 = f.o.x * f.ux + f.o.y * f.uy;
  const c0 = -f.o.x * f.uy + f.o.y * f.ux + yb / 2;
  const r = Math.max(leastRadius(Math.abs(yb)), Math.floor(Math.min(p, h) / 4));
  const rb = r + mod(-side * c0 - r);
  const rt = r + mod(-rb - r);
  const pt = p + mod(-2 * rb - p);
  const top = Math.ceil((h + ((4 - Math.PI) * (rb + rt)) / 2) / GRID) * GRID;
  if (pt < 2 * rt || p < 2 * rb + 2 * GRID || top < rb + rt) return undefined;
  // The bumps' left legs, each moved up to a grid step along so that its corners' centres land on the grid.
  const starts: number[] = [];
  for (let j = 0; j < k; j++) {
    const s = lo + s0 + 2 * j * p;
    starts.push(s + mod(rb - a0 - s));
  }
  const at = (q: FramePoint) => point(f, q.s, yb / 2 + side * q.up);
  const bend = (t: NewTrack, y: number): NewTrack[] | undefined => {
    // The track's offset from the centre line, toward the bumps.
    const e = side * (y - yb / 2);
    const ends = [t.start, t.end].sort((m, n) => along(f, m) - along(f, n));
    if (starts[0] - rb < along(f, ends[0]) || starts[k - 1] + pt + rb > along(f, ends[1])) return undefined;
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
      out.push({ ...t, start: from, mid: at(c.mid), end });
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
  if (!a || !b) return undefined;
  // Each corner's two arcs must couple over all their sweep, as KiCad will judge them.
  const arcsA = a.filter((t) => t.mid);
  const arcsB = b.filter((t) => t.mid);
  for (let i = 0; i < arcsA.length; i++) {
    const c = arcStretch(arcsA[i], arcsB[i]);
    if (!c || c.length < trackLength(arcsB[i]) - 1) return undefined;
  }
  return { a, b };
}

/** The pair meander with square corners. */
function squarePairMeander(
  tracks: readonly NewTrack[],
  run: PairRun,
  k: number,
  h: number,
  p: number,
  side: number,
  s0: number,
): { a: NewTrack[]; b: NewTrack[] } {
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
}
