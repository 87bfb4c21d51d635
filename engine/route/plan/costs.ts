// What the searches pay: layer factors (hints, and a thermally joined zone's net on its own
// layers), a via's price (by its footprint on a contested site where the call asks), bends and
// zones, and per-net site costs (hinted regions, other nets' reservations, a corridor's outside).

import { bbox } from '../../geom/index.ts';
import type { Grid } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import type { Profile } from '../core/profile.ts';
import type { NetPlan } from '../negotiate/net-plan.ts';
import type { RouterSettings } from '../negotiate/router.ts';
import type { Attempt } from '../types.ts';

/** Layer cost factor for a thermally joined zone's net on the zone's layers. */
const PLANE_LAYER_COST = 0.6;

/** Layer cost factors: every net's (`base`, or the hinted all-nets entry -1) and per net. */
export function layerFactors(host: RouterHost, req: Attempt): { base: Float64Array; perNet: Map<number, Float64Array> } {
  const L = host.layerCount;
  const base = new Float64Array(L).fill(1);
  const perNet = new Map<number, Float64Array>();
  for (const h of req.hints?.layers ?? []) {
    if (h.layer < 0 || h.layer >= L) continue;
    const nets = h.net === undefined ? [-1] : [h.net];
    for (const n of nets) {
      let a = perNet.get(n);
      if (!a) perNet.set(n, (a = Float64Array.from(perNet.get(-1) ?? base)));
      a[h.layer] = Math.max(0.25, h.cost);
    }
  }
  // The net of a zone with thermal reliefs prefers the zone's layers: a track there lies in its
  // own plane and holds the plane's pieces to its pads (KiCad counts a track leaving a pad into
  // the fill as a spoke), where a track on another layer leaves the reliefs to starve when other
  // nets notch the plane. (Zones joining pads solid gain nothing: measured worse.) Hints win.
  const planes = new Map<number, number>();
  for (const o of host.obstacles) if (o.kind === 'zone' && o.net > 0 && o.thermal) planes.set(o.net, (planes.get(o.net) ?? 0) | o.layers);
  for (const [net, layers] of [...planes].sort((a, b) => a[0] - b[0])) {
    if (perNet.has(net)) continue;
    const a = Float64Array.from(perNet.get(-1) ?? base);
    for (let l = 0; l < L; l++) if ((layers >>> l) & 1) a[l] *= PLANE_LAYER_COST;
    perNet.set(net, a);
  }
  return { base, perNet };
}

/** A via's cost where the call prices vias by their footprint: priced as its span on a contested
 *  site, it also pays less to go down at all, so a net drops under a crowded layer before the
 *  negotiation has grown its history there. */
export const FOOTPRINT_VIA_SHARE = 1 / 3;

/**
 * What a via costs the searches, in grid steps of `step`, for vias whose copper and clearance span
 * `span` (nm): about as much as 3 mm of track and its span twice, or 8 steps, whichever is more.
 * Where the call prices vias by their `footprint`, a contested one pays its span per net there
 * (SearchParams.viaCongestion) and a third of that cost.
 */
export function viaPrice(span: number, step: number, footprint: boolean): { viaCost: number; viaCongestion?: number } {
  const viaCost = Math.max(8, (3_000_000 + 2 * span) / step);
  return footprint ? { viaCost: viaCost * FOOTPRINT_VIA_SHARE, viaCongestion: Math.max(1, span / step) } : { viaCost };
}

export function settingsFor(
  host: RouterHost,
  grid: Grid,
  req: Attempt,
  profiles: Profile[],
  netProfile: Map<number, number>,
  plans: NetPlan[],
): RouterSettings {
  const via = Math.max(...profiles.map((p) => p.viaDiameter + p.clearance), 0);
  const { base, perNet } = layerFactors(host, req);
  return {
    ...viaPrice(via, grid.step, req.footprintVias === true),
    bend45: 0.2,
    bend90: 0.6,
    zoneCost: 1.3,
    hWeight: 1.15,
    maxIterations: 30,
    layerCost: (net) => perNet.get(net) ?? perNet.get(-1) ?? base,
    siteCost: siteCosts(host, grid, req, profiles, netProfile, plans),
  };
}

/**
 * Per-net site cost factors: hinted regions (prefer, avoid), and walls only this net meets —
 * other nets' reservations, grown by this net's half width and clearance so its copper stays
 * out of the box, and the outside of a connection's corridor (its ends' surroundings excepted).
 * Nets that meet the same regions and walls share one array: a board's worth of cells per net
 * would not fit.
 */
function siteCosts(
  host: RouterHost,
  grid: Grid,
  req: Attempt,
  profiles: Profile[],
  netProfile: Map<number, number>,
  plans: NetPlan[],
): (net: number) => Float32Array | undefined {
  const L = host.layerCount;
  const regions = req.hints?.regions ?? [];
  const reserved = req.reserved ?? [];
  const conn = req.connection;
  const shared = new Map<string, Float32Array>();
  const byNet = new Map<number, Float32Array | undefined>();
  const fill = (arr: Float32Array, minX: number, minY: number, maxX: number, maxY: number, layers: readonly number[] | undefined, f: (v: number) => number) => {
    const [c0, c1] = grid.colRange(minX, maxX);
    const [r0, r1] = grid.rowRange(minY, maxY);
    for (let l = 0; l < L; l++) {
      if (layers && !layers.includes(l)) continue;
      for (let y = r0; y <= r1; y++) for (let x = c0; x <= c1; x++) arr[l * grid.cells + y * grid.nx + x] = f(arr[l * grid.cells + y * grid.nx + x]);
    }
  };
  return (net) => {
    if (byNet.has(net)) return byNet.get(net);
    const mine = regions.map((r, i) => (!r.nets || r.nets.includes(net) ? i : -1)).filter((i) => i >= 0);
    const walls = reserved.map((r, i) => (r.net !== net ? i : -1)).filter((i) => i >= 0);
    const corridor = conn?.corridor && conn.net === net ? conn.corridor : undefined;
    const k = netProfile.get(net) ?? 0;
    const key = `${mine.join(',')}|${walls.join(',')}|${corridor ? 'c' : ''}|${walls.length ? k : ''}`;
    let arr: Float32Array | undefined = shared.get(key);
    if (!arr && (mine.length || walls.length || corridor)) {
      arr = new Float32Array(grid.cells * L).fill(1);
      for (const i of mine) {
        const r = regions[i];
        const f = r.mode === 'prefer' ? 0.7 : 4;
        fill(arr, r.minX, r.minY, r.maxX, r.maxY, r.layers, (v) => v * f);
      }
      const p = profiles[k];
      const grow = p ? Math.ceil(Math.max(...p.width) / 2) + p.clearance : 0;
      for (const i of walls) {
        const r = reserved[i];
        fill(arr, r.minX - grow, r.minY - grow, r.maxX + grow, r.maxY + grow, r.layers, () => Infinity);
      }
      if (corridor) {
        const inside = new Uint8Array(grid.cells);
        const open = (minX: number, minY: number, maxX: number, maxY: number) => {
          const [c0, c1] = grid.colRange(minX, maxX);
          const [r0, r1] = grid.rowRange(minY, maxY);
          for (let y = r0; y <= r1; y++) for (let x = c0; x <= c1; x++) inside[y * grid.nx + x] = 1;
        };
        open(corridor.minX, corridor.minY, corridor.maxX, corridor.maxY);
        // The ends and the waypoints stay reachable whatever the box: a few steps round their copper.
        const margin = 4 * grid.step;
        for (const plan of plans)
          if (plan.net === net)
            for (const pc of plan.pieces)
              for (const c of pc.copper) {
                const b = bbox(c.shape);
                open(b.minX - margin, b.minY - margin, b.maxX + margin, b.maxY + margin);
              }
        for (let l = 0; l < L; l++) for (let c = 0; c < grid.cells; c++) if (!inside[c]) arr[l * grid.cells + c] = Infinity;
      }
      shared.set(key, arr);
    }
    byNet.set(net, arr);
    return arr;
  };
}
