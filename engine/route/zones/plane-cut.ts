// Whether a change of new copper cuts a zone's plane. The router weighs its own copper against
// the planes KiCad refills around it (zones/plane-joins.ts); a step after its final gate that lays
// copper again — a pair laid as a pair — asks here before it keeps what it laid.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { bbox, boxesOverlap, inflateBox, unionBox, type Box } from '../../geom/index.ts';
import { connectedPieces, hostItems, trackItem, viaItem, type ConnItem } from '../negotiate/connectivity.ts';
import type { Grid } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import { planeComponents, zoneFills } from './plane-joins.ts';
import { byNetName } from '../core/net-rank.ts';

/** New copper: what a route adds to the board. */
export interface NewCopper {
  tracks: readonly NewTrack[];
  vias: readonly NewVia[];
}

/** How far past the copper that changed a plane is looked at (nm): a refill's clearance and
 *  a neck beside it are well inside. */
const REACH = 3_000_000;

/**
 * The zone nets (ascending) whose copper falls into more pieces with `after` than with `before`:
 * each piece its pads, fixed copper and new copper join, with its planes refilled around the
 * other nets' new copper. Only zone nets with a plane near the copper that changed are weighed.
 */
export function planesCut(host: RouterHost, grid: Grid, before: NewCopper, after: NewCopper): number[] {
  const changed = changedBox(before, after);
  if (!changed) return [];
  const near = inflateBox(changed, REACH);
  const fills = zoneFills(host);
  const base = hostItems(host).filter((it) => !it.zone);
  const out: number[] = [];
  for (const net of [...fills.keys()].sort(byNetName(host))) {
    const mine = fills.get(net)!;
    if (!mine.some((f) => boxesOverlap(bbox(f.shape), near))) continue;
    const pieces = (copper: NewCopper) => {
      const items: ConnItem[] = [...base.filter((it) => it.net === net), ...itemsOf(copper).filter((it) => it.net === net)];
      const groups = connectedPieces(items).get(net) ?? [];
      const comp = planeComponents(host, grid, net, groups.length, groups, items, mine, copper.tracks, copper.vias);
      return new Set(comp).size;
    };
    if (pieces(after) > pieces(before)) out.push(net);
  }
  return out;
}

/** New copper as connectivity items, each with a key that names it exactly. */
function itemsOf(copper: NewCopper): (ConnItem & { key: string })[] {
  return [
    ...copper.tracks.map((t) => ({ ...trackItem(t), key: JSON.stringify(['t', t.net, t.layer, t.width, t.start, t.end]) })),
    ...copper.vias.map((v) => ({ ...viaItem(v), key: JSON.stringify(['v', v.net, v.at, v.size, v.layerFrom, v.layerTo]) })),
  ];
}

/** The box of the tracks and vias in one of `a` and `b` but not the other; undefined when none. */
function changedBox(a: NewCopper, b: NewCopper): Box | undefined {
  const ia = itemsOf(a);
  const ib = itemsOf(b);
  const ka = new Set(ia.map((i) => i.key));
  const kb = new Set(ib.map((i) => i.key));
  let box: Box | undefined;
  for (const it of [...ia.filter((i) => !kb.has(i.key)), ...ib.filter((i) => !ka.has(i.key))]) box = box ? unionBox(box, bbox(it.shape)) : bbox(it.shape);
  return box;
}
