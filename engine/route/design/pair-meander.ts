// Meanders for a coupled pair, in the way of KiCad's pair length tuner: both nets' tracks bent
// together round one centre line, so the gap between them holds through every bump (all but the
// corners stay coupled) and each net gains the same length, the pair's skew kept as it was.

import type { NewTrack } from '../../board/added-copper.ts';
import type { Pt } from '../../board/model.ts';
import { pairCoupling } from '../../drc/pair-coupling.ts';

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

/**
 * `k` bumps of height `h` at centre-line pitch `p` on the side `side` (±1, left of track a's
 * direction) of the pair run `run`, the first starting `s0` into the shared stretch: the two
 * tracks' replacements, each net lengthened by 2·k·h. Each track's bump is its offset of the
 * centre line's square bump, so the outer one is wider than the inner by the pair's pitch.
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
