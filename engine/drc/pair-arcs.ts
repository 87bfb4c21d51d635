// Two arcs of a differential pair coupled the way KiCad's diff-pair coupling check couples them
// (kicad-cli 9.0.8 and 10.0.7): arcs pair only with arcs, when their centres lie within a track
// width of each other and their sweeps overlap by more than a thousandth of a degree; the coupled
// stretch is the minus arc's part over the shared sweep, the gap the nearest edges there. Whether
// two sweeps that start together overlap turns on a nanometre, so the angles are worked out as
// KiCad works them out: from its centre (kicad-arc-centre.ts), after turning both arcs point by
// point so that the plus arc starts at 0°.

import { arcGeometry, nearestArcArc, trackLength, type ArcGeometry } from '../geom/arc.ts';
import { kicadArcCentre, kicadDirection } from '../geom/kicad-arc-centre.ts';
import { newPair } from '../geom/nearest.ts';
import { kiRound, normalizeDegrees, rotatePoint } from '../geom/units.ts';
import type { Pt } from '../board/model.ts';
import type { PairTrack } from './pair-track.ts';

/** KiCad's MinParallelAngle (degrees): a shared sweep this small or less is not coupled. */
const MIN_PARALLEL_ANGLE = 0.001;

/** An arc by its three points, start to end counter-clockwise (increasing angle). */
interface Arc {
  s: Pt;
  m: Pt;
  e: Pt;
}

const angleOf = (p: Pt, c: Pt) => normalizeDegrees(kicadDirection(p.x - c.x, p.y - c.y));
const centreOf = (a: Arc) => kicadArcCentre(a.s, a.m, a.e);

/** The arc turned by `deg` about `c`, point by point in whole nanometres, in KiCad's sense of
 *  turning (which takes `deg` off each point's angle). */
function turned(a: Arc, deg: number, c: Pt): Arc {
  const r = (p: Pt) => {
    const [x, y] = rotatePoint(p.x, p.y, deg, c.x, c.y);
    return { x, y };
  };
  return { s: r(a.s), m: r(a.m), e: r(a.e) };
}

/** A track's arc, counter-clockwise, with KiCad's centre for it as drawn and its radius and
 *  length; undefined for a straight "arc". */
function arcOf(t: PairTrack): { arc: Arc; c: Pt; r: number; length: number } | undefined {
  const m = t.mid!;
  const g = arcGeometry(t.start.x, t.start.y, m.x, m.y, t.end.x, t.end.y);
  if (!g) return undefined;
  const c = kicadArcCentre(t.start, m, t.end);
  const arc = g.ccw ? { s: t.start, m, e: t.end } : { s: t.end, m, e: t.start };
  return { arc, c, r: Math.hypot(t.start.x - c.x, t.start.y - c.y), length: trackLength(t) };
}

/** The stretch two arcs couple over: the minus arc's length there, the edge-to-edge gap (whole
 *  nanometres, as KiCad takes it) and the middles of the two clipped arcs (+ first), between
 *  which other copper breaks the coupling; null when the arcs do not couple. */
export function arcStretch(tp: PairTrack, tn: PairTrack): { length: number; gap: number; mids: [number, number, number, number] } | null {
  const p = arcOf(tp);
  const n = arcOf(tn);
  if (!p || !n || p.length <= 2 || n.length <= 2) return null;
  const dc2 = (p.c.x - n.c.x) ** 2 + (p.c.y - n.c.y) ** 2;
  if (dc2 >= tp.width * tp.width) return null;
  const rMax = Math.max(p.r, n.r);
  if (Math.abs(p.r - n.r) / rMax > 0.5 || Math.sqrt(dc2) > rMax * 0.5) return null;
  // Both arcs turned so that the plus arc starts at 0°, each about its own centre.
  const turn = angleOf(p.arc.s, centreOf(p.arc));
  const pt = turned(p.arc, turn, p.c);
  const nt = turned(n.arc, turn, n.c);
  const pEnd = angleOf(pt.e, centreOf(pt));
  const nc = centreOf(nt);
  const nStart = angleOf(nt.s, nc);
  const nEnd = angleOf(nt.e, nc);
  if (nStart >= pEnd || nEnd <= 0) return null;
  const from = Math.max(0, nStart);
  const to = Math.min(pEnd, nEnd);
  if (to - from <= MIN_PARALLEL_ANGLE) return null;
  const sweep = ((to - from) * Math.PI) / 180;
  const a0 = (normalizeDegrees(from + turn) * Math.PI) / 180;
  const clip = (c: Pt, radius: number) => {
    const sx = c.x + kiRound(radius * Math.cos(a0));
    const sy = c.y + kiRound(radius * Math.sin(a0));
    const r = Math.hypot(sx - c.x, sy - c.y);
    const g: ArcGeometry = { cx: c.x, cy: c.y, r, a0, sweep, ccw: true };
    const ends = [sx, sy, c.x + r * Math.cos(a0 + sweep), c.y + r * Math.sin(a0 + sweep)];
    return { g, ends, mid: [c.x + r * Math.cos(a0 + sweep / 2), c.y + r * Math.sin(a0 + sweep / 2)], length: r * sweep };
  };
  const cp = clip(p.c, p.r);
  const cn = clip(n.c, n.r);
  if (cp.length < 1 || cn.length < 1) return null;
  const near = newPair();
  nearestArcArc(cp.g, cp.ends, cn.g, cn.ends, near);
  const gap = Math.trunc(Math.hypot(near.ax - near.bx, near.ay - near.by)) - Math.trunc((tp.width + tn.width) / 2);
  return { length: cn.length, gap, mids: [cp.mid[0], cp.mid[1], cn.mid[0], cn.mid[1]] };
}
