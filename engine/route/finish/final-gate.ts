// The last word on a result: the router's own checks built it clean, but an independent DRC
// (engine/drc, which agrees with kicad-cli) judges the new copper before it leaves. A flagged
// join is taken out with every join that starts on its copper, so nothing dangles; those
// connections go back to open, and the rest of the net stays.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import type { PathCopper } from '../core/path-geometry.ts';
import type { Join } from '../negotiate/router.ts';
import type { Profile } from '../core/profile.ts';
import { viaOf } from '../core/via-span.ts';

/** Independent judge of added copper: indices of the tracks / vias it flags, with a sentence. */
export type Verify = (tracks: NewTrack[], vias: NewVia[]) => { tracks: Set<number>; vias: Set<number>; why: Map<string, string> };

/** A track or via of a result, with the net and join it came from. */
interface Origin {
  net: number;
  join: number;
}

/** The board items of one path's copper (each via as via-span.ts makes it). */
export function itemsOf(net: number, prof: Profile, c: PathCopper, layers: number): { tracks: NewTrack[]; vias: NewVia[] } {
  const tracks: NewTrack[] = [];
  const vias: NewVia[] = [];
  for (const leg of c.legs) {
    for (let i = 0; i + 1 < leg.pts.length; i++) {
      tracks.push({ start: leg.pts[i], end: leg.pts[i + 1], width: leg.width ?? prof.width[leg.layer], layer: leg.layer, net, locked: true });
    }
  }
  for (const v of c.vias) {
    const k = viaOf(prof, v, layers);
    vias.push({ at: v.at, size: k.diameter, drill: k.drill, layerFrom: k.from, layerTo: k.to, net, type: k.type, locked: true });
  }
  return { tracks, vias };
}

/** The board items of every kept join, nets in the order given, each with the join it came from. */
export function keptCopper(
  kept: Map<number, Join[]>,
  nets: { net: number; profile: Profile }[],
  layers: number,
): { tracks: NewTrack[]; vias: NewVia[]; tOrigin: Origin[]; vOrigin: Origin[] } {
  const tracks: NewTrack[] = [];
  const vias: NewVia[] = [];
  const tOrigin: Origin[] = [];
  const vOrigin: Origin[] = [];
  for (const { net, profile } of nets) {
    (kept.get(net) ?? []).forEach((j, join) => {
      const it = itemsOf(net, profile, j.copper, layers);
      for (const t of it.tracks) {
        tracks.push(t);
        tOrigin.push({ net, join });
      }
      for (const v of it.vias) {
        vias.push(v);
        vOrigin.push({ net, join });
      }
    });
  }
  return { tracks, vias, tOrigin, vOrigin };
}

/** Passes at most: a cut removes copper only, so a later pass finds only what an earlier cut
 *  left for it on purpose (plane-islands.ts flags one net an island a pass). */
const MAX_PASSES = 8;

/** The joins that stay when `cut` ones go: a join stays if it is not cut and what it hangs on
 *  stays — the join whose copper it starts on, or (unless `forest`) the piece it starts on,
 *  when that is piece 0 or one a staying join reached. A join starting on a piece never
 *  dangles, so with `forest` it stays even when its piece is cut off from piece 0: the net
 *  keeps every connection that still holds. Joins are in Prim order: one forward sweep decides. */
function survivors(joins: Join[], cut: Set<number>, forest: boolean): Join[] {
  const reached = new Set<number>([0]);
  const kept = new Set<number>();
  joins.forEach((j, i) => {
    if (cut.has(i)) return;
    if (j.fromJoin >= 0 ? !kept.has(j.fromJoin) : !forest && !reached.has(j.fromPiece)) return;
    kept.add(i);
    reached.add(j.to);
  });
  return keepJoins(joins, kept);
}

/** The joins at the indices in `keep`, in order, each `fromJoin` renumbered to where the join it
 *  hangs on now stands (callers keep a join only with the join it hangs on). */
export function keepJoins(joins: Join[], keep: Set<number>): Join[] {
  const at = new Map<number, number>();
  const out: Join[] = [];
  joins.forEach((j, i) => {
    if (!keep.has(i)) return;
    at.set(i, out.length);
    out.push(j.fromJoin >= 0 ? { ...j, fromJoin: at.get(j.fromJoin)! } : j);
  });
  return out;
}

/**
 * Takes every flagged join out of `kept` with what hangs on it, pass after pass until the
 * judge flags nothing; returns the nets cut with the judge's sentence. `kept` is changed in
 * place. `nets` lists the nets in a fixed order. Without `forest` what stays of a net is one
 * tree around its first piece (a prefix a router can extend); with it, every join still held.
 */
export function gate(
  kept: Map<number, Join[]>,
  nets: { net: number; profile: Profile }[],
  layers: number,
  verify: Verify,
  forest = false,
): Map<number, string> {
  const cut = new Map<number, string>();
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const { tracks, vias, tOrigin, vOrigin } = keptCopper(kept, nets, layers);
    if (tracks.length === 0 && vias.length === 0) return cut;
    const flagged = verify(tracks, vias);
    if (flagged.tracks.size === 0 && flagged.vias.size === 0) return cut;
    const hit = new Map<number, Set<number>>();
    const note = (o: Origin, why: string | undefined) => {
      let h = hit.get(o.net);
      if (!h) hit.set(o.net, (h = new Set()));
      h.add(o.join);
      if (why && !cut.has(o.net)) cut.set(o.net, why);
    };
    for (const i of [...flagged.tracks].sort((a, b) => a - b)) note(tOrigin[i], flagged.why.get(`t${i}`));
    for (const i of [...flagged.vias].sort((a, b) => a - b)) note(vOrigin[i], flagged.why.get(`v${i}`));
    for (const [net, joins] of [...hit.entries()].sort((a, b) => a[0] - b[0])) {
      kept.set(net, survivors(kept.get(net) ?? [], joins, forest));
      if (!cut.has(net)) cut.set(net, 'the design-rule check flagged it');
    }
  }
  return cut;
}
