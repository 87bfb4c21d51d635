// The fixed world rasterized for one net class: for every grid site, who may put a track
// centre there (per layer) and who may put a via centre there: 0 (free), a net code (only that
// net's copper is near: free for it, blocked for others) or -1 (blocked for every net). Sites are
// decided exactly (compareDistance), grown by a margin so a straight step between free sites
// keeps clearance; RasterMemo keeps those decisions so a map for another net replays them.

import { bbox, compareDistance, type Shape } from '../../geom/index.ts';
import type { Grid } from './grid.ts';
import {
  obstacleItem,
  padClearance,
  padItem,
  TRACK_ITEM,
  VIA_ITEM,
  widestPadClearance,
  type HostHole,
  type HostObstacle,
  type HostPad,
  type HostRules,
  type RouterHost,
} from './host.ts';
import type { Profile } from './profile.ts';
import { hasPartialVias, spanTable } from './via-span.ts';

export const BLOCKED = -1;

export interface MapOptions {
  softZones: boolean;
  viaInPad: boolean;
  viasOffPads: boolean;
  /** A map for proofs, not for routing (fence-proof.ts): a site is marked only when no point of
   *  its cell could hold a track or via centre, so what its flood cannot reach, no route can. */
  relaxed?: boolean;
}

/** How far a relaxed map shrinks every obstacle: past the half-diagonal of a cell, so a cell
 *  is marked only when every point of it is. */
export function relaxSlack(step: number): number {
  return Math.ceil(step * Math.SQRT1_2) + 1;
}

export class ObstacleMap {
  /** Track-centre owners, layer-major: track[layer * cells + cell]. */
  readonly track: Int32Array;
  /** Via-centre owners (a through via spans every layer). */
  readonly via: Int32Array;
  /** Via-centre owners per layer, layer-major, for profiles that may drill less than the whole
   *  stack (blind, buried and micro-vias); null when every via is a through via. */
  readonly viaLayer: Int32Array | null;
  /** The layers a via from layer a to b occupies, [a * layers + b] (see via-span.ts). */
  readonly spans: Uint32Array;
  /** With soft zones, whose zone fill lies on a site: 0 (none), its net, or BLOCKED for fills
   *  of several nets. Passable for every net, but another net's refill will notch around it. */
  readonly zone: Int32Array;
  /** Work spent rasterizing (sites tested). */
  work = 0;

  constructor(
    readonly grid: Grid,
    readonly profile: Profile,
  ) {
    this.track = new Int32Array(grid.cells * grid.layers);
    this.via = new Int32Array(grid.cells);
    this.viaLayer = hasPartialVias(profile, grid.layers) ? new Int32Array(grid.cells * grid.layers) : null;
    this.spans = spanTable(profile, grid.layers);
    this.zone = new Int32Array(grid.cells * grid.layers);
  }

  /** 0 when `net` may put a via from layer a to layer b at `cell`, else the owner of the first
   *  site in its way (a net code, or BLOCKED). */
  viaBlocker(cell: number, net: number, a: number, b: number): number {
    const vl = this.viaLayer;
    if (!vl) {
      const o = this.via[cell];
      return o === 0 || o === net ? 0 : o;
    }
    const cells = this.grid.cells;
    const mask = this.spans[a * this.grid.layers + b];
    for (let l = 0; l < 32 && mask >>> l; l++) {
      if (((mask >>> l) & 1) === 0) continue;
      const o = vl[l * cells + cell];
      if (o !== 0 && o !== net) return o;
    }
    return 0;
  }
}

function own(arr: Int32Array, i: number, net: number): void {
  if (net <= 0) {
    arr[i] = BLOCKED;
    return;
  }
  const cur = arr[i];
  if (cur === 0) arr[i] = net;
  else if (cur !== net) arr[i] = BLOCKED;
}

/** The sites a rasterization of `shape` tests: columns c0..c1 and rows r0..r1 of the grid round
 *  its box, grown by the disc's reach. */
function siteRange(grid: Grid, shape: Shape, r: number, clear: number, margin: number): [number, number, number, number] {
  const b = bbox(shape);
  const reach = r + clear + margin;
  const [c0, c1] = grid.colRange(b.minX - reach, b.maxX + reach);
  const [r0, r1] = grid.rowRange(b.minY - reach, b.maxY + reach);
  return [c0, c1, r0, r1];
}

/** The work of rasterize (the sites it tests), without testing them. */
function siteCount(grid: Grid, shape: Shape, r: number, clear: number, margin: number): number {
  const [c0, c1, r0, r1] = siteRange(grid, shape, r, clear, margin);
  return Math.max(0, c1 - c0 + 1) * Math.max(0, r1 - r0 + 1);
}

/** Grows a disc of copper radius r (nm) at every site near `shape` and marks the sites where
 *  it comes closer than `clear` nm, in increasing order: `mark(cell)` is called for each. */
function rasterize(grid: Grid, shape: Shape, r: number, clear: number, margin: number, mark: (cell: number) => void): number {
  const [c0, c1, r0, r1] = siteRange(grid, shape, r, clear, margin);
  const disc = { kind: 'circle' as const, x: 0, y: 0, r: r + margin };
  let n = 0;
  for (let row = r0; row <= r1; row++) {
    disc.y = grid.y0 + row * grid.step;
    for (let col = c0; col <= c1; col++) {
      disc.x = grid.x0 + col * grid.step;
      n++;
      const d = compareDistance(disc, shape, clear);
      if (d < 0 || (clear === 0 && d === 0)) mark(row * grid.nx + col);
    }
  }
  return n;
}

/** The sites one rasterization marked, as runs of consecutive cells (start, length, start,
 *  length, …, in increasing order), and the sites it tested (its work). */
interface Raster {
  runs: Int32Array;
  work: number;
}

/** Rasterizations of one grid's board shapes, kept by shape object and parameters: a map built
 *  for another net of the same board asks mostly the same ones, and replaying the marked runs
 *  costs a fraction of testing every site again. Only the board's own shapes belong here (their
 *  objects live as long as the cached board); session copper is new every route. */
export class RasterMemo {
  readonly #kept = new Map<Shape, Map<string, Raster>>();

  constructor(readonly grid: Grid) {}

  get(shape: Shape, r: number, clear: number, margin: number): Raster {
    let byArgs = this.#kept.get(shape);
    if (!byArgs) this.#kept.set(shape, (byArgs = new Map()));
    // Number-to-string is exact for doubles, so equal keys mean equal arguments.
    const key = `${r}/${clear}/${margin}`;
    let ras = byArgs.get(key);
    if (!ras) {
      const runs: number[] = [];
      const work = rasterize(this.grid, shape, r, clear, margin, (cell) => {
        const k = runs.length;
        if (k && runs[k - 2] + runs[k - 1] === cell) runs[k - 1]++;
        else runs.push(cell, 1);
      });
      byArgs.set(key, (ras = { runs: Int32Array.from(runs), work }));
    }
    return ras;
  }
}

/** Extra radius (nm) so that a diagonal step between two sites clear by R stays clear. */
export function stepMargin(step: number, R: number): number {
  const h = (step * Math.SQRT2) / 2;
  if (R <= h) return Math.ceil(h) + 1;
  return Math.ceil(R - Math.sqrt(R * R - h * h)) + 1;
}

function half(v: number): number {
  return Math.ceil(v) / 2;
}

/** What marker writes: a map, or (counting) only its grid, profile and work. */
type MarkTarget = Pick<ObstacleMap, 'grid' | 'profile' | 'track' | 'via' | 'viaLayer' | 'zone' | 'work'>;

/** Marks items on a map, each by itself: a site's owner is the join of every mark on it (free,
 *  one net, blocked), so the order items are marked in does not change the map. `count`: mark
 *  nothing, only add up the work marking would take. */
function marker(map: MarkTarget, rules: HostRules, opt: MapOptions, memo?: RasterMemo, count = false) {
  const grid = map.grid;
  if (memo && memo.grid !== grid)
    throw new Error(
      `marker: a RasterMemo for a ${memo.grid.nx}x${memo.grid.ny} grid (step ${memo.grid.step}) was given for a ${grid.nx}x${grid.ny} grid (step ${grid.step})`,
    );
  const raster = (shape: Shape, r: number, clear: number, margin: number, mark: (cell: number) => void): number => {
    if (count) return siteCount(grid, shape, r, clear, margin);
    if (!memo) return rasterize(grid, shape, r, clear, margin, mark);
    const ras = memo.get(shape, r, clear, margin);
    const runs = ras.runs;
    for (let k = 0; k < runs.length; k += 2) for (let c = runs[k], end = c + runs[k + 1]; c < end; c++) mark(c);
    return ras.work;
  };
  // What keeps copper out. A relaxed map shrinks it by the slack instead of growing it by the
  // step margin: the disc's radius first, the clearance for what is left.
  const slack = opt.relaxed ? relaxSlack(grid.step) : 0;
  const wall = (shape: Shape, r: number, clear: number, margin: number, mark: (cell: number) => void): number => {
    if (!slack) return raster(shape, r, clear, margin, mark);
    const rr = r - slack;
    const cc = rr < 0 ? clear + rr : clear;
    return cc > 0 ? raster(shape, Math.max(0, rr), cc, 0, mark) : 0;
  };
  const profile = map.profile;
  const L = grid.layers;
  const cells = grid.cells;
  const net = profile.net;
  const vr = half(profile.viaDiameter);
  const hr = half(profile.viaDrill);
  const trackMargin = (layer: number) => stepMargin(grid.step, profile.width[layer] / 2 + profile.clearance);
  const viaMargin = stepMargin(grid.step, vr + profile.clearance);
  const layersOf = (mask: number) => {
    const out: number[] = [];
    for (let l = 0; l < L; l++) if ((mask >>> l) & 1) out.push(l);
    return out;
  };
  const markTrack = (layer: number, owner: number) => (cell: number) => own(map.track, layer * cells + cell, owner);
  const all = L >= 32 ? 0xffffffff : (1 << L) - 1;
  const viaLayer = map.viaLayer;
  // A via site is marked on the layers the item lies on; `via` joins them all (through vias).
  const markVia =
    (owner: number, mask = all) =>
    (cell: number) => {
      own(map.via, cell, owner);
      if (viaLayer) for (let l = 0; l < L; l++) if ((mask >>> l) & 1) own(viaLayer, l * cells + cell, owner);
    };

  return {
    outline(e: Shape): void {
      for (let l = 0; l < L; l++) {
        const clr = Math.max(rules.edgeClearance(net, l), slack ? 1 : profile.clearance, 1);
        map.work += wall(e, half(profile.width[l]), clr, trackMargin(l), markTrack(l, BLOCKED));
      }
      const clr = Math.max(rules.edgeClearance(net, 0), slack ? 1 : profile.clearance, 1);
      map.work += wall(e, vr, clr, viaMargin, markVia(BLOCKED));
    },
    pad(pad: HostPad): void {
      const item = padItem(pad);
      for (const l of layersOf(pad.layers)) {
        const clr = Math.max(rules.clearance(net, pad.net, l, TRACK_ITEM, item), padClearance(pad, l));
        // A pad blocks other nets by clearance; for its own net the same sites stay usable.
        map.work += wall(pad.shape, half(profile.width[l]), clr, trackMargin(l), markTrack(l, pad.net));
      }
      // A via spans the spokes' layers too.
      let vclr = Math.max(rules.clearance(net, pad.net, 0, VIA_ITEM, item), widestPadClearance(pad));
      for (let l = 1; l < L; l++) vclr = Math.max(vclr, rules.clearance(net, pad.net, l, VIA_ITEM, item));
      // Vias keep off pads: other nets' by clearance, own pads unless via-in-pad is allowed.
      const ownOk = opt.viaInPad && !pad.throughHole && !opt.viasOffPads;
      map.work += wall(pad.shape, vr, vclr, viaMargin, markVia(pad.net, pad.layers));
      if (!ownOk && pad.net > 0) map.work += wall(pad.shape, vr, opt.viasOffPads ? vclr : 1, viaMargin, markVia(BLOCKED, pad.layers));
    },
    obstacle(o: HostObstacle): void {
      if (o.kind === 'keepout') {
        for (const l of layersOf(o.layers)) if (o.keepTracks) map.work += wall(o.shape, half(profile.width[l]), 1, trackMargin(l), markTrack(l, BLOCKED));
        if (o.keepVias && o.layers) map.work += wall(o.shape, vr, 1, viaMargin, markVia(BLOCKED, o.layers));
        return;
      }
      if (o.kind === 'mask') {
        // A mask opening: its one exposed net may pass, others keep the mask clearance.
        const owner = o.net > 0 ? o.net : BLOCKED;
        const clr = Math.max(o.clearance, 1);
        for (const l of layersOf(o.layers)) map.work += wall(o.shape, half(profile.width[l]), clr, trackMargin(l), markTrack(l, owner));
        if (o.layers) map.work += wall(o.shape, vr, clr, viaMargin, markVia(owner, o.layers));
        return;
      }
      if (o.kind === 'zone' && opt.softZones) {
        // KiCad refills a fill around new copper of other nets: not a wall, a cost for them.
        for (const l of layersOf(o.layers)) map.work += raster(o.shape, 0, 1, 0, (c) => own(map.zone, l * cells + c, o.net));
        return;
      }
      const item = obstacleItem(o);
      for (const l of layersOf(o.layers)) {
        const clr = Math.max(rules.clearance(net, o.net, l, TRACK_ITEM, item), o.clearance);
        map.work += wall(o.shape, half(profile.width[l]), clr, trackMargin(l), markTrack(l, o.net));
      }
      let vclr = o.clearance;
      for (const l of layersOf(o.layers)) vclr = Math.max(vclr, rules.clearance(net, o.net, l, VIA_ITEM, item));
      if (o.layers) map.work += wall(o.shape, vr, vclr, viaMargin, markVia(o.net, o.layers));
    },
    hole(h: HostHole): void {
      // Copper of other nets keeps hole clearance; every via drill keeps hole-to-hole.
      if (!h.plated || h.net !== net) {
        // A zero hole clearance still keeps copper off the hole itself (KiCad reports it).
        const hc = Math.max(rules.holeClearance(net, h.net), 1);
        if (!h.plated || h.net === 0 || h.net !== net) {
          for (let l = 0; l < L; l++) map.work += wall(h.shape, half(profile.width[l]), hc, trackMargin(l), markTrack(l, h.plated ? h.net : BLOCKED));
          map.work += wall(h.shape, vr, hc, viaMargin, markVia(h.plated ? h.net : BLOCKED));
        }
      }
      map.work += wall(h.shape, hr, Math.max(rules.holeToHole, 1), viaMargin, markVia(BLOCKED));
    },
  };
}

/** Rasterizes the host's fixed world for one profile; `memo`, when given, keeps and reuses the
 *  rasterizations of the host's shapes (the same map and work either way). */
export function buildObstacleMap(host: RouterHost, grid: Grid, profile: Profile, opt: MapOptions, memo?: RasterMemo): ObstacleMap {
  const map = new ObstacleMap(grid, profile);
  const L = grid.layers;
  const cells = grid.cells;
  // Outside the outline: nothing goes there (a relaxed map keeps the cells the outline passes
  // near, which may hold a point inside).
  let nearEdge: Uint8Array | undefined;
  if (opt.relaxed) {
    nearEdge = new Uint8Array(cells);
    const edge = nearEdge;
    for (const e of host.outline) map.work += rasterize(grid, e, 0, relaxSlack(grid.step), 0, (c) => (edge[c] = 1));
  }
  for (let c = 0; c < cells; c++) {
    if (grid.inside[c] || nearEdge?.[c]) continue;
    map.via[c] = BLOCKED;
    for (let l = 0; l < L; l++) map.track[l * cells + c] = BLOCKED;
    if (map.viaLayer) for (let l = 0; l < L; l++) map.viaLayer[l * cells + c] = BLOCKED;
  }
  markHost(marker(map, host.rules, opt, memo), host);
  return map;
}

function markHost(m: ReturnType<typeof marker>, host: RouterHost): void {
  for (const e of host.outline) m.outline(e);
  for (const pad of host.pads) m.pad(pad);
  for (const o of host.obstacles) m.obstacle(o);
  for (const h of host.holes) m.hole(h);
}

const NO_SITES = new Int32Array(0);

/** The work buildObstacleMap spends on this host, grid, profile and options (the sites it
 *  tests), counted without testing any: set-up is work, so a caller can see that a map would
 *  pass its budget before it starts building it. Cheap: one box per item and layer. */
export function obstacleMapWork(host: RouterHost, grid: Grid, profile: Profile, opt: MapOptions): number {
  const tally: MarkTarget = { grid, profile, track: NO_SITES, via: NO_SITES, viaLayer: null, zone: NO_SITES, work: 0 };
  if (opt.relaxed) for (const e of host.outline) tally.work += siteCount(grid, e, 0, relaxSlack(grid.step), 0);
  markHost(marker(tally, host.rules, opt, undefined, true), host);
  return tally.work;
}

/** A copy of `base` with more fixed copper marked on it: the same map (and work) as building it
 *  with that copper in the host from the start, as marks do not depend on their order. */
export function overlayObstacleMap(
  base: ObstacleMap,
  rules: HostRules,
  opt: MapOptions,
  obstacles: readonly HostObstacle[],
  holes: readonly HostHole[],
): ObstacleMap {
  const map = new ObstacleMap(base.grid, base.profile);
  map.track.set(base.track);
  map.via.set(base.via);
  if (map.viaLayer && base.viaLayer) map.viaLayer.set(base.viaLayer);
  map.zone.set(base.zone);
  map.work = base.work;
  const m = marker(map, rules, opt);
  for (const o of obstacles) m.obstacle(o);
  for (const h of holes) m.hole(h);
  return map;
}
