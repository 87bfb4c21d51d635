// What one net needs: its pieces (pads and copper already connected together), where a route
// may end on each piece, and the order in which the pieces are joined (nearest first, Prim).

import type { Pt } from '../../board/model.ts';
import { bbox, type Shape } from '../../geom/index.ts';
import { padAccess, sitesInside } from './access.ts';
import type { Checker } from '../core/checker.ts';
import type { ConnItem } from './connectivity.ts';
import type { Grid } from '../core/grid.ts';
import type { HostPad, RouterHost } from '../core/host.ts';
import type { ObstacleMap } from '../core/obstacle-map.ts';
import type { Stub } from '../core/path-geometry.ts';

export interface Piece {
  /** Host pad indices in the piece. */
  pads: number[];
  /** Nodes a route may start or end on. */
  nodes: number[];
  stubs: Map<number, Stub>;
  /** Points to measure distances between pieces (pad centres, else copper box centres). */
  anchors: Pt[];
  /** Layers the piece's nodes lie on. */
  layers: number;
  /** Its copper (pads and tracks, with their layer masks): where a route could touch it at
   *  any width, for the proof that a pad is fenced in (fence-proof.ts). */
  copper: { shape: Shape; layers: number }[];
}

export interface NetPlan {
  net: number;
  profile: number;
  pieces: Piece[];
  /** Smallest pad dimension among its pads, nm (fine-pitch parts route first under escapePlan). */
  minPad: number;
  /** Estimated length: sum of the Prim tree over piece anchors, nm. */
  span: number;
  /** Join the pieces in index order, each leg from the piece before (a route through
   *  waypoints), instead of nearest first from the whole tree. */
  sequence?: boolean;
}

function dist(a: Pt, b: Pt): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Smallest anchor distance between two pieces, nm. */
export function pieceDistance(a: Piece, b: Piece): number {
  let m = Infinity;
  for (const p of a.anchors) for (const q of b.anchors) m = Math.min(m, dist(p, q));
  return m;
}

/**
 * A net's pieces with the one its tree grows from first: the piece holding a pin of the net's
 * biggest part (most pads: the chip or connector that drives the net), as a designer fans a net
 * out from its driver; otherwise, and between equals, the order given (connectedPieces' place
 * order), so the start never depends on the order a board file lists its parts in.
 */
export function rootFirst(host: RouterHost, items: readonly ConnItem[], groups: number[][]): number[][] {
  if (groups.length < 2) return groups;
  const sizes = partPads(host);
  const part = (g: number[]) => {
    let most = 0;
    for (const i of g) if (items[i].pad >= 0) most = Math.max(most, sizes.get(host.pads[items[i].pad].ref) ?? 0);
    return most;
  };
  let root = 0;
  let best = part(groups[0]);
  for (let k = 1; k < groups.length; k++) {
    const w = part(groups[k]);
    if (w > best) [root, best] = [k, w];
  }
  return root === 0 ? groups : [groups[root], ...groups.slice(0, root), ...groups.slice(root + 1)];
}

const partSizes = new WeakMap<readonly HostPad[], Map<string, number>>();

/** Pads per part reference of a host, counted once per host. */
function partPads(host: RouterHost): Map<string, number> {
  let m = partSizes.get(host.pads);
  if (!m) {
    m = new Map();
    for (const p of host.pads) if (p.ref) m.set(p.ref, (m.get(p.ref) ?? 0) + 1);
    partSizes.set(host.pads, m);
  }
  return m;
}

/** Builds a net's plan from its connectivity groups (item indices into `items`). */
export function planNet(
  host: RouterHost,
  grid: Grid,
  map: ObstacleMap,
  checker: Checker,
  items: readonly ConnItem[],
  groups: number[][],
  net: number,
  profile: number,
  width: (layer: number) => number,
): NetPlan {
  const pieces: Piece[] = [];
  let minPad = Infinity;
  for (const g of groups) {
    const piece: Piece = { pads: [], nodes: [], stubs: new Map(), anchors: [], layers: 0, copper: [] };
    const seen = new Set<number>();
    for (const i of g) {
      const it = items[i];
      piece.copper.push({ shape: it.shape, layers: it.layers });
      if (it.pad >= 0) {
        const pad = host.pads[it.pad];
        piece.pads.push(it.pad);
        piece.anchors.push(pad.at);
        minPad = Math.min(minPad, pad.minSize);
        const acc = padAccess(grid, map, pad, width, checker, (l) => host.rules.minTrackWidth(net, l));
        for (const n of acc.nodes) {
          if (seen.has(n)) continue;
          seen.add(n);
          piece.nodes.push(n);
          const s = acc.stubs.get(n);
          if (s) piece.stubs.set(n, s);
        }
      } else {
        const b = bbox(it.shape);
        piece.anchors.push({ x: Math.round((b.minX + b.maxX) / 2), y: Math.round((b.minY + b.maxY) / 2) });
        for (const n of sitesInside(grid, map, it.shape, it.layers, net, b)) {
          if (seen.has(n)) continue;
          seen.add(n);
          piece.nodes.push(n);
        }
      }
    }
    for (const n of piece.nodes) piece.layers |= 1 << Math.floor(n / grid.cells);
    pieces.push(piece);
  }
  // Prim over anchors for the span estimate.
  let span = 0;
  if (pieces.length > 1) {
    const inTree = new Uint8Array(pieces.length);
    const best = new Float64Array(pieces.length).fill(Infinity);
    inTree[0] = 1;
    for (let j = 1; j < pieces.length; j++) best[j] = pieceDistance(pieces[0], pieces[j]);
    for (let k = 1; k < pieces.length; k++) {
      let bi = -1;
      for (let j = 0; j < pieces.length; j++) if (!inTree[j] && (bi < 0 || best[j] < best[bi])) bi = j;
      inTree[bi] = 1;
      span += best[bi];
      for (let j = 0; j < pieces.length; j++) if (!inTree[j]) best[j] = Math.min(best[j], pieceDistance(pieces[bi], pieces[j]));
    }
  }
  return { net, profile, pieces, minPad: minPad === Infinity ? 0 : minPad, span };
}
