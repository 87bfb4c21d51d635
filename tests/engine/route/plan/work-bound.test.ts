// A call's `work` bounds what it spends, on real bench boards: set-up is counted exactly before it
// is built (and not begun when the budget cannot hold it), the variants share the call's work, and
// what a call spends passes its work only by the step under way when a share ran out.
import { describe, expect, it } from 'vitest';
import { loadDesignFile } from '../../../../plugin/design-files.ts';
import { relaxedMap, relaxedMapWork } from '../../../../engine/route/explain/fence-proof.ts';
import { gridFor } from '../../../../engine/route/core/grid.ts';
import { buildObstacleMap, obstacleMapWork, RasterMemo } from '../../../../engine/route/core/obstacle-map.ts';
import type { Profile } from '../../../../engine/route/core/profile.ts';
import { chooseStep } from '../../../../engine/route/plan/grid-step.ts';
import { profileOf } from '../../../../engine/route/plan/profiles.ts';
import { routeDesign, routeHost, sessionHost, variantRequest } from '../../../../engine/route/index.ts';
import { benchBoards } from '../../../support/bench.ts';

const bench = (name: string) => loadDesignFile(benchBoards().find((b) => b.name === name)!.bare);

/** The step a variant may add past its share, on these boards: a last search's least and the
 *  grid sites its route marks, twice (see the route tool's `work`). Measured at most ~7,600. */
const STEP = 10_000;

describe('set-up work', () => {
  for (const name of ['Blink-Eras_AVR_ISP_Pogo', 'kitspace_Brk40p', 'fan_controller_fan_controller']) {
    it(`is counted exactly before the maps are built on ${name}`, () => {
      const design = bench(name);
      const host = sessionHost(design, {});
      const classes = new Map<string, Profile>();
      for (const n of design.board.nets)
        if (n.code > 0 && !classes.has(host.rules.className(n.code)))
          classes.set(host.rules.className(n.code), profileOf(host, n.code, host.rules.className(n.code)));
      const profiles = [...classes.values()];
      const grid = gridFor(host, chooseStep(profiles, host.pads));
      const memo = new RasterMemo(grid);
      for (const p of profiles) {
        for (const opt of [
          { softZones: true, viaInPad: false, viasOffPads: false },
          { softZones: false, viaInPad: true, viasOffPads: false },
          { softZones: true, viaInPad: false, viasOffPads: true },
        ]) {
          const predicted = obstacleMapWork(host, grid, p, opt);
          expect(predicted).toBeGreaterThan(0);
          expect(buildObstacleMap(host, grid, p, opt).work).toBe(predicted);
          expect(buildObstacleMap(host, grid, p, opt, memo).work).toBe(predicted);
        }
        expect(relaxedMap(host, grid, p).work).toBe(relaxedMapWork(host, grid, p));
      }
    });
  }

  it('is not begun when the budget cannot hold it: nothing is spent and every connection stays open, untried', () => {
    const design = bench('Blink-Eras_AVR_ISP_Pogo');
    const r = routeHost(sessionHost(design, {}), { work: 1 }, 0);
    expect(r).toMatchObject({ work: 0, budget: 1, stopped: 'budget', tracks: [], vias: [] });
    expect(r.setup).toBeGreaterThan(1);
    expect(r.open.length).toBe(6);
    for (const c of r.open) expect(c.stuck).toMatchObject({ reason: 'budget', tried: false });
    // With room for the set-up, it is spent, once per variant.
    const two = routeDesign(design, { work: 2 * r.setup + 1000, variants: 2 });
    expect(two.setup).toBe(2 * r.setup);
    expect(two.work).toBeGreaterThanOrEqual(two.setup);
  });
});

describe('a call within its work', () => {
  it('splits the work evenly over the variants', () => {
    expect(variantRequest({ work: 1001, variants: 2 }).work).toBe(500);
    expect(variantRequest({ work: 1001 }).work).toBe(1001);
    expect(variantRequest({ variants: 3 })).toEqual({ variants: 3 });
  });

  for (const [name, ladder] of [
    ['Blink-Eras_AVR_ISP_Pogo', [1, 60_000, 75_000, 100_000, 135_000, 600_000]],
    ['kitspace_Brk40p', [250_000, 450_000, 700_000, 1_150_000, 2_000_000]],
  ] as const) {
    it(`spends at most its work and a step per variant on ${name}, all variants together`, () => {
      const design = bench(name);
      for (const work of ladder) {
        const r = routeDesign(design, { work, variants: 2 });
        expect(r.budget).toBe(2 * Math.floor(work / 2));
        expect(r.work, `work ${work}`).toBeLessThanOrEqual(work + 2 * STEP);
      }
    });
  }

  it('keeps a redo without the session copper it may rip within the same work', () => {
    const design = bench('kitspace_Brk40p');
    const first = routeDesign(design, { work: 2_000_000, variants: 1 });
    // The nets left open and a few routed ones; their routed copper is the session's, which this
    // call may rip: when the route with it fixed leaves something open, the call routes again.
    const open = [...new Set(first.open.map((c) => c.net))];
    expect(open.length).toBeGreaterThan(0);
    const nets = [...open, ...[...new Set(first.tracks.map((t) => t.net))].filter((n) => !open.includes(n)).slice(0, 4)];
    const session = (rip: boolean) => ({
      tracks: first.tracks.map((t) => ({ ...t, rippable: rip && nets.includes(t.net) })),
      vias: first.vias.map((v) => ({ ...v, rippable: rip && nets.includes(v.net) })),
    });
    let redone = 0;
    for (const work of [400_000, 800_000, 1_600_000]) {
      const r = routeDesign(design, { work, variants: 1, nets, session: session(true) });
      expect(r.work, `work ${work}`).toBeLessThanOrEqual(work + STEP);
      if (r.work !== routeDesign(design, { work, variants: 1, nets, session: session(false) }).work) redone++;
    }
    expect(redone).toBeGreaterThan(0);
  });
});
