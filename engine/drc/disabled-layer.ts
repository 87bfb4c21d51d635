// Tracks and vias on copper layers the board does not enable (`item_on_disabled_layer`). The
// reader keeps them apart (board.offLayerItems) so no other check sees them as copper. KiCad 9
// still connects them there: a plated through-hole pad has copper on every copper layer of its
// "*.Cu" set, enabled or not, so an off-layer track can reach such a pad and nothing else. KiCad
// 10 gives a pad copper on enabled layers only, so there an off-layer track reaches nothing (on
// kicad-demo_ecc83-pp it is a ratsnest node apart from the GND pad it starts on). Its dangling
// end and its own ratsnest cluster follow from that, and are counted here.

import type { Board, OffLayerItem, Pt } from '../board/model.ts';
import { compareDistance } from '../geom/collide.ts';
import { circle } from '../geom/shapes.ts';
import type { CopperItems } from './copper-items.ts';
import { judgedByKicad10 } from '../board/kicad-version.ts';
import type { ViolationSink } from './violation.ts';

// The plated through-hole pads an end point lies on (KiCad's "hit": strictly within
// (width + 1) / 2 of the pad copper, as in dangling.ts). Any net: a track touching a foreign pad
// is linked to it (and shorted, which the clearance check of real layers would say).
function padsAt(copper: CopperItems, t: OffLayerItem, p: Pt): number[] {
  const reach = Math.trunc(((t.width ?? 0) + 1) / 2);
  const dot = circle(p.x, p.y, 0);
  const out: number[] = [];
  for (const j of copper.near(dot, reach)) {
    const it = copper.items[j];
    if (it.kind !== 'pad' || copper.board.pads[it.ref].type !== 'thru_hole') continue;
    if (compareDistance(it.shape, dot, reach) < 0) out.push(j);
  }
  return out;
}

/**
 * Reports every off-layer item once, and off-layer tracks with a net as dangling unless both
 * ends lie on through-hole pads (KiCad 9; under KiCad 10 no end does). Returns the ratsnest clusters they add: one for each such
 * track that reaches no pad at all. With no sink, only counts (a scoped run reports nothing
 * of the board's own items).
 */
export function checkDisabledLayers(board: Board, copper: CopperItems, sink: ViolationSink | null): number {
  let clusters = 0;
  const padsReach = !judgedByKicad10(board);
  (board.offLayerItems ?? []).forEach((it, index) => {
    const ref = [{ kind: 'off_layer' as const, index }];
    sink?.add('item_on_disabled_layer', `Item on a disabled copper layer (layer ${it.layerName})`, it.at, [it.net], ref);
    // Copper without a net is never judged dangling nor counted (as in dangling.ts).
    if (it.kind !== 'track' || !it.end || it.net <= 0) return;
    const a = padsReach ? padsAt(copper, it, it.at) : [];
    const b = padsReach ? padsAt(copper, it, it.end) : [];
    if (a.length === 0 && b.length === 0) clusters++;
    if (a.length === 0 || b.length === 0) sink?.add('track_dangling', 'Track has unconnected end', a.length === 0 ? it.at : it.end, [it.net], ref);
  });
  return clusters;
}
