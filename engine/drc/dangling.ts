// Dangling tracks and vias, as KiCad's connectivity provider finds them (TestTrackEndpointDangling):
// a track is dangling when one of its ends touches nothing it is linked to; a via when everything
// it is linked to lies on one layer (or nothing at all). Links come from connectivity.ts and may
// cross nets.

import { compareDistance } from '../geom/collide.ts';
import { circle } from '../geom/shapes.ts';
import type { Pt } from '../board/model.ts';
import type { Connectivity } from './connectivity.ts';
import type { CopperItem, CopperItems } from './copper-items.ts';
import { itemRef } from './clearance.ts';
import type { ViolationSink } from './violation.ts';

function lowestLayer(mask: number): number {
  return mask === 0 ? -1 : 31 - Math.clz32(mask & -mask);
}

// KiCad's "hit": the point is strictly within (width + 1) / 2 of the item's copper.
function hits(it: CopperItem, p: Pt, reach: number): boolean {
  return compareDistance(it.shape, circle(p.x, p.y, 0), reach) < 0;
}

// KiCad's getMinDist: how far a point is from an item's position — the nearer end of a track,
// else the item's position (a pad's is its hole centre, not its copper offset), nm. A double: it
// is only compared, and hypot of nm differences errs far below 1 nm.
function minDist(copper: CopperItems, it: CopperItem, p: Pt): number {
  if (it.kind === 'track') {
    const [a, b] = it.anchors;
    return Math.min(Math.hypot(p.x - a.x, p.y - a.y), Math.hypot(p.x - b.x, p.y - b.y));
  }
  const at = it.kind === 'pad' ? copper.board.pads[it.ref].at : it.anchors.length ? it.anchors[0] : p;
  return Math.hypot(p.x - at.x, p.y - at.y);
}

/** Reports `track_dangling` and `via_dangling` for the given item ids (default: all). */
export function checkDangling(copper: CopperItems, conn: Connectivity, sink: ViolationSink, scope?: Set<number>): void {
  const wantT = sink.wants('track_dangling');
  const wantV = sink.wants('via_dangling');
  if (!wantT && !wantV) return;
  for (const it of copper.items) {
    if (scope && !scope.has(it.id)) continue;
    // Copper without a net is never judged dangling (KiCad skips it).
    if (it.net <= 0) continue;
    const linked = conn.links.get(it.id) ?? [];
    if (it.kind === 'track' && wantT) {
      const t = copper.board.tracks[it.ref];
      const reach = Math.trunc((t.width + 1) / 2);
      let startCount = 0;
      let endCount = 0;
      let ok = false;
      for (const j of linked) {
        const o = copper.items[j];
        const hs = hits(o, t.start, reach);
        const he = hits(o, t.end, reach);
        if (hs && he) {
          // A track wholly inside a zone fill, pad or via is redundant but never dangling (KiCad's
          // DRC asks the connectivity to ignore tracks in pads).
          if (o.kind === 'zone' || o.kind === 'pad' || o.kind === 'via') {
            ok = true;
            break;
          }
          // Both ends on one item: it serves the end nearer its own ends (or position); a stub
          // laid along a longer track from that track's end serves only that end.
          if (minDist(copper, o, t.start) < minDist(copper, o, t.end)) startCount++;
          else endCount++;
        } else if (hs) startCount++;
        else if (he) endCount++;
        if (startCount > 0 && endCount > 0) {
          ok = true;
          break;
        }
      }
      if (!ok) {
        const pos = startCount === 0 ? t.start : t.end;
        sink.add('track_dangling', 'Track has unconnected end', pos, [it.net], [itemRef(it)]);
      }
    } else if (it.kind === 'via' && wantV) {
      const v = copper.board.vias[it.ref];
      let first = -1;
      let multi = false;
      for (const j of linked) {
        const o = copper.items[j];
        const l = o.kind === 'via' ? copper.board.vias[o.ref].layerFrom : lowestLayer(o.layers);
        if (first < 0) first = l;
        else if (l !== first) {
          multi = true;
          break;
        }
      }
      if (!multi) sink.add('via_dangling', 'Via is not connected or connected on only one layer', v.at, [it.net], [itemRef(it)]);
    }
  }
}
