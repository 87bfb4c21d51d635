// A* over the layered octilinear grid: from a set of source nodes (the net's connected copper)
// to any node of a target set (another piece of the net). Costs: step length × layer factor ×
// congestion (PathFinder's present and history terms), bend penalties, a via cost; turns
// sharper than 90° are forbidden, so no acute angles appear. Work = nodes expanded.
// Node id = layer * cells + cell. All state lives in typed arrays reused across searches.

import { MinHeap } from './heap.ts';
import { BLOCKED, type ObstacleMap } from './obstacle-map.ts';

/** Congestion of the routed nets, in one profile's terms (see occupancy.ts). */
export interface CongestionView {
  track: Uint16Array;
  via: Uint16Array;
  hist: Float32Array;
  histVia: Float32Array;
}

export interface SearchParams {
  net: number;
  map: ObstacleMap;
  occ: CongestionView;
  /** Present-congestion factor; ignored when hard. */
  pres: number;
  /** Hard mode: any other net's copper is a wall. */
  hard: boolean;
  /** Via cost in grid steps. */
  viaCost: number;
  /** What a via on a contested site pays for each net it meets there, and for its history, in
   *  grid steps at the present factor: its footprint, as a track pays per step it overlaps (a
   *  via is one contested site). Undefined: viaCost, the whole via priced again per net, which
   *  makes a contested via dearer than a track crossing a row on the row's own layer. */
  viaCongestion?: number;
  bend45: number;
  bend90: number;
  /** Per-layer cost factor (≥ 0.25). */
  layerCost: Float64Array;
  /** Optional per-site cost factor (region hints), layer-major; undefined = 1. */
  siteCost?: Float32Array;
  /** Sites (cells) where the net may not drill a via: within the hole-to-hole gap of a via its
   *  tree already has (via-ban.ts). */
  viaBan?: ReadonlySet<number>;
  /** Factor on sites over another net's zone fill. */
  zoneCost: number;
  /** Expansion budget for this search. */
  maxWork: number;
  /** Heuristic weight (1 = admissible). */
  hWeight: number;
  /** When set, a path runs straight for this many steps before and after each via, on in the
   *  direction it came (a pair's via pair stands across the pair's run, which may not bend
   *  near it). */
  viaRun?: number;
  /** Cost each source starts with (aligned with the sources given), in grid steps; 0 when absent. */
  startCost?: ArrayLike<number>;
}

export interface SearchOutcome {
  /** Node ids from a source to a target, or null. */
  path: Int32Array | null;
  work: number;
  /** Hits on other nets' fixed copper and routed copper: net → count. */
  blockers: Map<number, number>;
  /** True when the search stopped on its budget rather than exhausting its region. */
  budget: boolean;
  /** Expanded sites (for the stuck report: where the search could reach). */
  reached: number;
}

const DX = [1, 1, 0, -1, -1, -1, 0, 1];
const DY = [0, 1, 1, 1, 0, -1, -1, -1];
const LEN = [1, Math.SQRT2, 1, Math.SQRT2, 1, Math.SQRT2, 1, Math.SQRT2];
const NO_DIR = 8;
const MAX_RUN = 65535;

/** A lower bound on the cost left from a site (column, row, layer) to the target box. */
type Estimate = (x: number, y: number, layer: number) => number;

/** Octile distance to the target box [tx0, tx1] × [ty0, ty1] at the cheapest layer's cost, plus a
 *  via when the layer holds no target, times the search's heuristic weight. Callers know the
 *  site's column, row and layer already, so nothing is divided here (the hot loop's cost). */
function targetEstimate(p: SearchParams, layers: number, tx0: number, ty0: number, tx1: number, ty1: number, targetLayers: number): Estimate {
  const { viaCost, layerCost, hWeight } = p;
  let minLayer = Infinity;
  for (let l = 0; l < layers; l++) minLayer = Math.min(minLayer, layerCost[l]);
  return (x, y, layer) => {
    const dx = x < tx0 ? tx0 - x : x > tx1 ? x - tx1 : 0;
    const dy = y < ty0 ? ty0 - y : y > ty1 ? y - ty1 : 0;
    const lo = dx < dy ? dx : dy;
    const hi = dx < dy ? dy : dx;
    let est = (hi - lo + lo * Math.SQRT2) * minLayer;
    if (((targetLayers >>> layer) & 1) === 0) est += viaCost;
    return est * hWeight;
  };
}

export class Searcher {
  readonly g: Float64Array;
  readonly parent: Int32Array;
  readonly dir: Uint8Array;
  /** Steps straight since the last bend or via, and whether that was a via (viaRun searches). */
  readonly straight: Uint16Array;
  readonly afterVia: Uint8Array;
  readonly seen: Uint32Array;
  readonly closed: Uint32Array;
  readonly target: Uint32Array;
  #gen = 0;
  #targetGen = 0;
  readonly #heap = new MinHeap();
  /** Hits per owner net in the current run (a typed tally: a Map update per blocked neighbour
   *  cost more than the expansion itself on dense boards), and the nets in first-hit order. */
  #hits = new Uint32Array(1024);
  readonly #hitNets: number[] = [];

  constructor(
    readonly nx: number,
    readonly ny: number,
    readonly layers: number,
  ) {
    const n = nx * ny * layers;
    this.g = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.dir = new Uint8Array(n);
    this.straight = new Uint16Array(n);
    this.afterVia = new Uint8Array(n);
    this.seen = new Uint32Array(n);
    this.closed = new Uint32Array(n);
    this.target = new Uint32Array(n);
  }

  /** Starts a new target set. */
  newTargets(): void {
    this.#targetGen++;
  }

  addTarget(node: number): void {
    this.target[node] = this.#targetGen;
  }

  isTarget(node: number): boolean {
    return this.target[node] === this.#targetGen;
  }

  /**
   * Searches from `sources` to the current target set, whose sites lie in the box
   * [tx0, tx1] × [ty0, ty1] (columns, rows) on the layers of `targetLayers` (mask).
   */
  run(p: SearchParams, sources: ArrayLike<number>, tx0: number, ty0: number, tx1: number, ty1: number, targetLayers: number): SearchOutcome {
    const gen = ++this.#gen;
    const { nx, ny, layers } = this;
    const cells = nx * ny;
    const { g, parent, dir, seen, closed, target } = this;
    const tg = this.#targetGen;
    const heap = this.#heap;
    heap.clear();
    let work = 0;
    let reached = 0;
    this.#hitNets.length = 0;
    const { net, hard, pres, bend45, bend90, layerCost, siteCost, zoneCost } = p;
    const viaRun = p.viaRun ?? 0;
    const own = p.map.track;
    const zone = p.map.zone;
    const occ = p.occ.track;
    const hist = p.occ.hist;
    const h = targetEstimate(p, layers, tx0, ty0, tx1, ty1, targetLayers);
    this.#seed(p, sources, gen, h);
    while (heap.size > 0) {
      const node = heap.pop();
      if (closed[node] === gen) continue;
      closed[node] = gen;
      reached++;
      if (target[node] === tg) return this.#outcome(this.#trace(node), false, work, reached);
      if (++work > p.maxWork) return this.#outcome(null, true, work, reached);
      const layer = Math.floor(node / cells);
      const cell = node - layer * cells;
      const x = cell % nx;
      const y = (cell - x) / nx;
      const gNode = g[node];
      const dn = dir[node];
      // Fresh off a via (viaRun searches): no bend until the run is long enough.
      const runNode = viaRun > 0 ? this.straight[node] : MAX_RUN;
      const onVia = viaRun > 0 && dn !== NO_DIR && this.afterVia[node] === 1 && runNode < viaRun;
      const lc = layerCost[layer];
      const base = layer * cells;
      for (let d = 0; d < 8; d++) {
        let turn = 0;
        if (onVia && d !== dn) continue;
        if (dn !== NO_DIR) {
          const t = d > dn ? d - dn : dn - d;
          turn = t > 4 ? 8 - t : t;
          if (turn > 2) continue;
        }
        const x2 = x + DX[d];
        const y2 = y + DY[d];
        if (x2 < 0 || y2 < 0 || x2 >= nx || y2 >= ny) continue;
        const c2 = y2 * nx + x2;
        const n2 = base + c2;
        if (closed[n2] === gen) continue;
        const o = own[n2];
        if (o !== 0 && o !== net) {
          if (o !== BLOCKED) this.#hit(o);
          continue;
        }
        const k = occ[n2];
        if (k > 0 && hard) {
          this.#hit(0);
          continue;
        }
        let cost = LEN[d] * lc * (1 + hist[n2]) * (1 + pres * k);
        const z = zone[n2];
        if (z !== 0 && z !== net) cost *= zoneCost;
        if (siteCost) {
          // An infinite site cost is a wall for this net only (a corridor's outside, another
          // net's reservation): the class maps, shared by every net of a class, cannot say that.
          const sc = siteCost[n2];
          if (sc === Infinity) continue;
          cost *= sc;
        }
        if (turn === 1) cost += bend45;
        else if (turn === 2) cost += bend90;
        const gn = gNode + cost;
        if (seen[n2] !== gen || gn < g[n2]) {
          seen[n2] = gen;
          g[n2] = gn;
          parent[n2] = node;
          dir[n2] = d;
          if (viaRun > 0) {
            this.straight[n2] = d === dn ? Math.min(MAX_RUN, runNode + 1) : 0;
            this.afterVia[n2] = d === dn ? this.afterVia[node] : 0;
          }
          heap.push(gn + h(x2, y2, layer), n2);
        }
      }
      // A via only at the end of a straight run (viaRun searches).
      if (layers > 1 && !(viaRun > 0 && dn !== NO_DIR && runNode < viaRun)) this.#viaSteps(p, h, gen, node, cell, layer, x, y);
    }
    return this.#outcome(null, false, work, reached);
  }

  /** Opens the search at its sources, each at its start cost. */
  #seed(p: SearchParams, sources: ArrayLike<number>, gen: number, h: Estimate): void {
    const { nx, g, parent, dir, seen } = this;
    const cells = nx * this.ny;
    for (let i = 0; i < sources.length; i++) {
      const s = sources[i];
      if (seen[s] === gen) continue;
      seen[s] = gen;
      g[s] = p.startCost?.[i] ?? 0;
      parent[s] = -1;
      dir[s] = NO_DIR;
      this.straight[s] = MAX_RUN;
      this.afterVia[s] = 0;
      const layer = Math.floor(s / cells);
      const cell = s - layer * cells;
      const x = cell % nx;
      this.#heap.push(g[s] + h(x, (cell - x) / nx, layer), s);
    }
  }

  /** The steps from `node` (at column x, row y) through a via at its cell to every other layer. */
  #viaSteps(p: SearchParams, h: Estimate, gen: number, node: number, cell: number, layer: number, x: number, y: number): void {
    const { g, parent, dir, seen, closed, layers } = this;
    const cells = this.nx * this.ny;
    const { net, hard, pres, viaCost, viaCongestion, siteCost } = p;
    const viaRun = p.viaRun ?? 0;
    const own = p.map.track;
    const viaLayer = p.map.viaLayer;
    const occ = p.occ.track;
    const histVia = p.occ.histVia;
    const gNode = g[node];
    const dn = dir[node];
    if (!viaLayer) {
      const vo = p.map.via[cell];
      if (vo !== 0 && vo !== net) {
        if (vo !== BLOCKED) this.#hit(vo);
        return;
      }
    }
    if (p.viaBan?.has(cell)) return;
    const kv = p.occ.via[cell];
    if (kv > 0 && hard) return;
    const vcost =
      viaCongestion === undefined ? viaCost * (1 + histVia[cell]) * (1 + pres * kv) : viaCost + viaCongestion * ((1 + histVia[cell]) * (1 + pres * kv) - 1);
    for (let l2 = 0; l2 < layers; l2++) {
      if (l2 === layer) continue;
      // A via drilling less than the whole stack needs its site free on its own layers only.
      if (viaLayer) {
        const vb = p.map.viaBlocker(cell, net, layer, l2);
        if (vb !== 0) {
          if (vb !== BLOCKED) this.#hit(vb);
          continue;
        }
      }
      const n2 = l2 * cells + cell;
      if (closed[n2] === gen) continue;
      const o = own[n2];
      if (o !== 0 && o !== net) continue;
      if (siteCost && siteCost[n2] === Infinity) continue;
      const k = occ[n2];
      if (k > 0 && hard) continue;
      const gn = viaCongestion === undefined ? gNode + vcost * (1 + pres * k) : gNode + vcost + viaCongestion * pres * k;
      if (seen[n2] !== gen || gn < g[n2]) {
        seen[n2] = gen;
        g[n2] = gn;
        parent[n2] = node;
        dir[n2] = viaRun > 0 ? dn : NO_DIR;
        if (viaRun > 0) {
          this.straight[n2] = 0;
          this.afterVia[n2] = 1;
        }
        this.#heap.push(gn + h(x, y, l2), n2);
      }
    }
  }

  /** Counts a hit on an owner's copper (0: routed copper in hard mode). */
  #hit(owner: number): void {
    let hits = this.#hits;
    if (owner >= hits.length) {
      const grown = new Uint32Array(Math.max(owner + 1, hits.length * 2));
      grown.set(hits);
      this.#hits = hits = grown;
    }
    if (hits[owner]++ === 0) this.#hitNets.push(owner);
  }

  /** The run's outcome; the hit tally is handed over as blockers and cleared for the next run. */
  #outcome(path: Int32Array | null, budget: boolean, work: number, reached: number): SearchOutcome {
    const hits = this.#hits;
    const blockers = new Map<number, number>();
    for (const n of this.#hitNets) {
      blockers.set(n, hits[n]);
      hits[n] = 0;
    }
    return { path, work, blockers, budget, reached };
  }

  #trace(end: number): Int32Array {
    const out: number[] = [];
    for (let n = end; n >= 0; n = this.parent[n]) out.push(n);
    out.reverse();
    return Int32Array.from(out);
  }
}
