// Zone refill, approximately: KiCad refills a zone around new copper of other nets, and a fill
// cut so that a pad of the zone's net ends on a small island of it is a starved thermal (an
// error). On the routing grid each fill polygon is flood-filled with the new foreign copper
// (grown by the zone's clearance) taken out; a pad of the zone's net whose piece holds nothing
// else of its net flags the new copper bordering that piece. Exact DRC is not its business.

import { bbox, compareDistance, segment, circle, type Shape } from '../geom/index.ts';
import type { Grid } from './grid.ts';
import type { RouterHost } from './host.ts';
import { gate, type Verify } from './final-gate.ts';
import type { NetPlan } from './net-plan.ts';
import type { Router } from './router.ts';

interface Fill {
  net: number;
  layer: number;
  clearance: number;
  /** Sites inside the polygon (cells of one layer), ascending. */
  cells: Int32Array;
  /** For each pad of the net on this layer touching the polygon: its sites inside it. */
  pads: Int32Array[];
  /** The polygon's box (nm), to skip copper far from it. */
  box: { minX: number; minY: number; maxX: number; maxY: number };
}

/** Sites inside a shape (one layer's cells, ascending). Polygons by scanline over their ring
 *  edges (even-odd: holes are rings too), which is linear in rows × edges; other shapes by the
 *  exact point test. */
function inside(grid: Grid, shape: Shape): number[] {
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

/** Sites within `reach` nm of a shape (one layer's cells), calling `mark` for each. */
function near(grid: Grid, shape: Shape, reach: number, mark: (cell: number) => void): void {
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

/** The fills of the host's zones with the pads of their nets inside them. */
function fillsOf(host: RouterHost, grid: Grid): Fill[] {
  const fills: Fill[] = [];
  for (const o of host.obstacles) {
    if (o.kind !== 'zone' || o.net <= 0) continue;
    const layer = 31 - Math.clz32(o.layers);
    if (layer < 0 || layer >= grid.layers || o.layers !== 1 << layer) continue;
    const cells = inside(grid, o.shape);
    if (cells.length === 0) continue;
    const set = new Set(cells);
    const pads: Int32Array[] = [];
    for (const p of host.pads) {
      if (p.net !== o.net || ((p.layers >>> layer) & 1) === 0) continue;
      // The fill keeps a thermal gap round the pad, bridged by spokes: the pad's foothold in the
      // fill is the fill just beyond that gap (its raised clearance, host-from-design.ts).
      const mine: number[] = [];
      near(grid, p.shape, Math.max(p.clearance, o.clearance) + 2 * grid.step, (c) => {
        if (set.has(c)) mine.push(c);
      });
      if (mine.length) pads.push(Int32Array.from(mine));
    }
    // A polygon reaching one pad only was an island before any routing: nothing to keep.
    if (pads.length >= 2) fills.push({ net: o.net, layer, clearance: o.clearance, cells: Int32Array.from(cells), pads, box: bbox(o.shape) });
  }
  return fills;
}

/** A Verify that flags new copper cutting a pad of a zone's net off its fill. */
export function islandVerify(host: RouterHost, grid: Grid): Verify {
  let fills: Fill[] | undefined;
  return (tracks, vias) => {
    fills ??= fillsOf(host, grid);
    const out = { tracks: new Set<number>(), vias: new Set<number>(), why: new Map<string, string>() };
    if (fills.length === 0) return out;
    const cells = grid.cells;
    const state = new Int32Array(cells);
    const owner = new Int32Array(cells);
    for (const f of fills) {
      // state: 0 outside, -1 blocked by new copper, -2 free fill, k > 0 piece label; only the
      // polygon's own sites are written, and cleared again below.
      for (let i = 0; i < f.cells.length; i++) state[f.cells[i]] = -2;
      const clr = Math.max(f.clearance, host.rules.clearance(f.net, 0, f.layer));
      const b = f.box;
      const close = (s: Shape) => {
        const t = bbox(s);
        return t.minX - clr <= b.maxX && b.minX <= t.maxX + clr && t.minY - clr <= b.maxY && b.minY <= t.maxY + clr;
      };
      const block = (id: number) => (cell: number) => {
        if (state[cell] === -2 || state[cell] === -1) {
          state[cell] = -1;
          owner[cell] = id;
        }
      };
      tracks.forEach((t, i) => {
        if (t.net === f.net || t.layer !== f.layer) return;
        const sh = segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width);
        if (close(sh)) near(grid, sh, clr, block(i + 1));
      });
      vias.forEach((v, i) => {
        if (v.net === f.net || v.layerFrom > f.layer || f.layer > v.layerTo) return;
        const sh = circle(v.at.x, v.at.y, v.size / 2);
        if (close(sh)) near(grid, sh, clr, block(-(i + 1)));
      });
      // Label the pieces (4-connected), then keep the largest as the plane.
      const sizes: number[] = [0];
      const queue: number[] = [];
      for (let i = 0; i < f.cells.length; i++) {
        const s = f.cells[i];
        if (state[s] !== -2) continue;
        const label = sizes.length;
        let size = 0;
        state[s] = label;
        queue.length = 0;
        queue.push(s);
        for (let h = 0; h < queue.length; h++) {
          const c = queue[h];
          size++;
          for (const m of around(grid, c)) {
            if (state[m] !== -2) continue;
            state[m] = label;
            queue.push(m);
          }
        }
        sizes.push(size);
      }
      // A piece holding two pads of the net, or new copper of the net, is plane enough; a pad
      // whose every piece holds nothing else of its net hangs on an isolated island.
      const holders = new Map<number, number>();
      const hold = (label: number, by: number) => {
        const h = holders.get(label);
        holders.set(label, h === undefined || h === by ? by : -1);
      };
      f.pads.forEach((pad, k) => {
        for (let i = 0; i < pad.length; i++) if (state[pad[i]] > 0) hold(state[pad[i]], k);
      });
      const own = (shape: Shape) => near(grid, shape, 0, (c) => state[c] > 0 && hold(state[c], -1));
      tracks.forEach((t) => {
        if (t.net !== f.net || t.layer !== f.layer) return;
        const sh = segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width);
        if (close(sh)) own(sh);
      });
      vias.forEach((v) => {
        if (v.net !== f.net || v.layerFrom > f.layer || f.layer > v.layerTo) return;
        const sh = circle(v.at.x, v.at.y, v.size / 2);
        if (close(sh)) own(sh);
      });
      for (const pad of f.pads) {
        const pieces = new Set<number>();
        let fine = false;
        for (let i = 0; i < pad.length; i++) {
          const st = state[pad[i]];
          if (st <= 0) continue;
          pieces.add(st);
          if (holders.get(st) === -1) fine = true;
        }
        if (fine || pieces.size === 0) continue;
        // The new copper bordering the pad's island cut it off; one net's share of it goes per
        // pass (the net with the most of that border, then the lowest code), since freeing one
        // side of the island often suffices and the gate judges again.
        const border = new Map<number, number[]>();
        for (let i = 0; i < f.cells.length; i++) {
          const c = f.cells[i];
          if (state[c] !== -1 || !around(grid, c).some((m) => pieces.has(state[m]))) continue;
          const id = owner[c];
          const net = id > 0 ? tracks[id - 1].net : vias[-id - 1].net;
          let l = border.get(net);
          if (!l) border.set(net, (l = []));
          l.push(id);
        }
        let wall = -1;
        for (const [net, ids] of border) if (wall < 0 || ids.length > border.get(wall)!.length || (ids.length === border.get(wall)!.length && net < wall)) wall = net;
        for (const id of wall < 0 ? [] : border.get(wall)!) {
          const key = id > 0 ? `t${id - 1}` : `v${-id - 1}`;
          if (id > 0) out.tracks.add(id - 1);
          else out.vias.add(-id - 1);
          if (!out.why.has(key)) out.why.set(key, 'it would cut a pad of a zone’s net off the zone after refill (starved thermal)');
        }
      }
      for (let i = 0; i < f.cells.length; i++) state[f.cells[i]] = 0;
    }
    return out;
  };
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
/** History cost laid on a route that cut a pad off its plane, so its re-search goes elsewhere. */
const ISLAND_HIST = 4;

/**
 * Before the final gate, while the router can still act: the joins that would cut a pad off
 * its plane are taken out, their sites made dearer, and their nets committed again (what is
 * left of them legal, the rest searched hard), so a cut becomes a detour rather than an open
 * connection where room allows.
 */
export function settleIslands(router: Router, plans: NetPlan[], judge: Verify): void {
  const byNet = [...plans].sort((a, b) => a.net - b.net);
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
