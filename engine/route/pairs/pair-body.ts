// A coupled pair's two tracks from its centre line (pair-centreline.ts): each leg offset by half
// the pair's pitch to either side, corners mitred so the gap holds round them, and at each layer
// change a via pair across the incoming direction at the pair's via pitch. Pure geometry: the
// DRC judges what it makes.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import type { Pt } from '../../board/model.ts';
import type { PathCopper } from '../core/path-geometry.ts';
import { nearestOnSegment } from '../../geom/nearest.ts';

export interface PairGeometry {
  /** Each track's width and the edge-to-edge gap between them, nm. */
  width: number;
  gap: number;
  viaDiameter: number;
  viaDrill: number;
  /** Edge-to-edge gap between the two vias. */
  viaGap: number;
}

/** The two nets' tracks and vias: `left` runs on the left of the centre line's direction. */
export interface PairBody {
  left: { tracks: NewTrack[]; vias: NewVia[] };
  right: { tracks: NewTrack[]; vias: NewVia[] };
}

type Dir = { x: number; y: number };

const unit = (a: Pt, b: Pt): Dir => {
  const l = Math.hypot(b.x - a.x, b.y - a.y);
  return { x: (b.x - a.x) / l, y: (b.y - a.y) / l };
};
const leftOf = (d: Dir): Dir => ({ x: d.y, y: -d.x });
const at = (p: Pt, d: Dir, k: number): Pt => ({ x: Math.round(p.x + d.x * k), y: Math.round(p.y + d.y * k) });

/** Each corner of `pts` offset by `h` to the left (negative: right), as where the offset of the
 *  segment before it ends (`in`) and where the one after it starts (`out`): an inner corner is
 *  mitred (one point), an outer one bevelled (two points, each h from the corner), so the offset
 *  stays within h of `pts` and a corner's two offsets are still 2h apart (h·sec + h·cos of half
 *  the turn is at least 2h). */
function offsetCorners(pts: readonly Pt[], h: number): { in: Pt; out: Pt }[] {
  const n = pts.length;
  const out: { in: Pt; out: Pt }[] = [];
  for (let i = 0; i < n; i++) {
    const dIn = i > 0 ? unit(pts[i - 1], pts[i]) : undefined;
    const dOut = i + 1 < n ? unit(pts[i], pts[i + 1]) : undefined;
    if (!dIn || !dOut) {
      const p = at(pts[i], leftOf((dIn ?? dOut)!), h);
      out.push({ in: p, out: p });
      continue;
    }
    const nIn = leftOf(dIn);
    const nOut = leftOf(dOut);
    if (h * (dIn.x * dOut.y - dIn.y * dOut.x) > 0) {
      out.push({ in: at(pts[i], nIn, h), out: at(pts[i], nOut, h) });
      continue;
    }
    // The mitre: along the normals' bisector, as far as keeps both offset lines at h.
    const p = at(pts[i], { x: nIn.x + nOut.x, y: nIn.y + nOut.y }, h / (1 + nIn.x * nOut.x + nIn.y * nOut.y));
    out.push({ in: p, out: p });
  }
  return out;
}

/** `pts` offset by `h` to the left (negative: right), corners as offsetCorners makes them. */
export function offsetLine(pts: readonly Pt[], h: number): Pt[] {
  const out: Pt[] = [];
  for (const c of offsetCorners(pts, h)) {
    out.push(c.in);
    if (!same(c.in, c.out)) out.push(c.out);
  }
  return out;
}

/** The first segment of `pts` whose offset by +h or −h runs backwards (an inner corner whose legs
 *  are shorter than the offset folds its offset back on itself), or −1. */
function offsetsHold(pts: readonly Pt[], h: number): number {
  for (const s of [h, -h]) {
    const c = offsetCorners(pts, s);
    for (let i = 0; i + 1 < pts.length; i++) {
      const a = c[i].out;
      const b = c[i + 1].in;
      if ((b.x - a.x) * (pts[i + 1].x - pts[i].x) + (b.y - a.y) * (pts[i + 1].y - pts[i].y) <= 0) return i;
    }
  }
  return -1;
}

/** `pts` with the corners whose offsets would fold dropped (short jogs cut straight), where the
 *  cut keeps every point of `pts` it passes within `slack` of the new line (the centre line's
 *  search kept that much more room); null when a fold cannot be cut within it. */
export function straighten(pts: readonly Pt[], h: number, slack: number): Pt[] | null {
  const out = [...pts];
  // Each kept point's index in `pts`, to measure a cut against the points it passes.
  const idx = pts.map((_, i) => i);
  for (let i = offsetsHold(out, h); i >= 0; i = offsetsHold(out, h)) {
    if (out.length <= 2) return null;
    const k = i + 1 < out.length - 1 ? i + 1 : i;
    const a = out[k - 1];
    const b = out[k + 1];
    for (let j = idx[k - 1] + 1; j < idx[k + 1]; j++) if (pointToSegment(pts[j], a, b) > slack) return null;
    out.splice(k, 1);
    idx.splice(k, 1);
  }
  return out;
}

function pointToSegment(p: Pt, a: Pt, b: Pt): number {
  const [x, y] = nearestOnSegment(a.x, a.y, b.x, b.y, p.x, p.y);
  return Math.hypot(p.x - x, p.y - y);
}

/** The pair's copper along `line`; `left` and `right` are the two nets' codes; `slack` as for
 *  straighten. Null when a bend of the line is too tight for the pair. */
export function pairBody(line: PathCopper, g: PairGeometry, left: number, right: number, slack: number): PairBody | null {
  const h = (g.width + g.gap) / 2;
  const hv = (g.viaDiameter + g.viaGap) / 2;
  const body: PairBody = { left: { tracks: [], vias: [] }, right: { tracks: [], vias: [] } };
  const legs: { layer: number; pts: Pt[] }[] = [];
  for (const l of line.legs) {
    const pts = straighten(l.pts, h, slack);
    if (!pts) return null;
    legs.push({ layer: l.layer, pts });
  }
  const sideOf = (s: 1 | -1) => (s === 1 ? body.left : body.right);
  const lines = legs.map((l) => ({ layer: l.layer, left: offsetLine(l.pts, h), right: offsetLine(l.pts, -h) }));
  for (const v of line.vias) {
    const inc = legs.findIndex((l) => same(l.pts[l.pts.length - 1], v.at));
    const out = legs.findIndex((l, k) => k !== inc && same(l.pts[0], v.at));
    const ref = inc >= 0 ? legs[inc].pts : out >= 0 ? legs[out].pts : undefined;
    if (!ref) continue;
    // Across the direction the pair arrives in (or leaves in, at a start on a via; the centre
    // line runs straight through its vias). Each track fans out to its via at 45°, from as far
    // before it as the via lies further out than the track, and back in after it.
    const d = inc >= 0 ? unit(ref[ref.length - 2], ref[ref.length - 1]) : unit(ref[0], ref[1]);
    const n = leftOf(d);
    const fan = Math.max(0, hv - h);
    for (const s of [1, -1] as const) {
      const c = at(v.at, n, s * hv);
      sideOf(s).vias.push({ at: c, size: g.viaDiameter, drill: g.viaDrill, layerFrom: v.from, layerTo: v.to, net: s === 1 ? left : right });
      const line = (k: number) => (s === 1 ? lines[k].left : lines[k].right);
      if (inc >= 0) {
        const pts = line(inc);
        if (fan > 0) pts[pts.length - 1] = at(at(v.at, d, -fan), n, s * h);
        pts.push(c);
      }
      if (out >= 0) {
        const pts = line(out);
        if (fan > 0) pts[0] = at(at(v.at, d, fan), n, s * h);
        pts.unshift(c);
      }
    }
  }
  for (const l of lines)
    for (const s of [1, -1] as const) {
      const pts = s === 1 ? l.left : l.right;
      for (let i = 0; i + 1 < pts.length; i++)
        if (!same(pts[i], pts[i + 1])) sideOf(s).tracks.push({ start: pts[i], end: pts[i + 1], width: g.width, layer: l.layer, net: s === 1 ? left : right });
    }
  return body;
}

const same = (a: Pt, b: Pt) => a.x === b.x && a.y === b.y;

/** `tracks` (one net's, in order along the line) cut back at each end past where they run over
 *  the other net's pads there: from the start past the last point `badStart` holds (the pad at the
 *  line's start), at the end before the first point `badEnd` holds (the pad at its end), wherever
 *  along the line that lies: a line may cross the pad a stretch or two short of its end. A stretch
 *  is cut to the nearest whole micrometre where it stops being bad, or dropped. */
export function trimEnds(tracks: readonly NewTrack[], badStart: (t: NewTrack) => boolean, badEnd: (t: NewTrack) => boolean): NewTrack[] {
  // The part of `t` from `s` (nm along it) to its end, or from its start to `s`.
  const part = (t: NewTrack, s: number, fromStart: boolean): NewTrack => {
    const k = s / Math.hypot(t.end.x - t.start.x, t.end.y - t.start.y);
    const p = { x: Math.round(t.start.x + (t.end.x - t.start.x) * k), y: Math.round(t.start.y + (t.end.y - t.start.y) * k) };
    return fromStart ? { ...t, start: p } : { ...t, end: p };
  };
  // What is left of `t` once cut where what remains stops being bad (it shrinks as the cut moves,
  // so the search is monotone), or nothing where even its last micrometre is bad.
  const cutAt = (t: NewTrack, fromStart: boolean, bad: (t: NewTrack) => boolean): NewTrack | undefined => {
    const len = Math.hypot(t.end.x - t.start.x, t.end.y - t.start.y);
    if (bad(part(t, fromStart ? len - 1_000 : 1_000, fromStart))) return undefined;
    let lo = fromStart ? 0 : len;
    let hi = fromStart ? len - 1_000 : 1_000;
    while (Math.abs(hi - lo) > 1_000) {
      const mid = (lo + hi) / 2;
      if (bad(part(t, mid, fromStart))) lo = mid;
      else hi = mid;
    }
    return part(t, hi, fromStart);
  };
  let out = [...tracks];
  let last = out.length - 1;
  while (last >= 0 && !badStart(out[last])) last--;
  if (last >= 0) {
    const t = cutAt(out[last], true, badStart);
    out = [...(t ? [t] : []), ...out.slice(last + 1)];
  }
  const first = out.findIndex(badEnd);
  if (first >= 0) {
    const t = cutAt(out[first], false, badEnd);
    out = [...out.slice(0, first), ...(t ? [t] : [])];
  }
  return out;
}
