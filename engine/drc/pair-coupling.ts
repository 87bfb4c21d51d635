// How much of a differential pair runs coupled, measured the way KiCad's diff-pair coupling check
// measures it: each track of the + net is paired with the parallel track of the - net on a shared
// layer whose common stretch lies nearest; that stretch is coupled, at the gap between the two
// edges, unless other copper lies across either end of it (asked of the caller: the DRC's
// diff-pair-rules.ts asks the board; inspect_net and the pairs benchmark do not ask).

import { trackLength } from '../geom/arc.ts';

export interface PairTrack {
  start: { x: number; y: number };
  end: { x: number; y: number };
  mid?: { x: number; y: number };
  width: number;
  layer: number;
}

/** One coupled stretch: its length along the - track and the edge-to-edge gap (nm), and the two
 *  tracks (indices into the lists given). */
export interface CoupledStretch {
  layer: number;
  length: number;
  gap: number;
  plus: number;
  minus: number;
}

/** Whether copper other than the pair's lies across the line from (ax, ay) to (bx, by) on a layer,
 *  between the ends of the two tracks' common stretch. */
export type CopperBetween = (ax: number, ay: number, bx: number, by: number, layer: number, plus: number, minus: number) => boolean;

export interface PairCoupling {
  /** Track length of each net (nm, arcs along the arc). */
  lengthP: number;
  lengthN: number;
  /** The coupled stretches' length with a gap inside the range asked for (all when none). */
  coupled: number;
  /** The longer net's length less the coupled length, as KiCad counts it. */
  uncoupled: number;
  /** The coupled length's share of the longer net (0 when neither has length). */
  share: number;
  stretches: CoupledStretch[];
}

type Seg = [number, number, number, number];

/** A track as KiCad's check takes it: the straight line from start to end (an arc's chord). */
const seg = (t: PairTrack): Seg => [t.start.x, t.start.y, t.end.x, t.end.y];

/** Whether `q`'s ends lie at the same distance (within 1 nm) from the line of `p`. */
function parallel(p: Seg, q: Seg): boolean {
  const dx = p[2] - p[0];
  const dy = p[3] - p[1];
  const len = Math.hypot(dx, dy);
  const side = (x: number, y: number) => ((x - p[0]) * dy - (y - p[1]) * dx) / len;
  return Math.abs(side(q[0], q[1]) - side(q[2], q[3])) <= 1;
}

/** Foot of the perpendicular from (x, y) on the line of `s`. */
function onLine(s: Seg, x: number, y: number): [number, number] {
  const dx = s[2] - s[0];
  const dy = s[3] - s[1];
  const t = ((x - s[0]) * dx + (y - s[1]) * dy) / (dx * dx + dy * dy);
  return [s[0] + t * dx, s[1] + t * dy];
}

/** The stretch of `p` that `n` projects onto, and its image on `n`'s line; null when none. */
function commonStretch(p: Seg, n: Seg): { p: Seg; n: Seg } | null {
  const dx = p[2] - p[0];
  const dy = p[3] - p[1];
  const len2 = dx * dx + dy * dy;
  const t = (x: number, y: number) => (x - p[0]) * dx + (y - p[1]) * dy;
  const ta = t(n[0], n[1]);
  const tb = t(n[2], n[3]);
  if (len2 <= Math.min(ta, tb) || 0 >= Math.max(ta, tb)) return null;
  const [t1, t2] = [0, len2, ta, tb].sort((a, b) => a - b).slice(1, 3);
  // In whole nanometres, as KiCad clips and projects.
  const r = Math.round;
  const pc: Seg = [r(p[0] + (dx * t1) / len2), r(p[1] + (dy * t1) / len2), r(p[0] + (dx * t2) / len2), r(p[1] + (dy * t2) / len2)];
  const [ax, ay] = onLine(n, pc[0], pc[1]);
  const [bx, by] = onLine(n, pc[2], pc[3]);
  return { p: pc, n: [r(ax), r(ay), r(bx), r(by)] };
}

/** The share of a pair's longer net run coupled from which the pair counts as routed coupled. */
export const COUPLED_SHARE = 0.9;

/** The gap range counted as coupled where no rule sets one: the class's pair gap ± 10 %, and
 *  never tighter than ± 10 µm. */
export function gapTolerance(classGap: number): { min: number; max: number } {
  const tol = Math.max(classGap / 10, 10_000);
  return { min: classGap - tol, max: classGap + tol };
}

/** The coupling of a pair's tracks; `gap` bounds (nm, edge to edge) what counts as coupled. */
export function pairCoupling(
  plus: readonly PairTrack[],
  minus: readonly PairTrack[],
  gap?: { min?: number; max?: number },
  between?: CopperBetween,
): PairCoupling {
  const stretches: CoupledStretch[] = [];
  plus.forEach((tp, ip) => {
    const p = seg(tp);
    if (Math.hypot(p[2] - p[0], p[3] - p[1]) ** 2 <= 2) return;
    let best: { n: Seg; p: Seg; tn: PairTrack; in: number; gap: number } | undefined;
    minus.forEach((tn, iN) => {
      if (tn.layer !== tp.layer) return;
      const n = seg(tn);
      if (Math.hypot(n[2] - n[0], n[3] - n[1]) ** 2 <= 2 || !parallel(p, n)) return;
      const c = commonStretch(p, n);
      if (!c) return;
      // The stretches face each other squarely, so their ends' distance is the lines' distance;
      // KiCad takes it and the half widths in whole nanometres.
      const g = Math.round(Math.hypot(c.p[0] - c.n[0], c.p[1] - c.n[1])) - Math.trunc((tn.width + tp.width) / 2);
      if (!best || g < best.gap) best = { ...c, tn, in: iN, gap: g };
    });
    if (!best) return;
    const b = best as { n: Seg; p: Seg; tn: PairTrack; in: number; gap: number };
    if (between && (between(b.p[0], b.p[1], b.n[0], b.n[1], tp.layer, ip, b.in) || between(b.p[2], b.p[3], b.n[2], b.n[3], tp.layer, ip, b.in))) return;
    const length = Math.hypot(b.n[2] - b.n[0], b.n[3] - b.n[1]);
    stretches.push({ layer: tp.layer, length, gap: b.gap, plus: ip, minus: b.in });
  });
  const lengthP = plus.reduce((s, t) => s + trackLength(t), 0);
  const lengthN = minus.reduce((s, t) => s + trackLength(t), 0);
  let coupled = 0;
  for (const s of stretches) if ((gap?.min === undefined || s.gap >= gap.min) && (gap?.max === undefined || s.gap <= gap.max)) coupled += s.length;
  const longer = Math.max(lengthP, lengthN);
  return { lengthP, lengthN, coupled, uncoupled: longer - coupled, share: longer > 0 ? coupled / longer : 0, stretches };
}
