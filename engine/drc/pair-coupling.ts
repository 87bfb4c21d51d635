// How much of a differential pair runs coupled, measured the way KiCad's diff-pair coupling check
// measures it (as kicad-cli 9.0.8 and 10.0.7 do): each straight track of the + net is paired with
// every parallel straight track of the - net on its layer that shares a stretch with it, each arc
// with every arc round (nearly) the same centre (pair-arcs.ts); that stretch is coupled, at the
// gap between the two edges where they come nearest, unless other copper lies across the line
// between those nearest points, or the arcs' middles (asked of the caller: the DRC's
// diff-pair-rules.ts asks the board; inspect_net and the pairs benchmark do not ask).

import { trackLength } from '../geom/arc.ts';
import { nearestSegmentSegment, newPair } from '../geom/nearest.ts';
import { arcStretch } from './pair-arcs.ts';
import type { PairTrack } from './pair-track.ts';

export type { PairTrack };

/** One coupled stretch: its length along the - track and the edge-to-edge gap (nm), and the two
 *  tracks (indices into the lists given). */
export interface CoupledStretch {
  layer: number;
  length: number;
  gap: number;
  plus: number;
  minus: number;
}

/** Whether copper other than the pair's lies across the line from (ax, ay) to (bx, by) on a layer
 *  (the nearest points of a stretch's two sides, or two arcs' middles); `ends` are two straight
 *  clipped sides' ends [x1, y1, x2, y2] (+ first) and empty for arcs, `plus` and `minus` the two
 *  tracks' indices. */
export type CopperBetween = (ax: number, ay: number, bx: number, by: number, layer: number, plus: number, minus: number, ends: readonly number[][]) => boolean;

export interface PairCoupling {
  /** Track length of each net (nm, arcs along the arc). */
  lengthP: number;
  lengthN: number;
  /** The coupled stretches' length with a gap inside the range asked for (all when none). */
  coupled: number;
  /** The longer net's length less the coupled length (not below 0). */
  uncoupled: number;
  /** The coupled length's share of the longer net (0 when neither has length). */
  share: number;
  stretches: CoupledStretch[];
}

type Seg = [number, number, number, number];

/** A straight track as KiCad's check takes it, from start to end. */
const seg = (t: PairTrack): Seg => [t.start.x, t.start.y, t.end.x, t.end.y];

/** KiCad's test: the two lines do not meet within its coordinate range (a 1 µm tilt over 20 mm
 *  is still parallel). */
function parallel(p: Seg, q: Seg): boolean {
  const ax = p[2] - p[0];
  const ay = p[3] - p[1];
  const bx = q[2] - q[0];
  const by = q[3] - q[1];
  const det = ax * by - ay * bx;
  if (det === 0) return true;
  const t = ((q[0] - p[0]) * by - (q[1] - p[1]) * bx) / det;
  const x = p[0] + t * ax;
  const y = p[1] + t * ay;
  return Math.abs(x) > INT32_MAX || Math.abs(y) > INT32_MAX;
}

const INT32_MAX = 2_147_483_647;

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
    if (tp.mid) return;
    const p = seg(tp);
    if (Math.hypot(p[2] - p[0], p[3] - p[1]) ** 2 <= 2) return;
    minus.forEach((tn, iN) => {
      if (tn.layer !== tp.layer || tn.mid) return;
      const n = seg(tn);
      if (Math.hypot(n[2] - n[0], n[3] - n[1]) ** 2 <= 2 || !parallel(p, n)) return;
      const c = commonStretch(p, n);
      if (!c) return;
      // The gap where the two sides come nearest, in whole nanometres as KiCad takes it.
      // On a tie (parallel sides) the first pair offered wins: the + side's first end, as kicad-cli probes.
      const near = newPair();
      nearestSegmentSegment(c.p[0], c.p[1], c.p[2], c.p[3], c.n[0], c.n[1], c.n[2], c.n[3], near);
      const { ax, ay, bx, by } = near;
      const g = Math.trunc(Math.hypot(ax - bx, ay - by)) - Math.trunc((tn.width + tp.width) / 2);
      if (between?.(Math.round(ax), Math.round(ay), Math.round(bx), Math.round(by), tp.layer, ip, iN, [c.p, c.n])) return;
      const length = Math.hypot(c.n[2] - c.n[0], c.n[3] - c.n[1]);
      stretches.push({ layer: tp.layer, length, gap: g, plus: ip, minus: iN });
    });
  });
  // Then arcs against arcs, after all straight tracks, as KiCad takes them.
  plus.forEach((tp, ip) => {
    if (!tp.mid) return;
    minus.forEach((tn, iN) => {
      if (tn.layer !== tp.layer || !tn.mid) return;
      const a = arcStretch(tp, tn);
      if (!a) return;
      const [ax, ay, bx, by] = a.mids;
      if (between?.(Math.round(bx), Math.round(by), Math.round(ax), Math.round(ay), tp.layer, ip, iN, [])) return;
      stretches.push({ layer: tp.layer, length: a.length, gap: a.gap, plus: ip, minus: iN });
    });
  });
  const lengthP = plus.reduce((s, t) => s + trackLength(t), 0);
  const lengthN = minus.reduce((s, t) => s + trackLength(t), 0);
  let coupled = 0;
  for (const s of stretches) if ((gap?.min === undefined || s.gap >= gap.min) && (gap?.max === undefined || s.gap <= gap.max)) coupled += s.length;
  const longer = Math.max(lengthP, lengthN);
  // Every parallel track counts, so a track beside two may count twice: the share stays at most 1.
  return { lengthP, lengthN, coupled, uncoupled: Math.max(0, longer - coupled), share: longer > 0 ? Math.min(1, coupled / longer) : 0, stretches };
}
