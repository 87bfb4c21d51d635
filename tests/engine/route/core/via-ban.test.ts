// The sites a net may not drill its next via at (core/via-ban.ts): every site nearer one of its
// vias than drill/2 + hole-to-hole + drill/2, that via's own site excepted; and the search drills
// none there, going on along its layer to a site past them.
import { describe, expect, it } from 'vitest';
import { Grid } from '../../../../engine/route/core/grid.ts';
import { ObstacleMap } from '../../../../engine/route/core/obstacle-map.ts';
import type { Profile } from '../../../../engine/route/core/profile.ts';
import { Searcher, type CongestionView } from '../../../../engine/route/core/search.ts';
import { banViaSites } from '../../../../engine/route/core/via-ban.ts';

const STEP = 127_000;

describe('via sites banned round a net’s own via', () => {
  it('bans the sites within reach, not the via’s own site nor those at the reach', () => {
    const g = new Grid(0, 0, STEP, 40 * STEP, 40 * STEP, 2);
    const ban = new Set<number>();
    // kicad-demo_video: 0.4 mm drills, 0.25 mm hole-to-hole: 0.65 mm between centres.
    const reach = 200_000 + 250_000 + 200_000;
    banViaSites(g, ban, 20 * STEP, 20 * STEP, reach);
    const at = (i: number, j: number) => j * g.nx + i;
    expect(ban.has(at(20, 20))).toBe(false);
    // 0.508 and 0.635 mm away (4 and 5 steps): refused by the DRC, so banned.
    expect(ban.has(at(24, 20))).toBe(true);
    expect(ban.has(at(20, 15))).toBe(true);
    // 6 steps, 0.762 mm: clear.
    expect(ban.has(at(26, 20))).toBe(false);
    // Every banned site is within reach, and every site within reach but the own is banned.
    let inside = 0;
    for (let j = 0; j < g.ny; j++)
      for (let i = 0; i < g.nx; i++) {
        const d = Math.hypot((i - 20) * STEP, (j - 20) * STEP);
        if (d < reach && (i !== 20 || j !== 20)) inside++;
        if (ban.has(at(i, j))) expect(d).toBeLessThan(reach);
      }
    expect(ban.size).toBe(inside);
  });

  it('stays inside the grid near its edge and rounds an off-grid via to its nearest site', () => {
    const g = new Grid(1_000, 2_000, STEP, 10 * STEP, 10 * STEP, 2);
    const ban = new Set<number>();
    banViaSites(g, ban, 1_000 + 30_000, 2_000 - 20_000, 400_000);
    expect(ban.has(0)).toBe(false);
    for (const c of ban) expect(c).toBeLessThan(g.cells);
    expect(ban.has(1)).toBe(true);
    expect(ban.has(g.nx)).toBe(true);
  });
});

describe('the search past banned via sites', () => {
  const profile: Profile = { key: 'test', net: 1, width: [100_000, 100_000], viaDiameter: 400_000, viaDrill: 200_000, clearance: 100_000 };
  /** A row of 10 sites on two layers, from site 0 on F.Cu to site `to` on B.Cu: where the via goes. */
  function viaSite(to: number, ban?: Set<number>): number | null {
    const grid = new Grid(0, 0, 100_000, 900_000, 0, 2);
    const n = grid.cells * grid.layers;
    const occ: CongestionView = {
      track: new Uint16Array(n),
      via: new Uint16Array(grid.cells),
      hist: new Float32Array(n),
      histVia: new Float32Array(grid.cells),
    };
    const s = new Searcher(grid.nx, grid.ny, grid.layers);
    s.newTargets();
    s.addTarget(grid.cells + to);
    const p = {
      net: 1,
      map: new ObstacleMap(grid, profile),
      occ,
      pres: 0,
      hard: false,
      viaCost: 5,
      bend45: 0,
      bend90: 0,
      layerCost: new Float64Array([1, 1]),
      zoneCost: 1,
      maxWork: 1_000_000,
      hWeight: 1,
      viaBan: ban,
    };
    const out = s.run(p, [0], to, 0, to, 0, 2);
    if (!out.path) return null;
    const path = [...out.path];
    const k = path.findIndex((node) => node >= grid.cells);
    return path[k - 1] % grid.cells;
  }

  it('drills where it is allowed, never on a banned site, and finds no way where every site is', () => {
    expect(viaSite(3)).not.toBeNull();
    const ban = new Set([0, 1, 2, 3, 4, 5]);
    const at = viaSite(3, ban)!;
    expect(at).toBeGreaterThanOrEqual(6);
    expect(viaSite(3, new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))).toBeNull();
  });
});
