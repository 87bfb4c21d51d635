// Where a route gets its grid and obstacle maps: built for this route alone (FRESH), or from
// what the caller keeps between routes on one board (design/route-cache.ts). The router sees
// only this interface, so it neither knows nor cares which.

import { gridFor, type Grid, type GridWindow } from './grid.ts';
import type { RouterHost } from './host.ts';
import { buildObstacleMap, type MapOptions, type ObstacleMap } from './obstacle-map.ts';
import type { Profile } from './profile.ts';

/** How routeHost gets its grid and obstacle maps: built on the spot, or from a cache. */
export interface WorldSource {
  grid(host: RouterHost, step: number, anchor?: { x: number; y: number }, window?: GridWindow): Grid;
  map(host: RouterHost, grid: Grid, profile: Profile, opt: MapOptions): ObstacleMap;
}

/** Builds everything for this route alone. */
export const FRESH: WorldSource = {
  grid: (host, step, anchor, window) => gridFor(host, step, anchor, window),
  map: (host, grid, profile, opt) => buildObstacleMap(host, grid, profile, opt),
};
