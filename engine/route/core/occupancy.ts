// Where the nets routed in this call keep each other out, for negotiated congestion. A routed
// net "stamps" every site where another net's track or via centre would come too close to it,
// once per net, in the terms of every profile (a fat net keeps thin nets further away). A site
// count above zero is congestion for the net being routed; ripping a net removes its stamps.

import type { Grid } from './grid.ts';
import { TRACK_ITEM, VIA_ITEM, type HostItemKind } from './host.ts';
import type { Profile } from './profile.ts';
import { stepMargin } from './obstacle-map.ts';
import type { CongestionView } from './search.ts';

/** One net's copper on the grid: track nodes and via sites, with its profile. */
export interface NetCopper {
  net: number;
  profile: number;
  /** Track-centre nodes (layer * cells + cell), deduplicated. */
  nodes: Int32Array;
  /** Via sites (cells). */
  vias: Int32Array;
  /** Per via site, the layers its via occupies (blind, buried and micro-vias: fewer than all). */
  viaLayers: Uint32Array;
}

interface Stamp {
  /** Per profile: the track sites and via sites it stamped. */
  track: Int32Array[];
  via: Int32Array[];
}

export class Occupancy {
  readonly views: CongestionView[];
  readonly #mark: Uint32Array;
  readonly #markVia: Uint32Array;
  #gen = 0;
  readonly #stamps = new Map<number, Stamp>();
  #stamped = 0;
  /** clear[a][b]: centre-to-centre distance a track of profile a needs from one of b, plus margin. */
  readonly #tt: number[][] = [];
  readonly #tv: number[][] = [];
  readonly #vv: number[][] = [];

  constructor(
    readonly grid: Grid,
    readonly profiles: Profile[],
    /** Between a track or via (`ka`) of profile a and one (`kb`) of profile b. */
    readonly clearance: (a: Profile, b: Profile, ka: HostItemKind, kb: HostItemKind) => number,
    readonly holeToHole: number,
    /** Decides between nets met equally often (netsAt): byNetName, or by code when absent. */
    readonly netOrder: (a: number, b: number) => number = (a, b) => a - b,
  ) {
    this.views = profiles.map(() => this.#view());
    this.#mark = new Uint32Array(grid.cells * grid.layers);
    this.#markVia = new Uint32Array(grid.cells);
    this.#tables();
  }

  #view(): CongestionView {
    const n = this.grid.cells * this.grid.layers;
    return { track: new Uint16Array(n), via: new Uint16Array(this.grid.cells), hist: new Float32Array(n), histVia: new Float32Array(this.grid.cells) };
  }

  /** clear[a][b]: centre-to-centre distance a track of profile a needs from one of b, plus margin. */
  #tables(): void {
    const { grid, profiles, clearance, holeToHole } = this;
    const w = (p: Profile) => Math.max(...p.width);
    const withMargin = (R: number) => R + stepMargin(grid.step, R);
    const fill = (t: number[][], f: (a: Profile, b: Profile) => number) => {
      t.length = 0;
      for (const a of profiles) t.push(profiles.map((b) => withMargin(f(a, b))));
    };
    fill(this.#tt, (a, b) => w(a) / 2 + clearance(a, b, TRACK_ITEM, TRACK_ITEM) + w(b) / 2);
    fill(this.#tv, (a, b) => w(a) / 2 + clearance(a, b, TRACK_ITEM, VIA_ITEM) + b.viaDiameter / 2);
    fill(this.#vv, (a, b) =>
      Math.max(a.viaDiameter / 2 + clearance(a, b, VIA_ITEM, VIA_ITEM) + b.viaDiameter / 2, a.viaDrill / 2 + holeToHole + b.viaDrill / 2),
    );
  }

  /**
   * Adds a profile after routing has begun (a narrower twin of a class, neck-down.ts): its view
   * gets the stamps of every net placed now, `placed` giving their copper. Returns its index
   * and the sites stamped (work).
   */
  addProfile(profile: Profile, placed: readonly NetCopper[]): { index: number; work: number } {
    const p = this.profiles.length;
    this.profiles.push(profile);
    this.views.push(this.#view());
    this.#tables();
    let work = 0;
    for (const c of placed) {
      const st = this.#stamps.get(c.net);
      if (!st) continue;
      const { track, via } = this.#stampInto(c, p);
      st.track.push(track);
      st.via.push(via);
      work += track.length + via.length;
    }
    this.#stamped += work;
    return { index: p, work };
  }

  has(net: number): boolean {
    return this.#stamps.has(net);
  }

  /** Sites stamped now, over every net and profile: the work of stamping the same copper again. */
  get stamped(): number {
    return this.#stamped;
  }

  /** Sites a net's stamps hold, over every profile (0 when it has none). */
  stampedBy(net: number): number {
    const st = this.#stamps.get(net);
    let n = 0;
    if (st) for (let p = 0; p < st.track.length; p++) n += st.track[p].length + st.via[p].length;
    return n;
  }

  /** Adds a net's copper; returns the number of sites stamped (work). */
  stamp(c: NetCopper): number {
    if (this.#stamps.has(c.net)) throw new Error(`Occupancy.stamp: net ${c.net} is already stamped`);
    const st: Stamp = { track: [], via: [] };
    let work = 0;
    for (let p = 0; p < this.profiles.length; p++) {
      const { track, via } = this.#stampInto(c, p);
      st.track.push(track);
      st.via.push(via);
      work += track.length + via.length;
    }
    this.#stamps.set(c.net, st);
    this.#stamped += work;
    return work;
  }

  /** Stamps a net's copper into profile p's view; returns the sites it stamped. */
  #stampInto(c: NetCopper, p: number): { track: Int32Array; via: Int32Array } {
    const g = this.grid;
    const cells = g.cells;
    const gen = ++this.#gen;
    const tr: number[] = [];
    const vi: number[] = [];
    const mark = this.#mark;
    const markVia = this.#markVia;
    const disc = (layer: number, cell: number, r: number, out: number[], m: Uint32Array, layered: boolean) => {
      const cx = cell % g.nx;
      const cy = (cell - cx) / g.nx;
      const k = Math.floor(r / g.step);
      const r2 = (r / g.step) ** 2;
      for (let dy = -k; dy <= k; dy++) {
        const y = cy + dy;
        if (y < 0 || y >= g.ny) continue;
        for (let dx = -k; dx <= k; dx++) {
          if (dx * dx + dy * dy >= r2) continue;
          const x = cx + dx;
          if (x < 0 || x >= g.nx) continue;
          const id = (layered ? layer * cells : 0) + y * g.nx + x;
          if (m[id] !== gen) {
            m[id] = gen;
            out.push(id);
          }
        }
      }
    };
    const tt = this.#tt[c.profile][p];
    const tv = this.#tv[c.profile][p];
    const vt = this.#tv[p][c.profile];
    const vv = this.#vv[c.profile][p];
    for (let i = 0; i < c.nodes.length; i++) {
      const node = c.nodes[i];
      const layer = Math.floor(node / cells);
      const cell = node - layer * cells;
      disc(layer, cell, tt, tr, mark, true);
      disc(0, cell, tv, vi, markVia, false);
    }
    for (let i = 0; i < c.vias.length; i++) {
      const m = c.viaLayers[i];
      for (let l = 0; l < g.layers; l++) if ((m >>> l) & 1) disc(l, c.vias[i], vt, tr, mark, true);
      disc(0, c.vias[i], vv, vi, markVia, false);
    }
    const view = this.views[p];
    for (const id of tr) view.track[id]++;
    for (const id of vi) view.via[id]++;
    return { track: Int32Array.from(tr), via: Int32Array.from(vi) };
  }

  /** Removes a net's stamps (no-op when it has none). */
  rip(net: number): void {
    const st = this.#stamps.get(net);
    if (!st) return;
    this.#stamped -= this.stampedBy(net);
    for (let p = 0; p < this.profiles.length; p++) {
      const view = this.views[p];
      for (const id of st.track[p]) view.track[id]--;
      for (const id of st.via[p]) view.via[id]--;
    }
    this.#stamps.delete(net);
  }

  /**
   * Which stamped nets hold the given sites in profile `p`'s terms: net → sites held, most
   * first (ties by net code). Scans every stamp once; `work` is the number of ids scanned.
   */
  netsAt(p: number, nodes: ArrayLike<number>, vias: ArrayLike<number>): { nets: { net: number; count: number }[]; work: number } {
    const gen = ++this.#gen;
    for (let i = 0; i < nodes.length; i++) this.#mark[nodes[i]] = gen;
    for (let i = 0; i < vias.length; i++) this.#markVia[vias[i]] = gen;
    const nets: { net: number; count: number }[] = [];
    let work = 0;
    for (const [net, st] of this.#stamps) {
      let count = 0;
      const tr = st.track[p];
      const vi = st.via[p];
      for (let i = 0; i < tr.length; i++) if (this.#mark[tr[i]] === gen) count++;
      for (let i = 0; i < vi.length; i++) if (this.#markVia[vi[i]] === gen) count++;
      work += tr.length + vi.length;
      if (count > 0) nets.push({ net, count });
    }
    nets.sort((a, b) => b.count - a.count || this.netOrder(a.net, b.net));
    return { nets, work };
  }

  /** Sites of a net's copper where another net's stamp lies (its own stamp counted out). */
  conflicts(c: NetCopper): { nodes: number[]; vias: number[] } {
    const view = this.views[c.profile];
    const self = this.#stamps.has(c.net) ? 1 : 0;
    const nodes: number[] = [];
    const vias: number[] = [];
    for (const n of c.nodes) if (view.track[n] > self) nodes.push(n);
    for (const v of c.vias) if (view.via[v] > self) vias.push(v);
    return { nodes, vias };
  }
}
