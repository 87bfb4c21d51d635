// The path a differential pair runs along, found as one wide track: the pair's two nets are one
// net here, and the track is as wide as both tracks and the gap between them (its via as wide as
// the via pair), so wherever the wide track fits, both tracks beside its centre line fit too.
// Searched on a fine grid over a box round the pair only; pair-body.ts splits the result.

import type { Pt } from '../../board/model.ts';
import { gridFor, type GridWindow } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import { buildObstacleMap, obstacleMapWork, type MapOptions } from '../core/obstacle-map.ts';
import { pathCopper, type PathCopper } from '../core/path-geometry.ts';
import type { Profile } from '../core/profile.ts';
import { Searcher } from '../core/search.ts';

/** One end of the centre line: a point between the pair's two pads and the layers they lie on. */
export interface CentrelineEnd {
  at: Pt;
  layers: number;
  /** Sites within this distance (nm) of `at` may start or end the line. */
  reach: number;
  /** What starting a step away from `at` costs, in steps of track (0: anywhere in reach alike). */
  away?: number;
}

export interface CentrelineAsk {
  /** A host whose pads and copper of the pair's second net carry the first net's code. */
  host: RouterHost;
  /** The wide track's geometry, for the first net. */
  profile: Profile;
  /** Ends to try in turn, on one map: the first pair joined gives the line. */
  tries: { from: CentrelineEnd; to: CentrelineEnd }[];
  window: GridWindow;
  step: number;
  /** Work each try's search may take. */
  maxWork: number;
  /** Work the whole search may take, its map included: too little for the map and one try's
   *  search, and nothing is built or searched. */
  left: number;
  opt: MapOptions;
}

/** The centre line's copper (legs and layer changes, from `from` to `to` of try `tried`), or
 *  null; work is the map's and the searches'; `spent` when the work left could not hold them. */
export function searchCentreline(a: CentrelineAsk): { copper: PathCopper | null; tried: number; work: number; spent?: true } {
  const grid = gridFor(a.host, a.step, a.tries[0]?.from.at, a.window);
  // The map's cost is counted before it is built (a fine grid over a dense board is most of it).
  if (obstacleMapWork(a.host, grid, a.profile, a.opt) + a.maxWork > a.left) return { copper: null, tried: 0, work: 0, spent: true };
  const map = buildObstacleMap(a.host, grid, a.profile, a.opt);
  let work = map.work;
  const net = a.profile.net;
  const cells = grid.cells;
  const L = grid.layers;
  const free = (node: number) => map.track[node] === 0 || map.track[node] === net;
  // The sites round an end, nearest first, so the line leaves from between the pads.
  const sitesNear = (e: CentrelineEnd): { node: number; d: number }[] => {
    const [c0, c1] = grid.colRange(e.at.x - e.reach, e.at.x + e.reach);
    const [r0, r1] = grid.rowRange(e.at.y - e.reach, e.at.y + e.reach);
    const out: { node: number; d: number }[] = [];
    for (let l = 0; l < L; l++) {
      if (((e.layers >>> l) & 1) === 0) continue;
      for (let r = r0; r <= r1; r++)
        for (let c = c0; c <= c1; c++) {
          const cell = r * grid.nx + c;
          const d = Math.hypot(grid.x(cell) - e.at.x, grid.y(cell) - e.at.y);
          if (d <= e.reach && free(l * cells + cell)) out.push({ node: l * cells + cell, d });
        }
    }
    out.sort((p, q) => p.d - q.d || p.node - q.node);
    return out;
  };
  const searcher = new Searcher(grid.nx, grid.ny, L);
  const occ = { track: new Uint16Array(cells * L), via: new Uint16Array(cells), hist: new Float32Array(cells * L), histVia: new Float32Array(cells) };
  for (const [k, t] of a.tries.entries()) {
    if (work + a.maxWork > a.left) return { copper: null, tried: k, work, spent: true };
    const sources = sitesNear(t.from);
    const targets = sitesNear(t.to);
    if (sources.length === 0 || targets.length === 0) continue;
    searcher.newTargets();
    let tx0 = Infinity,
      ty0 = Infinity,
      tx1 = -Infinity,
      ty1 = -Infinity,
      tl = 0;
    for (const { node } of targets) {
      searcher.addTarget(node);
      const cell = node % cells;
      const x = cell % grid.nx;
      const y = (cell - x) / grid.nx;
      tx0 = Math.min(tx0, x);
      tx1 = Math.max(tx1, x);
      ty0 = Math.min(ty0, y);
      ty1 = Math.max(ty1, y);
      tl |= 1 << Math.floor(node / cells);
    }
    const out = searcher.run(
      {
        net,
        map,
        occ,
        pres: 0,
        hard: true,
        // Layer changes cost a pair two vias and its coupling round them: only where needed.
        viaCost: Math.max(16, (6_000_000 + 2 * a.profile.viaDiameter) / grid.step),
        // Every bend costs the pair a little coupling (its tracks differ in length round it).
        bend45: 4,
        bend90: 8,
        layerCost: new Float64Array(L).fill(1),
        zoneCost: 1.3,
        maxWork: a.maxWork,
        hWeight: 1.1,
        viaRun: Math.ceil(a.profile.viaDiameter / 2 / grid.step),
        startCost: sources.map((s) => ((t.from.away ?? 0) * s.d) / grid.step),
      },
      sources.map((s) => s.node),
      tx0,
      ty0,
      tx1,
      ty1,
      tl,
    );
    work += out.work;
    if (out.path) return { copper: pathCopper(grid, out.path), tried: k, work };
  }
  return { copper: null, tried: a.tries.length, work };
}
