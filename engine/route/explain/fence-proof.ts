// The proof behind "boxed in": a flood over a relaxed map of the fixed world at the narrowest
// legal track and via (obstacle-map.ts `relaxed`: a site is walled only when no point of its cell
// could hold a centre), with this call's routes out of the way. What that flood cannot reach, no
// route of any legal width, on or off the grid, can reach; what it can, is not proven fenced.

import { bbox, compareDistance, type Shape } from '../../geom/index.ts';
import type { Grid } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import { BLOCKED, buildObstacleMap, obstacleMapWork, relaxSlack, type MapOptions, type ObstacleMap } from '../core/obstacle-map.ts';
import type { Profile } from '../core/profile.ts';

/** A piece's copper: what a route may end on. */
export interface PieceCopper {
  shape: Shape;
  layers: number;
}

export interface FenceVerdict {
  /** True only when the flood covered the whole region it could reach and never met the other end. */
  fenced: boolean;
  /** Sites the flood reached (its work). */
  region: number;
  /** False when the flood stopped at its limit: nothing is proven then. */
  complete: boolean;
  /** Sites next to the region that nets' fixed copper walls off, per net (BLOCKED: the board
   *  edge, a keep-out, a hole or where several nets' clearances meet). */
  cut: Map<number, number>;
}

/** The narrowest copper a net may route with, as a profile: the class's layers and vias but the
 *  rules' minimum track width and via size. */
export function narrowestProfile(host: RouterHost, base: Profile): Profile {
  const net = base.net;
  const width: number[] = [];
  for (let l = 0; l < host.layerCount; l++) width.push(Math.max(1, host.rules.minTrackWidth(net, l)));
  const v = host.rules.minVia?.(net) ?? host.rules.via(net);
  return { ...base, key: `${base.key}/narrowest`, width, viaDiameter: Math.min(v.diameter, base.viaDiameter), viaDrill: Math.min(v.drill, base.viaDrill) };
}

/** Zones are refilled and vias may sit in pads: the most any legal route could use. */
const RELAXED: MapOptions = { softZones: true, viaInPad: true, viasOffPads: false, relaxed: true };

/** The relaxed map of the fixed world for a profile's narrowest copper. */
export function relaxedMap(host: RouterHost, grid: Grid, base: Profile): ObstacleMap {
  return buildObstacleMap(host, grid, narrowestProfile(host, base), RELAXED);
}

/** The work relaxedMap spends, counted without building it (obstacleMapWork). */
export function relaxedMapWork(host: RouterHost, grid: Grid, base: Profile): number {
  return obstacleMapWork(host, grid, narrowestProfile(host, base), RELAXED);
}

/** Sites a track of width `width(layer)` on `net` could touch `copper` from: every cell with a
 *  point within half the width of it that the map leaves open. `walls`, when given, counts the
 *  owners of the sites there the map walls off. */
export function touchSites(
  grid: Grid,
  map: ObstacleMap,
  net: number,
  copper: readonly PieceCopper[],
  width: (layer: number) => number,
  walls?: Map<number, number>,
): number[] {
  const out = new Set<number>();
  const slack = relaxSlack(grid.step);
  const pt = { kind: 'circle' as const, x: 0, y: 0, r: 0 };
  for (const c of copper) {
    const b = bbox(c.shape);
    for (let l = 0; l < grid.layers; l++) {
      if (((c.layers >>> l) & 1) === 0) continue;
      const reach = Math.ceil(width(l) / 2) + slack;
      const [c0, c1] = grid.colRange(b.minX - reach, b.maxX + reach);
      const [r0, r1] = grid.rowRange(b.minY - reach, b.maxY + reach);
      for (let r = r0; r <= r1; r++) {
        for (let col = c0; col <= c1; col++) {
          const node = l * grid.cells + r * grid.nx + col;
          if (out.has(node)) continue;
          pt.x = grid.x0 + col * grid.step;
          pt.y = grid.y0 + r * grid.step;
          if (compareDistance(pt, c.shape, reach) > 0) continue;
          const o = map.track[node];
          if (o === 0 || o === net) out.add(node);
          else if (walls) walls.set(o, (walls.get(o) ?? 0) + 1);
        }
      }
    }
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Floods the relaxed map from `from` (sites) and says whether `to` (sites) is out of reach.
 * Layer changes go wherever the relaxed map leaves room for a via. `seen` is scratch of at least
 * cells × layers entries whose entries differ from `gen`.
 */
export function proveFenced(
  grid: Grid,
  map: ObstacleMap,
  net: number,
  from: readonly number[],
  to: readonly number[],
  limit: number,
  seen: Uint32Array,
  gen: number,
): FenceVerdict {
  const cells = grid.cells;
  const target = new Set(to);
  const cut = new Map<number, number>();
  const queue: number[] = [];
  for (const n of from) {
    if (seen[n] === gen) continue;
    seen[n] = gen;
    queue.push(n);
  }
  const wall = (m: number): boolean => {
    const o = map.track[m];
    if (o === 0 || o === net) return false;
    cut.set(o, (cut.get(o) ?? 0) + 1);
    return true;
  };
  let head = 0;
  while (head < queue.length) {
    if (head >= limit) return { fenced: false, region: head, complete: false, cut };
    const n = queue[head++];
    if (target.has(n)) return { fenced: false, region: head, complete: true, cut };
    const layer = Math.floor(n / cells);
    const c = n - layer * cells;
    const x = c % grid.nx;
    const y = (c - x) / grid.nx;
    if (x > 0) visit(n - 1);
    if (x < grid.nx - 1) visit(n + 1);
    if (y > 0) visit(n - grid.nx);
    if (y < grid.ny - 1) visit(n + grid.nx);
    for (let l = 0; l < grid.layers; l++) {
      if (l === layer) continue;
      const m = l * cells + c;
      if (seen[m] === gen || map.viaBlocker(c, net, layer, l) !== 0) continue;
      seen[m] = gen;
      if (map.track[m] === 0 || map.track[m] === net) queue.push(m);
    }
  }
  return { fenced: true, region: head, complete: true, cut };

  function visit(m: number): void {
    if (seen[m] === gen) return;
    seen[m] = gen;
    if (!wall(m)) queue.push(m);
  }
}

/** The nets of a cut, most boundary first (ties by net code), without the walls no net owns. */
export function cutNets(cut: Map<number, number>): { net: number; count: number }[] {
  return [...cut.entries()]
    .filter(([net]) => net !== BLOCKED && net > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([net, count]) => ({ net, count }));
}
