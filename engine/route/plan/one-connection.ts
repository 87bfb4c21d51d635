// One connection asked for alone (an agent's route_connection, a repair's retry): the pieces
// holding its two pads, its waypoints as pieces of one grid site each, the box a corridor's grid
// covers, its finer end; and the reason it stays open said in the terms it was asked in.

import type { Pt } from '../../board/model.ts';
import { bbox, circle, mmText } from '../../geom/index.ts';
import type { Grid, GridWindow } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import type { ObstacleMap } from '../core/obstacle-map.ts';
import type { ConnItem } from '../negotiate/connectivity.ts';
import type { NetPlan } from '../negotiate/net-plan.ts';
import type { ConnectionResult, Attempt, Waypoint } from '../types.ts';

/** A connection's plan through its waypoints, and the first waypoint whose site the net may not
 *  use (-1 when none). */
export interface Legs {
  plan: NetPlan;
  walled: number;
}

/** A connection's plan through waypoints: each waypoint a piece of one grid site (the nearest
 *  to it, on its layer) between the two ends, joined in order. */
export function throughWaypoints(grid: Grid, map: ObstacleMap, plan: NetPlan, waypoints: readonly { at: Pt; layer: number }[]): Legs {
  let walled = -1;
  const mid = waypoints.map((w, i) => {
    const col = grid.col(w.at.x);
    const row = grid.row(w.at.y);
    const node = w.layer * grid.cells + row * grid.nx + col;
    const at = { x: grid.x0 + col * grid.step, y: grid.y0 + row * grid.step };
    const o = map.track[node];
    const free = o === 0 || o === plan.net;
    if (!free && walled < 0) walled = i;
    return {
      pads: [],
      nodes: free ? [node] : [],
      stubs: new Map(),
      anchors: [at],
      layers: 1 << w.layer,
      copper: [{ shape: circle(at.x, at.y, 1), layers: 1 << w.layer }],
    };
  });
  const [a, b] = plan.pieces;
  return { plan: { ...plan, pieces: [a, ...mid, b], sequence: true }, walled };
}

/** The pieces (item groups) holding a connection's two pads, and those pads' host indices;
 *  undefined when either pad is not of the net or both already share copper. */
export function connectionEnds(
  host: RouterHost,
  items: readonly ConnItem[],
  pieces: Map<number, number[][]>,
  conn: NonNullable<Attempt['connection']>,
): { a: number[]; b: number[]; padA: number; padB: number } | undefined {
  const padA = host.pads.findIndex((p) => p.index === conn.from);
  const padB = host.pads.findIndex((p) => p.index === conn.to);
  if (padA < 0 || padB < 0 || host.pads[padA].net !== conn.net || host.pads[padB].net !== conn.net) return undefined;
  const groups = pieces.get(conn.net) ?? [];
  const a = groups.find((g) => g.some((i) => items[i].pad === padA));
  const b = groups.find((g) => g.some((i) => items[i].pad === padB));
  if (!a || !b || a === b) return undefined;
  return { a, b, padA, padB };
}

/** The box a corridor's grid covers: the corridor, and round its ends and waypoints the steps
 *  siteCosts leaves open whatever the corridor (and one more). */
export function corridorWindow(host: RouterHost, corridor: GridWindow, pads: number[], waypoints: readonly Waypoint[], step: number): GridWindow {
  const w = { ...corridor };
  const take = (minX: number, minY: number, maxX: number, maxY: number) => {
    const m = 5 * step;
    w.minX = Math.min(w.minX, minX - m);
    w.minY = Math.min(w.minY, minY - m);
    w.maxX = Math.max(w.maxX, maxX + m);
    w.maxY = Math.max(w.maxY, maxY + m);
  };
  for (const i of pads) {
    const b = bbox(host.pads[i].shape);
    take(b.minX, b.minY, b.maxX, b.maxY);
  }
  for (const p of waypoints) take(p.at.x, p.at.y, p.at.x, p.at.y);
  return w;
}

/** The smaller of two pads (host indices), the first on a tie. */
export function finerEnd(host: RouterHost, a: number, b: number): number {
  return host.pads[b].minSize < host.pads[a].minSize ? b : a;
}
/** An open connection's reason in the terms it was asked in: a waypoint no track of the net may
 *  use, or a corridor the floods behind the reasons know nothing of. Rewrites `c` in place. */
export function sayAsAsked(host: RouterHost, conn: NonNullable<Attempt['connection']>, legs: Legs | undefined, c: ConnectionResult | undefined): void {
  const mm = (v: number) => mmText(v, 4, { trim: true, unit: false });
  if (legs && legs.walled >= 0 && c && !c.routed && c.stuck) {
    const w = conn.waypoints![legs.walled];
    c.stuck = {
      ...c.stuck,
      reason: 'blocked',
      at: w.at,
      layer: w.layer,
      why: `Waypoint ${legs.walled + 1} (${mm(w.at.x)}, ${mm(w.at.y)} mm on ${host.layerName(w.layer)}) is no site a track of this net may use there: other copper, a keep-out or the edge is too close.`,
    };
  } else if (conn.corridor && c && !c.routed && c.stuck && c.stuck.reason !== 'boxed_in' && c.stuck.reason !== 'unreachable') {
    // The floods behind the reasons know nothing of the corridor: say what was tried.
    const k = conn.corridor;
    c.stuck = {
      ...c.stuck,
      reason: 'blocked',
      why: `No legal route was found with its track centres inside the corridor [${[k.minX, k.minY, k.maxX, k.maxY].map(mm).join(', ')}] mm (a few grid steps round the ends allowed). Without the corridor: ${c.stuck.why}`,
    };
  }
}
