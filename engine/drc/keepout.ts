// Keep-out rule areas (`items_not_allowed`): a track, via, pad or copper fill that a rule area
// forbids, on one of its layers, is reported once, as KiCad 9's disallow provider does through
// the implicit rule "A.intersectsArea(area)". The area is first shrunk by the DRC epsilon so
// copper that only touches its border (a fill knocked out against it) passes; contact with the
// shrunk area counts. Footprint keep-outs (courtyards) are not modelled: the board model has none.

import type { Pt, Zone } from '../board/model.ts';
import { shrunkArea, touchesArea, type ShrunkArea as Area } from '../board/rule-area.ts';
import { bbox } from '../geom/shapes.ts';
import { itemRef } from './clearance.ts';
import type { CopperItem, CopperItems } from './copper-items.ts';
import type { ViolationSink } from './violation.ts';

export { deflateRing } from '../board/rule-area.ts';

function forbids(zone: Zone, it: CopperItem): boolean {
  const k = zone.keepout!;
  switch (it.kind) {
    case 'track':
      return k.tracks;
    case 'via':
      return k.vias;
    case 'pad':
      // A footprint's own rule area does not forbid its pads.
      return k.pads && it.footprint !== zone.footprint;
    case 'zone':
      return k.copperpour;
    case 'graphic':
      return false;
  }
}

function position(copper: CopperItems, it: CopperItem): Pt {
  const b = copper.board;
  switch (it.kind) {
    case 'pad':
      return b.pads[it.ref].at;
    case 'track':
      return b.tracks[it.ref].start;
    case 'via':
      return b.vias[it.ref].at;
    default:
      return it.anchors[0] ?? { x: 0, y: 0 };
  }
}

/** Reports `items_not_allowed` for the given item ids (default: all). */
export function checkKeepouts(copper: CopperItems, sink: ViolationSink, scope?: Set<number>): void {
  if (!sink.wants('items_not_allowed')) return;
  const areas: Area[] = [];
  for (const z of copper.board.zones) {
    if (!z.keepout) continue;
    const a = shrunkArea(z);
    if (a) areas.push(a);
  }
  if (areas.length === 0) return;
  // A zone is one finding however many of its fill polygons reach into the area.
  const zoneReported = new Set<number>();
  for (const it of copper.items) {
    if (scope && !scope.has(it.id)) continue;
    if (it.kind === 'zone' && zoneReported.has(it.ref)) continue;
    for (const area of areas) {
      if (!forbids(area.zone, it) || (it.layers & area.zone.layers) === 0) continue;
      const b = bbox(it.shape);
      if (b.maxX < area.box.minX || b.minX > area.box.maxX || b.maxY < area.box.minY || b.minY > area.box.maxY) continue;
      if (!touchesArea(area, it.shape)) continue;
      const name = area.zone.name ? `keepout area '${area.zone.name}'` : 'keepout area';
      sink.add('items_not_allowed', `Items not allowed (${name})`, position(copper, it), [it.net], [itemRef(it)]);
      if (it.kind === 'zone') zoneReported.add(it.ref);
      break;
    }
  }
}
