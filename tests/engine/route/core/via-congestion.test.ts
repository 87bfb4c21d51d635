// What a via on a contested site costs the negotiation's search (core/search.ts) where the call
// prices it by its footprint (the variant an escalation round adds): its cost, plus its footprint
// (viaCongestion) per net it meets there at the present factor, and per unit of the site's
// history. Priced as viaCost contested sites (every other variant's rule), a column net on
// kitspace_d20_tri_r0.3 crossed the LED rows on their own layer wherever every via site near its
// pads lay near some row's track, and the negotiation never settled.
import { describe, expect, it } from 'vitest';
import { Grid } from '../../../../engine/route/core/grid.ts';
import { ObstacleMap } from '../../../../engine/route/core/obstacle-map.ts';
import type { Profile } from '../../../../engine/route/core/profile.ts';
import { Searcher, type CongestionView, type SearchParams } from '../../../../engine/route/core/search.ts';
import { FOOTPRINT_VIA_SHARE, viaPrice } from '../../../../engine/route/plan/costs.ts';

const profile: Profile = { key: 'test', net: 1, width: [100_000, 100_000], viaDiameter: 400_000, viaDrill: 200_000, clearance: 100_000 };

function world(nx: number) {
  const grid = new Grid(0, 0, 100_000, (nx - 1) * 100_000, 0, 2);
  const map = new ObstacleMap(grid, profile);
  const n = grid.cells * grid.layers;
  const occ: CongestionView = { track: new Uint16Array(n), via: new Uint16Array(grid.cells), hist: new Float32Array(n), histVia: new Float32Array(grid.cells) };
  const params = (over: Partial<SearchParams>): SearchParams => ({
    net: 1,
    map,
    occ,
    pres: 0,
    hard: false,
    viaCost: 60,
    viaCongestion: 5,
    bend45: 0,
    bend90: 0,
    layerCost: new Float64Array([1, 1]),
    zoneCost: 1,
    maxWork: 1_000_000,
    hWeight: 1,
    ...over,
  });
  return { grid, occ, params, searcher: new Searcher(grid.nx, grid.ny, grid.layers) };
}

/** The cost of the cheapest path from site 0 of layer 0 to `to`, found by the search. */
function cost(w: ReturnType<typeof world>, p: SearchParams, to: number): number {
  const s = w.searcher;
  s.newTargets();
  s.addTarget(to);
  const cell = to % w.grid.cells;
  const out = s.run(p, [0], cell, 0, cell, 0, 1 << Math.floor(to / w.grid.cells));
  expect(out.path).not.toBeNull();
  return s.g[to];
}

describe('a via on a contested site', () => {
  it('pays its footprint per net met there at the present factor, on top of its cost', () => {
    const w = world(1);
    const below = w.grid.cells; // the same site on layer 1
    expect(cost(w, w.params({}), below)).toBeCloseTo(60, 9);
    w.occ.via[0] = 2;
    expect(cost(w, w.params({ pres: 10 }), below)).toBeCloseTo(60 + 5 * 10 * 2, 9);
    // Without a footprint, the whole via is priced again per net there.
    expect(cost(w, w.params({ pres: 10, viaCongestion: undefined }), below)).toBeCloseTo(60 * (1 + 10 * 2), 9);
    // Its history counts by its footprint too, and multiplies what the present nets cost.
    w.occ.histVia[0] = 0.5;
    expect(cost(w, w.params({ pres: 10 }), below)).toBeCloseTo(60 + 5 * (1.5 * 21 - 1), 9);
    // A net's copper on the layer it lands on is met there too.
    w.occ.via[0] = 0;
    w.occ.histVia[0] = 0;
    w.occ.track[below] = 1;
    expect(cost(w, w.params({ pres: 10 }), below)).toBeCloseTo(60 + 5 * 10, 9);
  });

  it('goes under a contested track rather than along it when two vias cost less than the steps it holds', () => {
    // Thirteen sites in a row; another net's copper holds the middle nine on layer 0 (a track
    // run along, or the stamps of a few crossings), and every via site is contested by one net,
    // as in a dense area where some track lies near every via site.
    const w = world(13);
    const cells = w.grid.cells;
    for (let x = 2; x <= 10; x++) w.occ.track[x] = 1;
    for (let x = 0; x < 13; x++) w.occ.via[x] = 1;
    const layersOf = (p: SearchParams) => {
      w.searcher.newTargets();
      w.searcher.addTarget(12);
      const out = w.searcher.run(p, [0], 12, 0, 12, 0, 1);
      return Array.from(out.path!, (n) => Math.floor(n / cells));
    };
    // At factor 100 the nine steps cost 9·101 = 909; two vias with a footprint of 3 cost
    // 2·(60 + 3·100) = 720, and priced whole per net, 2·60·101 = 12120.
    expect(layersOf(w.params({ pres: 100, viaCongestion: 3 }))).toContain(1);
    expect(layersOf(w.params({ pres: 100, viaCongestion: undefined }))).not.toContain(1);
  });
});

describe('the price of a via a call routes with', () => {
  // kitspace_d20_tri_r0.3's class: a 0.46 mm via at 0.1016 mm clearance, on its 63.5 µm grid.
  const span = 460_000 + 101_600;
  const step = 63_500;

  it('is about 3 mm of track and twice its span, or 8 steps, and is not priced by its footprint', () => {
    expect(viaPrice(span, step, false)).toEqual({ viaCost: (3_000_000 + 2 * span) / step });
    expect(viaPrice(span, 1_000_000, false)).toEqual({ viaCost: 8 });
  });

  it('priced by its footprint: a third of that, and its span per net met on a contested site', () => {
    const p = viaPrice(span, step, true);
    expect(p.viaCost).toBeCloseTo(((3_000_000 + 2 * span) / step) * FOOTPRINT_VIA_SHARE, 9);
    expect(FOOTPRINT_VIA_SHARE).toBeCloseTo(1 / 3, 12);
    expect(p.viaCongestion).toBeCloseTo(span / step, 9);
    // Never less than one step a net, on a grid coarser than the via.
    expect(viaPrice(span, 1_000_000, true).viaCongestion).toBe(1);
  });
});
