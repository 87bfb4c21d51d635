// What routes on one board can share, held by the caller between routes: the board's parts of the
// router's host (shapes, pads, holes), the grids and the obstacle maps of the board's own copper.
// Session copper changes between routes, so it is laid over a copy of a kept map, never kept.
// A map for a net not seen yet replays the kept rasterizations of the board's shapes (RasterMemo).
// Everything is keyed by the Design object: a cache handed another design starts over.

import type { Design } from '../../board/design.ts';
import { assembleHost, boardParts, type BoardParts, type CopperParts } from './host-from-design.ts';
import { gridFor, type Grid } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import { buildObstacleMap, overlayObstacleMap, RasterMemo, type ObstacleMap } from '../core/obstacle-map.ts';
import type { WorldSource } from '../core/world-source.ts';

/** Maps kept at most: one per net class and representative net routed; each is a few arrays the
 *  size of the grid, so a long session over many selections keeps only the latest. */
const MAX_MAPS = 8;

export class RouteCache {
  #design: Design | undefined;
  #parts: BoardParts | undefined;
  #grids = new Map<string, Grid>();
  /** One per kept grid: a new net's map asks mostly the rasterizations another net's did. */
  #memos = new Map<Grid, RasterMemo>();
  #maps = new Map<string, ObstacleMap>();

  /** The board's parts for `design`, built on first use; another design empties the cache. */
  parts(design: Design): BoardParts {
    if (this.#design !== design || !this.#parts) {
      this.#design = design;
      this.#parts = boardParts(design);
      this.#grids.clear();
      this.#memos.clear();
      this.#maps.clear();
    }
    return this.#parts;
  }

  /** The host with `extra` (session copper) and the source of its grid and maps. */
  world(design: Design, extra: CopperParts): { host: RouterHost; source: WorldSource } {
    const parts = this.parts(design);
    const host = assembleHost(parts, extra);
    // The board alone: what kept maps are built from.
    const bare = extra.copper.length || extra.holes.length ? assembleHost(parts, { copper: [], holes: [] }) : host;
    const source: WorldSource = {
      // The grid depends on the pads and the outline only, never on copper.
      grid: (_host, step, anchor, window) => {
        // A window's grid is one connection's: kept by nobody, as it is seldom asked again.
        if (window) return gridFor(bare, step, anchor, window);
        const key = anchor ? `${step}@${anchor.x % step},${anchor.y % step}` : `${step}`;
        let g = this.#grids.get(key);
        if (!g) this.#grids.set(key, (g = gridFor(bare, step, anchor)));
        return g;
      },
      map: (_host, grid, profile, opt) => {
        // A window's grid is not kept, nor its maps: built as a fresh route builds them.
        if (!this.#memos.has(grid) && ![...this.#grids.values()].includes(grid)) return buildObstacleMap(host, grid, profile, opt);
        // The profile's net is in the key: the rules are asked with it and its own zones differ.
        // Another net rebuilds, but from the memo: the same marks, without testing sites again.
        const key = JSON.stringify([profile, grid.step, grid.x0, grid.y0, opt.softZones, opt.viaInPad, opt.viasOffPads]);
        let m = this.#maps.get(key);
        if (!m) {
          let memo = this.#memos.get(grid);
          if (!memo) this.#memos.set(grid, (memo = new RasterMemo(grid)));
          m = buildObstacleMap(bare, grid, profile, opt, memo);
          // Oldest first out (a Map iterates in insertion order).
          if (this.#maps.size >= MAX_MAPS) this.#maps.delete(this.#maps.keys().next().value!);
          this.#maps.set(key, m);
        }
        return bare === host ? m : overlayObstacleMap(m, parts.rules, opt, extra.copper, extra.holes);
      },
    };
    return { host, source };
  }
}
