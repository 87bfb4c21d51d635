// Stubs taken off: a track end that touches nothing of its net (no other track, via or pad)
// is cut back to the nearest point where something of the net does touch the track, or the
// track goes. Used where copper is pieced together from parts laid down separately (a pair's
// coupled tracks and the joins from its pads), whose ends may run past where they were joined.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import type { Pt } from '../../board/model.ts';
import { overlaps } from '../../geom/collide.ts';
import { circle, segment, type Shape } from '../../geom/shapes.ts';
import { joins, UnionFind } from '../../drc/connectivity.ts';

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

/** Whether `tracks` and `vias` (all of one net) join all of `pads` into one piece, their copper
 *  overlapping as KiCad's connectivity asks (drc/connectivity.ts). */
export function joinsAll(tracks: readonly NewTrack[], vias: readonly NewVia[], pads: readonly NetPad[]): boolean {
  const items = [
    ...pads.map((q) => ({ shape: q.shape, layers: q.layers })),
    ...tracks.map((t) => ({ shape: segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), layers: 1 << t.layer })),
    ...vias.map((v) => ({ shape: circle(v.at.x, v.at.y, v.size / 2), layers: spanMask(v.layerFrom, v.layerTo) })),
  ];
  const sets = new UnionFind(items.length);
  for (let i = 0; i < items.length; i++)
    for (let k = i + 1; k < items.length; k++) if ((items[i].layers & items[k].layers) !== 0 && joins(items[i].shape, items[k].shape)) sets.union(i, k);
  return pads.every((_, k) => sets.find(k) === sets.find(0));
}

/** Layers from..to (bit i = layer i). */
const spanMask = (from: number, to: number) => (to >= 31 ? ~0 : (1 << (to + 1)) - 1) & ~((1 << from) - 1);
