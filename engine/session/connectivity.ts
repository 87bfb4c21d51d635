// Which copper of a net touches which, and the open connections that remain: pads, tracks and
// vias (board and session) and zone fills are joined when their copper overlaps on a shared
// layer; each net's islands are then linked by a minimum spanning tree over pad-to-pad
// distances, KiCad's ratsnest. This is the session's view for listing; the router and the DRC
// keep their own exact models for deciding.

import type { Board, Pad } from '../board/model.ts';
import { type Box, boxGap, bbox, circle, overlaps, padShape, polygon, segment, SpatialIndex, type Shape } from '../geom/index.ts';
import type { SessionCopper } from './copper.ts';

/** One end of an open connection: a pad (index into board.pads), or a zone of the net. */
export type End = { pad: number } | { zone: number };

export interface OpenConnection {
  net: number;
  a: End;
  b: End;
  /** Straight distance between the ends, nm. */
  length: number;
}

interface Item {
  net: number;
  layers: number;
  shape: Shape;
  pad?: number;
  zone?: number;
}

/** KiCad's pad description for geom's padShape. */
export function padGeometry(p: Pad): Shape {
  return padShape({
    shape: p.shape,
    x: p.at.x,
    y: p.at.y,
    sizeX: p.size.w,
    sizeY: p.size.h,
    rotation: p.rotation,
    offsetX: p.offset.x,
    offsetY: p.offset.y,
    roundrectRatio: p.roundrectRatio,
    chamferRatio: p.chamferRatio,
    chamfer: { topLeft: !!(p.chamferCorners & 1), topRight: !!(p.chamferCorners & 2), bottomLeft: !!(p.chamferCorners & 4), bottomRight: !!(p.chamferCorners & 8) },
    deltaX: p.delta.x,
    deltaY: p.delta.y,
    anchor: p.anchor,
  });
}

function flat(pts: readonly { x: number; y: number }[]): number[] {
  const out: number[] = [];
  for (const q of pts) out.push(q.x, q.y);
  return out;
}

function viaMask(from: number, to: number): number {
  let m = 0;
  for (let i = from; i <= to; i++) m |= 1 << i;
  return m >>> 0;
}

function items(board: Board, copper: SessionCopper, zones: boolean): Item[] {
  const out: Item[] = [];
  for (const p of board.pads) if (p.net > 0 && p.layers) out.push({ net: p.net, layers: p.layers, shape: padGeometry(p), pad: p.index });
  const tracks = [...board.tracks.map((t) => ({ ...t })), ...copper.tracks];
  // Arcs join like their chord's ends: connectivity only needs where the ends touch.
  for (const t of tracks) if (t.net > 0) out.push({ net: t.net, layers: 1 << t.layer, shape: segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width) });
  for (const v of [...board.vias, ...copper.vias]) if (v.net > 0) out.push({ net: v.net, layers: viaMask(v.layerFrom, v.layerTo), shape: circle(v.at.x, v.at.y, v.size / 2) });
  if (zones) {
    for (const z of board.zones) {
      if (z.keepout || z.net <= 0) continue;
      for (const layer of [...z.fills.keys()].sort((a, b) => a - b)) {
        for (const poly of z.fills.get(layer)!) {
          if (poly.outline.length < 3) continue;
          out.push({ net: z.net, layers: 1 << layer, shape: polygon(flat(poly.outline), poly.holes.map(flat)), zone: z.index });
        }
      }
    }
  }
  return out;
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  // The smaller index stays root, so islands are named the same on every run.
  if (ra < rb) parent[rb] = ra;
  else if (rb < ra) parent[ra] = rb;
}

/** Squared distance from p to a box (0 inside), nm². */
function boxDist2(b: Box, x: number, y: number): number {
  const dx = x < b.minX ? b.minX - x : x > b.maxX ? x - b.maxX : 0;
  const dy = y < b.minY ? b.minY - y : y > b.maxY ? y - b.maxY : 0;
  return dx * dx + dy * dy;
}

/**
 * The open connections of every net (or only `net`), ordered by net code then length.
 * `zones: false` leaves zone fills out, so what they would carry shows as open.
 */
export function openConnections(board: Board, copper: SessionCopper, opts: { zones: boolean; net?: number }): OpenConnection[] {
  const all = items(board, copper, opts.zones).filter((it) => opts.net === undefined || it.net === opts.net);
  const boxes = all.map((it) => bbox(it.shape));
  const index = new SpatialIndex(boxes, 0);
  const parent = new Int32Array(all.length);
  for (let i = 0; i < all.length; i++) parent[i] = i;
  for (let i = 0; i < all.length; i++) {
    for (const j of index.query(boxes[i])) {
      if (j <= i) continue;
      const a = all[i];
      const b = all[j];
      if (a.net !== b.net || (a.layers & b.layers) === 0) continue;
      if (a.zone !== undefined && b.zone !== undefined && a.zone !== b.zone) continue;
      if (find(parent, i) === find(parent, j)) continue;
      if (overlaps(a.shape, b.shape)) union(parent, i, j);
    }
  }
  // Islands per net: the pads and zone pieces of each; islands without either are dangling copper.
  const islands = new Map<number, { net: number; pads: number[]; zones: number[] }>();
  for (let i = 0; i < all.length; i++) {
    const it = all[i];
    if (it.pad === undefined && it.zone === undefined) continue;
    const r = find(parent, i);
    let isl = islands.get(r);
    if (!isl) islands.set(r, (isl = { net: it.net, pads: [], zones: [] }));
    if (it.pad !== undefined) isl.pads.push(i);
    else isl.zones.push(i);
  }
  const byNet = new Map<number, { pads: number[]; zones: number[] }[]>();
  for (const isl of islands.values()) {
    let list = byNet.get(isl.net);
    if (!list) byNet.set(isl.net, (list = []));
    list.push(isl);
  }
  const out: OpenConnection[] = [];
  for (const net of [...byNet.keys()].sort((a, b) => a - b)) {
    const isl = byNet.get(net)!;
    if (isl.length < 2) continue;
    out.push(...spanningTree(net, isl, all, boxes));
  }
  return out;
}

/** Prim's tree over islands; the edge between two islands is their closest pad pair (or pad–zone). */
function spanningTree(net: number, isl: { pads: number[]; zones: number[] }[], all: Item[], boxes: Box[]): OpenConnection[] {
  const n = isl.length;
  const closest = (a: number, b: number): { d2: number; a: End; b: End } => {
    let best = { d2: Infinity, a: { pad: -1 } as End, b: { pad: -1 } as End };
    const A = isl[a];
    const B = isl[b];
    for (const i of A.pads) {
      const p = boxes[i];
      const px = (p.minX + p.maxX) / 2;
      const py = (p.minY + p.maxY) / 2;
      for (const j of B.pads) {
        const q = boxes[j];
        const d2 = (px - (q.minX + q.maxX) / 2) ** 2 + (py - (q.minY + q.maxY) / 2) ** 2;
        if (d2 < best.d2) best = { d2, a: { pad: all[i].pad! }, b: { pad: all[j].pad! } };
      }
      for (const j of B.zones) {
        const d2 = boxDist2(boxes[j], px, py);
        if (d2 < best.d2) best = { d2, a: { pad: all[i].pad! }, b: { zone: all[j].zone! } };
      }
    }
    if (A.pads.length === 0 && B.pads.length === 0) {
      for (const i of A.zones) for (const j of B.zones) {
        const d = boxGap(boxes[i], boxes[j]);
        if (d * d < best.d2) best = { d2: d * d, a: { zone: all[i].zone! }, b: { zone: all[j].zone! } };
      }
    } else if (A.pads.length === 0) {
      const r = closest(b, a);
      return { d2: r.d2, a: r.b, b: r.a };
    }
    return best;
  };
  const inTree = new Uint8Array(n);
  const dist = new Array<number>(n).fill(Infinity);
  const edge: ({ d2: number; a: End; b: End } | undefined)[] = new Array(n);
  inTree[0] = 1;
  for (let j = 1; j < n; j++) {
    const e = closest(0, j);
    dist[j] = e.d2;
    edge[j] = e;
  }
  const out: OpenConnection[] = [];
  for (let k = 1; k < n; k++) {
    let pick = -1;
    for (let j = 0; j < n; j++) if (!inTree[j] && (pick < 0 || dist[j] < dist[pick])) pick = j;
    inTree[pick] = 1;
    const e = edge[pick]!;
    if (Number.isFinite(e.d2)) out.push({ net, a: e.a, b: e.b, length: Math.sqrt(e.d2) });
    for (let j = 0; j < n; j++) {
      if (inTree[j]) continue;
      const f = closest(pick, j);
      if (f.d2 < dist[j]) {
        dist[j] = f.d2;
        edge[j] = f;
      }
    }
  }
  return out.sort((x, y) => x.length - y.length);
}
