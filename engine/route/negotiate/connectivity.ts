// The router's own connectivity: which pads of a net already share copper (pads touching,
// existing tracks and vias, zone fills reaching pads), as union-find over same-net items on a
// common layer, joined by the DRC's own contact rule (KiCad's: more than a touch).

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { bbox, circle, segment, type Box, type Shape } from '../../geom/index.ts';
import type { RouterHost } from '../core/host.ts';
import { spanMask } from '../core/via-span.ts';
import { joins, UnionFind } from '../../drc/connectivity.ts';

export interface ConnItem {
  net: number;
  layers: number;
  shape: Shape;
  /** Pad index into host.pads, or -1 for other copper. */
  pad: number;
  /** A zone fill (an island of it no pad touches is removed by KiCad's refill). */
  zone?: boolean;
}

function boxesTouch(a: Box, b: Box): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

/** Groups items into connected pieces per net: returns, per net, its pieces as item lists
 *  (each piece's items and the pieces in place order: placeOrder). Nets with items on net 0 are skipped. */
export function connectedPieces(items: readonly ConnItem[]): Map<number, number[][]> {
  const uf = new UnionFind(items.length);
  const byNet = new Map<number, number[]>();
  items.forEach((it, i) => {
    if (it.net <= 0) return;
    let l = byNet.get(it.net);
    if (!l) byNet.set(it.net, (l = []));
    l.push(i);
  });
  const boxes = items.map((it) => bbox(it.shape));
  for (const list of byNet.values()) {
    // Sweep on x so only items whose boxes overlap in x are compared.
    const order = [...list].sort((a, b) => boxes[a].minX - boxes[b].minX || a - b);
    for (let i = 0; i < order.length; i++) {
      const a = order[i];
      for (let j = i + 1; j < order.length; j++) {
        const b = order[j];
        if (boxes[b].minX > boxes[a].maxX) break;
        if ((items[a].layers & items[b].layers) === 0) continue;
        if (!boxesTouch(boxes[a], boxes[b])) continue;
        if (uf.find(a) === uf.find(b)) continue;
        if (joins(items[a].shape, items[b].shape)) uf.union(a, b);
      }
    }
  }
  const out = new Map<number, number[][]>();
  for (const net of [...byNet.keys()].sort((a, b) => a - b)) {
    const groups = new Map<number, number[]>();
    for (const i of byNet.get(net)!) {
      const r = uf.find(i);
      let g = groups.get(r);
      if (!g) groups.set(r, (g = []));
      g.push(i);
    }
    // By where the items lie, not where the board lists them: KiCad 9 and 10 list the same board's
    // items (and number its nets) differently, and a route must not depend on either.
    const byPlace = (a: number, b: number) => placeOrder(items, boxes, a, b);
    const placed = [...groups.values()].map((g) => g.sort(byPlace));
    out.set(
      net,
      placed.sort((a, b) => byPlace(a[0], b[0])),
    );
  }
  return out;
}

/** Pads before other copper (a piece with a pad starts with one, as the router's pieces and
 *  their labels expect), then by box (left, top, right, bottom), then layers; the index decides
 *  only between items alike in all of these. */
function placeOrder(items: readonly ConnItem[], boxes: readonly Box[], a: number, b: number): number {
  const p = boxes[a];
  const q = boxes[b];
  return (
    Number(items[b].pad >= 0) - Number(items[a].pad >= 0) ||
    p.minX - q.minX ||
    p.minY - q.minY ||
    p.maxX - q.maxX ||
    p.maxY - q.maxY ||
    items[a].layers - items[b].layers ||
    a - b
  );
}

/** The connectivity items of a host: its pads, then fixed tracks, vias and zone fills. */
export function hostItems(host: RouterHost): ConnItem[] {
  const items: ConnItem[] = host.pads.map((p, i) => ({ net: p.net, layers: p.layers, shape: p.shape, pad: i }));
  for (const o of host.obstacles) {
    if ((o.kind === 'track' || o.kind === 'via' || o.kind === 'zone') && o.net > 0)
      items.push({ net: o.net, layers: o.layers, shape: o.shape, pad: -1, zone: o.kind === 'zone' });
  }
  return items;
}

/** A new track as a connectivity item. */
export function trackItem(t: NewTrack): ConnItem {
  return { net: t.net, layers: 1 << t.layer, shape: segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), pad: -1 };
}

/** A new via as a connectivity item, on every layer it spans. */
export function viaItem(v: NewVia): ConnItem {
  return { net: v.net, layers: spanMask(v.layerFrom, v.layerTo), shape: circle(v.at.x, v.at.y, v.size / 2), pad: -1 };
}
