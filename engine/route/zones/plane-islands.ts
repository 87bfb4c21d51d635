// Zone refill, approximately: KiCad refills a zone around new copper of other nets, and a
// thermal relief whose spokes then reach too few pieces of fill that hold more of the net than
// the pad is starved (an error). On the routing grid each fill polygon is flood-filled with the
// new foreign copper (grown by the zone's clearance) taken out and each spoke's piece judged;
// a newly starved relief flags the new copper walling its islands. Exact DRC is not its business.

import { bbox, boxesOverlap, compareDistance, inflateBox, segment, circle, type Box, type Shape } from '../../geom/index.ts';
import { padAxes } from '../negotiate/access.ts';
import type { Grid } from '../core/grid.ts';
import type { HostPad, RouterHost } from '../core/host.ts';
import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { gate, type Verify } from '../finish/final-gate.ts';
import type { NetPlan } from '../negotiate/net-plan.ts';
import type { Router } from '../negotiate/router.ts';
import { byNetName } from '../core/net-rank.ts';

interface Fill {
  net: number;
  layer: number;
  clearance: number;
  /** Sites inside the polygon (cells of one layer), ascending. */
  cells: Int32Array;
  /** The thermal spokes into the polygon: the pad (position in host.pads) and the fill site each feeds. */
  spokePads: Int32Array;
  spokeCells: Int32Array;
  /** Sites of the net's fixed tracks and vias in the polygon: copper that holds a piece. */
  fixed: Int32Array;
  /** The thermal relief's gap, nm. */
  gap: number;
  /** The polygon's box (nm), to skip copper far from it. */
  box: Box;
}

/** Sites inside a shape (one layer's cells, ascending). Polygons by scanline over their ring
 *  edges (even-odd: holes are rings too), which is linear in rows × edges; other shapes by the
 *  exact point test. */
export function inside(grid: Grid, shape: Shape): number[] {
  const b = bbox(shape);
  const [c0, c1] = grid.colRange(b.minX, b.maxX);
  const [r0, r1] = grid.rowRange(b.minY, b.maxY);
  const out: number[] = [];
  if (shape.kind === 'polygon' && shape.radius === 0) {
    const rings = [shape.outline, ...shape.holes];
    const xs: number[] = [];
    for (let r = r0; r <= r1; r++) {
      const y = grid.y0 + r * grid.step;
      xs.length = 0;
      for (const ring of rings) {
        const n = ring.length / 2;
        for (let i = 0; i < n; i++) {
          const ax = ring[2 * i];
          const ay = ring[2 * i + 1];
          const j = (i + 1) % n;
          const bx = ring[2 * j];
          const by = ring[2 * j + 1];
          if ((ay <= y && by > y) || (by <= y && ay > y)) xs.push(ax + ((y - ay) * (bx - ax)) / (by - ay));
        }
      }
      xs.sort((p, q) => p - q);
      for (let k = 0; k + 1 < xs.length; k += 2) {
        const [a, z] = grid.colRange(xs[k], xs[k + 1]);
        for (let c = Math.max(a, c0); c <= Math.min(z, c1); c++) out.push(r * grid.nx + c);
      }
    }
    return out;
  }
  const pt = { kind: 'circle' as const, x: 0, y: 0, r: 0 };
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      pt.x = grid.x0 + c * grid.step;
      pt.y = grid.y0 + r * grid.step;
      if (compareDistance(pt, shape, 0) === 0) out.push(r * grid.nx + c);
    }
  }
  return out;
}

/** Sites closer than `reach` nm to a shape (one layer's cells; reach 1 for the sites it covers), calling `mark` for each. */
export function near(grid: Grid, shape: Shape, reach: number, mark: (cell: number) => void): void {
  const b = bbox(shape);
  const [c0, c1] = grid.colRange(b.minX - reach, b.maxX + reach);
  const [r0, r1] = grid.rowRange(b.minY - reach, b.maxY + reach);
  const pt = { kind: 'circle' as const, x: 0, y: 0, r: 0 };
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      pt.x = grid.x0 + c * grid.step;
      pt.y = grid.y0 + r * grid.step;
      if (compareDistance(pt, shape, reach) < 0) mark(r * grid.nx + c);
    }
  }
}

/** The 8 neighbours of a cell that lie on the grid (a fill joined only at a corner still
 *  joins: the grid is coarser than KiCad's fill outline). */
function around(grid: Grid, c: number): number[] {
  const x = c % grid.nx;
  const y = (c - x) / grid.nx;
  const out: number[] = [];
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if ((dx || dy) && x + dx >= 0 && x + dx < grid.nx && y + dy >= 0 && y + dy < grid.ny) out.push(c + dy * grid.nx + dx);
    }
  }
  return out;
}

/** Distance from a pad's centre to its copper edge along a unit direction (bisection, nm). */
function edgeDistance(pad: HostPad, ux: number, uy: number): number {
  const b = bbox(pad.shape);
  let lo = 0;
  let hi = Math.hypot(b.maxX - b.minX, b.maxY - b.minY) + 1;
  const pt = { kind: 'circle' as const, x: 0, y: 0, r: 0 };
  while (hi - lo > 1000) {
    const mid = (lo + hi) / 2;
    pt.x = Math.round(pad.at.x + ux * mid);
    pt.y = Math.round(pad.at.y + uy * mid);
    if (compareDistance(pt, pad.shape, 0) === 0) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The spokes of a pad's thermal relief into one fill polygon: a fill site just beyond the gap
 * for each spoke. The saved fill holds the spokes, so a spoke is a ray (along the pad's axes,
 * or at 45° to them as KiCad draws round pads' spokes) whose point in mid-gap is fill.
 */
export function spokesOf(pad: HostPad, fill: Shape, gap: number, grid: Grid, inFill: Set<number>): number[] {
  let best: number[] = [];
  const pt = { kind: 'circle' as const, x: 0, y: 0, r: 0 };
  for (const offset of [0, 45]) {
    const got: number[] = [];
    for (const [ux, uy] of padAxes(pad.rotation + offset)) {
      const edge = edgeDistance(pad, ux, uy);
      pt.x = Math.round(pad.at.x + ux * (edge + gap / 2));
      pt.y = Math.round(pad.at.y + uy * (edge + gap / 2));
      if (compareDistance(pt, fill, 0) !== 0) continue;
      // The piece the spoke feeds: the first fill site beyond the gap along the ray.
      for (let s = 0; s <= 3; s++) {
        const d = edge + gap + s * grid.step;
        const cell = grid.row(pad.at.y + uy * d) * grid.nx + grid.col(pad.at.x + ux * d);
        if (inFill.has(cell)) {
          got.push(cell);
          break;
        }
      }
    }
    if (got.length > best.length) best = got;
  }
  return best;
}

/** The fills of the host's thermally joined zones, with the spokes of their net's pads. */
function fillsOf(host: RouterHost, grid: Grid): Fill[] {
  const fills: Fill[] = [];
  for (const o of host.obstacles) {
    const thermal = o.thermal;
    if (o.kind !== 'zone' || o.net <= 0 || !thermal) continue;
    const layer = 31 - Math.clz32(o.layers);
    if (layer < 0 || layer >= grid.layers || o.layers !== 1 << layer) continue;
    const cells = inside(grid, o.shape);
    if (cells.length === 0) continue;
    const set = new Set(cells);
    const box = bbox(o.shape);
    const spokePads: number[] = [];
    const spokeCells: number[] = [];
    host.pads.forEach((p, k) => {
      if (p.net !== o.net || ((p.layers >>> layer) & 1) === 0 || (thermal.thtOnly && !p.throughHole)) return;
      const b = bbox(p.shape);
      const reach = thermal.gap + grid.step * 4;
      if (!boxesOverlap(inflateBox(b, reach), box)) return;
      for (const cell of spokesOf(p, o.shape, thermal.gap, grid, set)) {
        spokePads.push(k);
        spokeCells.push(cell);
      }
    });
    if (spokePads.length === 0) continue;
    const fixed = new Set<number>();
    for (const t of host.obstacles) {
      if ((t.kind !== 'track' && t.kind !== 'via') || t.net !== o.net || ((t.layers >>> layer) & 1) === 0) continue;
      near(grid, t.shape, 1, (c) => set.has(c) && fixed.add(c));
    }
    fills.push({
      net: o.net,
      layer,
      clearance: o.clearance,
      cells: Int32Array.from(cells),
      spokePads: Int32Array.from(spokePads),
      spokeCells: Int32Array.from(spokeCells),
      fixed: Int32Array.from([...fixed].sort((a, b) => a - b)),
      gap: thermal.gap,
      box,
    });
  }
  return fills;
}

/** KiCad's manual spokes: tracks of the net with one end on the pad (within half the gap) and
 *  the other in fill. */
function manualSpokes(pad: HostPad, gap: number, tracks: NewTrack[], inFill: (x: number, y: number) => boolean): number {
  const reach = Math.max(1, Math.round(gap / 2));
  const onPad = (p: { x: number; y: number }) => compareDistance({ kind: 'circle', x: p.x, y: p.y, r: 0 }, pad.shape, reach) < 0;
  let n = 0;
  for (const t of tracks) {
    if (onPad(t.start) ? !onPad(t.end) && inFill(t.end.x, t.end.y) : onPad(t.end) && inFill(t.start.x, t.start.y)) n++;
  }
  return n;
}

/** How a pad's relief fares on one layer: spokes into pieces that hold more of the net, spokes
 *  into islands of the pad alone, and the new copper (track id > 0, via id < 0, once per site)
 *  walling those islands or taking a spoke's landing. */
interface Relief {
  good: number;
  island: number;
  /** Tracks of the net leaving the pad into fill: KiCad counts each as a spoke. */
  manual: number;
  walls: number[];
}

/** The spokes KiCad counts, by its rule: spokes into islands of the pad alone do not count,
 *  tracks of the net leaving the pad into fill do; with neither, the island spokes count after
 *  all (the pad is then the connectivity check's business). */
function spokesCounted(r: Relief): number {
  const spokes = r.good + r.manual;
  return spokes > 0 ? spokes : r.island;
}

/** Fewer spokes than the minimum is a starved relief; one with no spoke at all is none. */
function starved(r: Relief, min: number): boolean {
  if (r.good === 0 && r.island === 0) return false;
  return spokesCounted(r) < min;
}

/** Each pad's relief on each fill layer (key: layer × pads + pad) after the given new copper. */
function reliefs(host: RouterHost, grid: Grid, fills: Fill[], tracks: NewTrack[], vias: NewVia[]): Map<number, Relief> {
  const out = new Map<number, Relief>();
  const state = new Int32Array(grid.cells);
  const owner = new Int32Array(grid.cells);
  for (const f of fills) {
    // state: 0 outside, -1 blocked by new copper, -2 free fill, k > 0 piece label; only the
    // polygon's own sites are written, and cleared again below.
    for (let i = 0; i < f.cells.length; i++) state[f.cells[i]] = -2;
    const clr = Math.max(f.clearance, host.rules.clearance(f.net, 0, f.layer));
    const close = (s: Shape) => boxesOverlap(inflateBox(bbox(s), clr), f.box);
    const block = (id: number) => (cell: number) => {
      if (state[cell] === -2 || state[cell] === -1) {
        state[cell] = -1;
        owner[cell] = id;
      }
    };
    const own: Shape[] = [];
    const ownTracks: NewTrack[] = [];
    tracks.forEach((t, i) => {
      if (t.layer !== f.layer) return;
      const sh = segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width);
      if (!close(sh)) return;
      if (t.net === f.net) {
        own.push(sh);
        ownTracks.push(t);
      } else near(grid, sh, clr, block(i + 1));
    });
    vias.forEach((v, i) => {
      if (v.layerFrom > f.layer || f.layer > v.layerTo) return;
      const sh = circle(v.at.x, v.at.y, v.size / 2);
      if (!close(sh)) return;
      if (v.net === f.net) own.push(sh);
      else near(grid, sh, clr, block(-(i + 1)));
    });
    // Label the pieces (8-connected: the grid is coarser than KiCad's fill outline).
    let labels = 0;
    const queue: number[] = [];
    for (let i = 0; i < f.cells.length; i++) {
      const s = f.cells[i];
      if (state[s] !== -2) continue;
      const label = ++labels;
      state[s] = label;
      queue.length = 0;
      queue.push(s);
      for (let h = 0; h < queue.length; h++) {
        for (const m of around(grid, queue[h])) {
          if (state[m] !== -2) continue;
          state[m] = label;
          queue.push(m);
        }
      }
    }
    // What each piece holds: one pad (its index), or -1 for more than one item of the net
    // (a second pad, a fixed or new track or via).
    const holder = new Int32Array(labels + 1).fill(-2);
    const hold = (label: number, by: number) => {
      holder[label] = holder[label] === -2 || holder[label] === by ? by : -1;
    };
    for (let i = 0; i < f.spokePads.length; i++) if (state[f.spokeCells[i]] > 0) hold(state[f.spokeCells[i]], f.spokePads[i]);
    for (let i = 0; i < f.fixed.length; i++) if (state[f.fixed[i]] > 0) hold(state[f.fixed[i]], -1);
    for (const sh of own) near(grid, sh, 1, (c) => state[c] > 0 && hold(state[c], -1));
    // The new copper bordering each piece that is an island of one pad.
    const border = new Map<number, number[]>();
    for (let i = 0; i < f.cells.length; i++) {
      const c = f.cells[i];
      if (state[c] !== -1) continue;
      const seen: number[] = [];
      for (const m of around(grid, c)) {
        const l = state[m];
        if (l <= 0 || holder[l] < 0 || seen.includes(l)) continue;
        seen.push(l);
        let w = border.get(l);
        if (!w) border.set(l, (w = []));
        w.push(owner[c]);
      }
    }
    for (let i = 0; i < f.spokePads.length; i++) {
      const l = state[f.spokeCells[i]];
      if (l === 0) continue;
      const key = f.layer * host.pads.length + f.spokePads[i];
      let r = out.get(key);
      if (!r) {
        out.set(key, (r = { good: 0, island: 0, manual: 0, walls: [] }));
        r.manual = manualSpokes(host.pads[f.spokePads[i]], f.gap, ownTracks, (x, y) => state[grid.row(y) * grid.nx + grid.col(x)] > 0);
      }
      // A spoke whose landing new copper took is gone: that copper starves the relief too.
      if (l === -1) r.walls.push(owner[f.spokeCells[i]]);
      else if (holder[l] === -1) r.good++;
      else {
        r.island++;
        for (const id of border.get(l) ?? []) r.walls.push(id);
      }
    }
    for (let i = 0; i < f.cells.length; i++) state[f.cells[i]] = 0;
  }
  return out;
}

/** The thermal reliefs new copper starves: each pad's relief on each fill layer (key: layer ×
 *  pads + pad) that is starved with the copper and was not before any routing. */
export class ReliefGuard {
  #fills: Fill[] | undefined;
  #before: Map<number, Relief> | undefined;

  constructor(
    readonly host: RouterHost,
    readonly grid: Grid,
  ) {}

  starved(tracks: NewTrack[], vias: NewVia[]): Map<number, Relief> {
    const fills = (this.#fills ??= fillsOf(this.host, this.grid));
    const out = new Map<number, Relief>();
    if (fills.length === 0) return out;
    const before = (this.#before ??= reliefs(this.host, this.grid, fills, [], []));
    const min = this.host.rules.minSpokes;
    for (const [key, r] of reliefs(this.host, this.grid, fills, tracks, vias)) {
      const was = before.get(key);
      // A relief the route cuts off from the plane altogether is flagged too, though KiCad lets
      // spokes into islands alone pass: its refill may draw a new spoke to the plane beside them,
      // and one spoke to the plane with the rest in islands is starved.
      const cutOff = r.good === 0 && r.manual === 0 && r.island > 0 && (was?.good ?? 0) > 0;
      if ((starved(r, min) || cutOff) && !(was && starved(was, min))) out.set(key, r);
    }
    return out;
  }
}

/** A Verify that flags new copper starving a thermal relief of a zone's net: cutting the fill
 *  its spokes reach into islands of the pad alone, or taking a spoke's landing. Reliefs starved
 *  before any routing are not the route's doing and are left alone. */
export function islandVerify(host: RouterHost, grid: Grid, guard = new ReliefGuard(host, grid)): Verify {
  return (tracks, vias) => {
    const out = { tracks: new Set<number>(), vias: new Set<number>(), why: new Map<string, string>() };
    const netOf = (id: number) => (id > 0 ? tracks[id - 1].net : vias[-id - 1].net);
    for (const [relief, r] of guard.starved(tracks, vias)) {
      const said = reliefSaid(host, relief, r);
      // One net's share of the walls goes per pass (the net with the most of it, then
      // the lowest code): freeing one side often suffices, and the gate judges again.
      const count = new Map<number, number>();
      for (const id of r.walls) count.set(netOf(id), (count.get(netOf(id)) ?? 0) + 1);
      let wall = -1;
      for (const [net, n] of count) if (wall < 0 || n > count.get(wall)! || (n === count.get(wall)! && net < wall)) wall = net;
      for (const id of r.walls) {
        if (netOf(id) !== wall) continue;
        const key = id > 0 ? `t${id - 1}` : `v${-id - 1}`;
        if (id > 0) out.tracks.add(id - 1);
        else out.vias.add(-id - 1);
        if (!out.why.has(key)) out.why.set(key, said);
      }
    }
    return out;
  };
}

/** What starving relief `key` (layer × pads + pad) means, naming the pad, its net and layer and
 *  the spokes left, so the reason says which relief to look at. */
function reliefSaid(host: RouterHost, key: number, r: Relief): string {
  const pad = host.pads[key % host.pads.length];
  const layer = Math.floor(key / host.pads.length);
  const left = spokesCounted(r);
  const name = host.netNames[pad.net] || `net ${pad.net}`;
  return `it would leave the thermal relief of pad ${pad.ref}.${pad.number} (${name}) on ${host.layerName(layer)} with ${left} spoke${left === 1 ? '' : 's'} to the zone after refill, fewer than ${host.rules.minSpokes} (starved thermal)`;
}

/** Both judges: what either flags is flagged. */
export function bothVerify(a: Verify, b: Verify | undefined): Verify {
  if (!b) return a;
  return (tracks, vias) => {
    const x = a(tracks, vias);
    const y = b(tracks, vias);
    for (const t of y.tracks) x.tracks.add(t);
    for (const v of y.vias) x.vias.add(v);
    for (const [k, w] of y.why) if (!x.why.has(k)) x.why.set(k, w);
    return x;
  };
}

/** Rounds of settling islands inside the router (before the final gate). */
const SETTLE_ROUNDS = 2;
/** History cost laid on a route that starved a relief, so its re-search goes elsewhere. */
const ISLAND_HIST = 4;

/**
 * Before the final gate, while the router can still act: the joins that would starve a
 * thermal relief are taken out, their sites made dearer, and their nets committed again (what is
 * left of them legal, the rest searched hard), so a cut becomes a detour rather than an open
 * connection where room allows.
 */
export function settleIslands(router: Router, plans: NetPlan[], judge: Verify): void {
  const byName = byNetName(router.host);
  const byNet = [...plans].sort((a, b) => byName(a.net, b.net));
  const nets = byNet.map((p) => ({ net: p.net, profile: router.profiles[p.profile] }));
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    if (!router.mayStart()) return;
    const before = router.kept();
    const after = new Map(before);
    const cut = gate(after, nets, router.grid.layers, judge);
    if (cut.size === 0) return;
    for (const plan of byNet) {
      const was = before.get(plan.net) ?? [];
      const now = after.get(plan.net) ?? [];
      if (now.length === was.length) continue;
      const view = router.occ.views[plan.profile];
      for (const j of was) if (!now.includes(j)) for (let i = 0; i < j.path.length; i++) view.hist[j.path[i]] += ISLAND_HIST;
      router.unplace(plan);
      router.commitNet(plan, now);
    }
  }
}
