// Dangling tracks and vias, as KiCad's connectivity provider finds them: a track is dangling when
// one of its ends touches nothing it is linked to; a via when everything it is linked to lies on
// one layer (or nothing at all). Links come from connectivity.ts and may cross nets.

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

function nearer(it: CopperItem, p: Pt, q: Pt): boolean {
  // Both ends hit: the end nearer to the item is the one it serves (short stubs inside a pad).
  const dp = Math.hypot(p.x - centreX(it), p.y - centreY(it));
  const dq = Math.hypot(q.x - centreX(it), q.y - centreY(it));
  return dp < dq;
}

function centreX(it: CopperItem): number {
  return it.anchors.length ? it.anchors[0].x : 0;
}
function centreY(it: CopperItem): number {
  return it.anchors.length ? it.anchors[0].y : 0;
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
          // A track wholly inside a pad or via is a fan-out stub, never dangling (KiCad's DRC
          // asks the connectivity to ignore tracks in pads).
          if (o.kind === 'pad' || o.kind === 'via') {
            ok = true;
            break;
          }
          if (nearer(o, t.start, t.end)) startCount++;
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
        sink.add('track_dangling', 'Track has unconnected end', pos, [t.net], [itemRef(it)]);
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
      if (!multi) sink.add('via_dangling', 'Via is not connected or connected on only one layer', v.at, [v.net], [itemRef(it)]);
    }
  }
}
