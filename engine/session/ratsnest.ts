// The open connections of a state, on the DRC's connectivity: the board with the session copper
// added is clustered by engine/drc (so the count is the DRC's unconnected count, which agrees
// with kicad-cli's), and each net's clusters are linked by a minimum spanning tree over their
// closest pad pairs (or pad and zone fill), which names the two ends of each open connection.
// What touches what is decided only there; this file only picks the ends to name.

import { withCopper } from '../board/added-copper.ts';
import type { Board } from '../board/model.ts';
import { CopperItems } from '../drc/copper-items.ts';
import { connect } from '../drc/connectivity.ts';
import { bbox, type Box } from '../geom/index.ts';
import type { SessionCopper } from './copper.ts';

/** One end of an open connection: a pad (index into board.pads), or a zone of the net with
 *  `near`, the pad of the zone's piece nearest the other end (every piece that is a ratsnest node
 *  holds one), so a tool that joins pads can still make the connection. */
export type End = { pad: number } | { zone: number; near: number };

/** The pad a tool that joins pads uses for an end: the pad itself, or the zone piece's nearest. */
export function padOf(e: End): number {
  return 'pad' in e ? e.pad : e.near;
}

export interface OpenConnection {
  net: number;
  a: End;
  b: End;
  /** Straight distance between the ends, nm (a double: for display and ordering). */
  length: number;
}

/** One ratsnest node: a cluster holding a pad, with its pads' anchors and its zone fills' boxes. */
interface Cluster {
  pads: { pad: number; x: number; y: number }[];
  zones: { zone: number; box: Box }[];
}

/** Squared distance from a point to a box (0 inside), nm². */
function boxDist2(b: Box, x: number, y: number): number {
  const dx = x < b.minX ? b.minX - x : x > b.maxX ? x - b.maxX : 0;
  const dy = y < b.minY ? b.minY - y : y > b.maxY ? y - b.maxY : 0;
  return dx * dx + dy * dy;
}

/**
 * The open connections of every net, ordered by net code, then length. `zones: false` leaves
 * zone fills out, so what they would carry shows as open (the router's soft-zone view).
 */
export function openConnections(board: Board, copper: SessionCopper, opts: { zones: boolean }): OpenConnection[] {
  const withAdded = withCopper(board, copper.tracks, copper.vias);
  const items = new CopperItems(opts.zones ? withAdded : { ...withAdded, zones: [] }, 0);
  const { uf } = connect(items);
  // As the DRC counts: only clusters holding a pad are ratsnest nodes (a lone track, via or
  // zone island is orphaned); a zone fill in such a cluster may be the nearer end.
  const byNet = new Map<number, Map<number, Cluster>>();
  const clusterOf = (net: number, root: number): Cluster => {
    let m = byNet.get(net);
    if (!m) byNet.set(net, (m = new Map()));
    let c = m.get(root);
    if (!c) m.set(root, (c = { pads: [], zones: [] }));
    return c;
  };
  for (const it of items.items) {
    if (it.net <= 0 || it.kind !== 'pad') continue;
    const at = it.anchors[0];
    clusterOf(it.net, uf.find(it.id)).pads.push({ pad: it.ref, x: at.x, y: at.y });
  }
  for (const it of items.items) {
    if (it.net <= 0 || it.kind !== 'zone') continue;
    const c = byNet.get(it.net)?.get(uf.find(it.id));
    if (c) c.zones.push({ zone: it.ref, box: bbox(it.shape) });
  }
  const out: OpenConnection[] = [];
  for (const net of [...byNet.keys()].sort((a, b) => a - b)) {
    const m = byNet.get(net)!;
    if (m.size < 2) continue;
    // Roots are item ids, so this order is the board's and the same on every run.
    const clusters = [...m.keys()].sort((a, b) => a - b).map((r) => m.get(r)!);
    out.push(...spanningTree(net, clusters));
  }
  return out;
}

interface Edge {
  d2: number;
  a: End;
  b: End;
}

/** The pad of a cluster nearest a point. */
function nearestPad(C: Cluster, x: number, y: number): number {
  let best = -1;
  let bestD2 = Infinity;
  for (const p of C.pads) {
    const d2 = (p.x - x) ** 2 + (p.y - y) ** 2;
    if (d2 < bestD2) [best, bestD2] = [p.pad, d2];
  }
  return best;
}

/** The closest ends of two clusters: pad to pad, or a pad of one to a zone fill of the other. */
function closest(A: Cluster, B: Cluster): Edge {
  let best: Edge = { d2: Infinity, a: { pad: -1 }, b: { pad: -1 } };
  for (const p of A.pads) {
    for (const q of B.pads) {
      const d2 = (p.x - q.x) ** 2 + (p.y - q.y) ** 2;
      if (d2 < best.d2) best = { d2, a: { pad: p.pad }, b: { pad: q.pad } };
    }
    for (const z of B.zones) {
      const d2 = boxDist2(z.box, p.x, p.y);
      if (d2 < best.d2) best = { d2, a: { pad: p.pad }, b: { zone: z.zone, near: nearestPad(B, p.x, p.y) } };
    }
  }
  for (const z of A.zones) {
    for (const q of B.pads) {
      const d2 = boxDist2(z.box, q.x, q.y);
      if (d2 < best.d2) best = { d2, a: { zone: z.zone, near: nearestPad(A, q.x, q.y) }, b: { pad: q.pad } };
    }
  }
  return best;
}

/** Prim's tree over a net's clusters (KiCad's ratsnest is such a tree): one edge per missing link. */
function spanningTree(net: number, clusters: Cluster[]): OpenConnection[] {
  const n = clusters.length;
  const inTree = new Uint8Array(n);
  const edge: Edge[] = new Array(n);
  inTree[0] = 1;
  for (let j = 1; j < n; j++) edge[j] = closest(clusters[0], clusters[j]);
  const out: OpenConnection[] = [];
  for (let k = 1; k < n; k++) {
    let pick = -1;
    for (let j = 1; j < n; j++) if (!inTree[j] && (pick < 0 || edge[j].d2 < edge[pick].d2)) pick = j;
    inTree[pick] = 1;
    const e = edge[pick];
    out.push({ net, a: e.a, b: e.b, length: Math.sqrt(e.d2) });
    for (let j = 1; j < n; j++) {
      if (inTree[j]) continue;
      const f = closest(clusters[pick], clusters[j]);
      if (f.d2 < edge[j].d2) edge[j] = f;
    }
  }
  return out.sort((x, y) => x.length - y.length);
}
