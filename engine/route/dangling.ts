// Stubs taken off: a track end that touches nothing of its net (no other track, via or pad)
// is cut back to the nearest point where something of the net does touch the track, or the
// track goes. Used where copper is pieced together from parts laid down separately (a pair's
// coupled tracks and the joins from its pads), whose ends may run past where they were joined.

import type { NewTrack, NewVia } from '../board/added-copper.ts';
import type { Pt } from '../board/model.ts';
import { overlaps } from '../geom/collide.ts';
import { circle, segment, type Shape } from '../geom/shapes.ts';

/** A pad of the net: its copper and the layers it has it on (bit i = layer i). */
export interface NetPad {
  shape: Shape;
  layers: number;
}

/** Where on `t` (0..1) the foot of `p` lies, and whether `p` lies within `r` of it. */
const near = (p: Pt, t: NewTrack, r: number) => {
  const dx = t.end.x - t.start.x;
  const dy = t.end.y - t.start.y;
  const len2 = dx * dx + dy * dy;
  const u = len2 > 0 ? Math.max(0, Math.min(1, ((p.x - t.start.x) * dx + (p.y - t.start.y) * dy) / len2)) : 0;
  return { u, d: Math.hypot(t.start.x + u * dx - p.x, t.start.y + u * dy - p.y) < r };
};
// Copper joins where it overlaps (by more than a touch: a micrometre here), as KiCad's
// connectivity has it: a track's end is its round cap, `w` wide.
const onVia = (p: Pt, w: number, v: NewVia, layer: number) =>
  layer >= v.layerFrom && layer <= v.layerTo && Math.hypot(p.x - v.at.x, p.y - v.at.y) < (v.size + w) / 2 - 1_000;
const onPad = (p: Pt, w: number, q: NetPad, layer: number) =>
  ((q.layers >>> layer) & 1) === 1 && overlaps(circle(p.x, p.y, Math.max(0, w / 2 - 1_000)), q.shape);
const at = (t: NewTrack, u: number): Pt => ({ x: Math.round(t.start.x + (t.end.x - t.start.x) * u), y: Math.round(t.start.y + (t.end.y - t.start.y) * u) });

/** `tracks` (all of one net) without stubs; `vias` and `pads` are the net's. */
export function pruneDangling(tracks: readonly NewTrack[], vias: readonly NewVia[], pads: readonly NetPad[]): NewTrack[] {
  const out: (NewTrack | null)[] = [...tracks];
  const touches = (p: Pt, w: number, layer: number, self: number) =>
    out.some((t, k) => t !== null && k !== self && t.layer === layer && near(p, t, (t.width + w) / 2 - 1_000).d) ||
    vias.some((v) => onVia(p, w, v, layer)) ||
    pads.some((q) => onPad(p, w, q, layer));
  for (let changed = true, rounds = 0; changed && rounds < 4 * tracks.length; rounds++) {
    changed = false;
    for (let k = 0; k < out.length; k++) {
      const t = out[k];
      if (!t) continue;
      for (const fromStart of [true, false]) {
        const e = fromStart ? t.start : t.end;
        if (touches(e, t.width, t.layer, k)) continue;
        out[k] = cutBack(fromStart ? t : { ...t, start: t.end, end: t.start }, k);
        if (out[k] && !fromStart) out[k] = { ...out[k]!, start: out[k]!.end, end: out[k]!.start };
        changed = true;
        break;
      }
    }
  }
  return out.filter((t): t is NewTrack => t !== null);

  /** `t` (its dangling end first) from the point nearest that end where the net's other copper
   *  touches it; null when nothing touches it but at its far end. */
  function cutBack(t: NewTrack, self: number): NewTrack | null {
    let best = Infinity;
    // The track end the cut meets, moved onto the cut so the two meet end to end (as KiCad's
    // length calculation follows copper): it lies on the track's copper already, so it moves
    // less than the two half widths, towards the track.
    let meets: { k: number; end: 'start' | 'end' } | undefined;
    for (const [k, o] of out.entries()) {
      if (!o || k === self || o.layer !== t.layer) continue;
      for (const end of ['start', 'end'] as const) {
        const n = near(o[end], t, (t.width + o.width) / 2 - 1_000);
        if (n.d && n.u < best) {
          best = n.u;
          meets = { k, end };
        }
      }
    }
    for (const v of vias) {
      if (t.layer < v.layerFrom || t.layer > v.layerTo) continue;
      const n = near(v.at, t, (v.size + t.width) / 2 - 1_000);
      if (n.d && n.u < best) {
        best = n.u;
        meets = undefined;
      }
    }
    // A pad the track runs onto: from where it first lies on it.
    for (const q of pads) {
      const w = t.width;
      if (((q.layers >>> t.layer) & 1) === 0 || !overlaps(segment(t.start.x, t.start.y, t.end.x, t.end.y, Math.max(0, w - 2_000)), q.shape)) continue;
      let hi = 1;
      for (let i = 0; i <= 64; i++)
        if (onPad(at(t, i / 64), w, q, t.layer)) {
          hi = i / 64;
          break;
        }
      let lo = Math.max(0, hi - 1 / 64);
      if (hi === 0) lo = 0;
      while (hi - lo > 1e-4) {
        const mid = (lo + hi) / 2;
        if (onPad(at(t, mid), w, q, t.layer)) hi = mid;
        else lo = mid;
      }
      if (hi < best) {
        best = hi;
        meets = undefined;
      }
    }
    if (best >= 1 || best === Infinity) return null;
    const p = at(t, best);
    if (meets) out[meets.k] = { ...out[meets.k]!, [meets.end]: p };
    return p.x === t.end.x && p.y === t.end.y ? null : { ...t, start: p };
  }
}

/** Whether `tracks` and `vias` (all of one net) join all of `pads` into one piece. */
export function joinsAll(tracks: readonly NewTrack[], vias: readonly NewVia[], pads: readonly NetPad[]): boolean {
  const n = pads.length + tracks.length + vias.length;
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const union = (a: number, b: number) => {
    parent[find(a)] = find(b);
  };
  const T = pads.length;
  const V = T + tracks.length;
  tracks.forEach((t, i) => {
    const seg = segment(t.start.x, t.start.y, t.end.x, t.end.y, Math.max(0, t.width - 2_000));
    pads.forEach((q, k) => ((q.layers >>> t.layer) & 1) === 1 && overlaps(seg, q.shape) && union(T + i, k));
    vias.forEach((v, k) => t.layer >= v.layerFrom && t.layer <= v.layerTo && near(v.at, t, (v.size + t.width) / 2 - 1_000).d && union(T + i, V + k));
    tracks.forEach((o, k) => {
      if (k <= i || o.layer !== t.layer) return;
      if (
        [o.start, o.end].some((p) => near(p, t, (t.width + o.width) / 2 - 1_000).d) ||
        [t.start, t.end].some((p) => near(p, o, (t.width + o.width) / 2 - 1_000).d)
      )
        union(T + i, T + k);
    });
  });
  vias.forEach((v, k) => pads.forEach((q, j) => overlaps(circle(v.at.x, v.at.y, Math.max(0, v.size / 2 - 1_000)), q.shape) && union(V + k, j)));
  return pads.every((_, k) => find(k) === find(0));
}
