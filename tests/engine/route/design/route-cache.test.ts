// A RouteCache kept across routes on one design gives the bytes a route without it gives: the
// board's world is reused, session copper is laid over the kept obstacle maps, and a cache handed
// another design starts over. A map for another net, built from kept rasterizations, is the map
// built without them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDesign } from '../../../../engine/kicad/load.ts';
import type { Design } from '../../../../engine/board/design.ts';
import { RouteCache, routeDesign, routeVariant, type RouteRequest, type RouteResult } from '../../../../engine/route/index.ts';
import { gridFor } from '../../../../engine/route/core/grid.ts';
import { hostFromDesign } from '../../../../engine/route/design/host-from-design.ts';
import { buildObstacleMap, RasterMemo } from '../../../../engine/route/core/obstacle-map.ts';
import { chooseStep } from '../../../../engine/route/plan/grid-step.ts';
import { profileOf } from '../../../../engine/route/plan/profiles.ts';
import { benchBoards } from '../../../support/bench.ts';

const board = benchBoards().find((b) => b.tier === 'A' && b.name === 'Blink-Eras_AVR_ISP_Pogo')!;
const load = (): Design => loadDesign({ board: readFileSync(board.bare, 'utf8'), project: readFileSync(board.pro, 'utf8') });
const bytes = (r: RouteResult) => JSON.stringify(r);

describe('RouteCache', () => {
  const design = load();
  const all = routeDesign(design, { seed: 1, work: 2_000_000 });
  const nets = [...new Set(all.tracks.map((t) => t.net))].sort((a, b) => a - b);
  // A second route of other nets with the first ones' copper kept from earlier in the session.
  const half = new Set(nets.slice(0, Math.ceil(nets.length / 2)));
  const session = { tracks: all.tracks.filter((t) => half.has(t.net)), vias: all.vias.filter((v) => half.has(v.net)) };
  const requests: RouteRequest[] = [
    { seed: 1, work: 2_000_000 },
    { seed: 3, work: 2_000_000, nets: nets.filter((n) => !half.has(n)), session },
    { seed: 1, work: 2_000_000, options: { viaInPad: true } },
  ];

  it('has copper to route with (the board routes)', () => {
    expect(nets.length).toBeGreaterThan(1);
    expect(session.tracks.length).toBeGreaterThan(0);
  });

  it('routes twice with a shared cache to the same bytes as without one', () => {
    const cache = new RouteCache();
    for (const req of requests) {
      const plain = bytes(routeVariant(design, req, 0));
      expect(bytes(routeVariant(design, req, 0, cache))).toBe(plain);
      expect(bytes(routeVariant(design, req, 0, cache))).toBe(plain);
    }
    expect(bytes(routeDesign(design, { ...requests[1], variants: 2 }, cache))).toBe(bytes(routeDesign(design, { ...requests[1], variants: 2 })));
  });

  it('routes another net with the cache a first net filled to the bytes it routes to without one', () => {
    // Nets routed one at a time, as successive "route selected" actions on different nets do.
    const cache = new RouteCache();
    for (const n of nets) {
      const req = { seed: 1, work: 2_000_000, nets: [n] };
      expect(bytes(routeVariant(design, req, 0, cache))).toBe(bytes(routeVariant(design, req, 0)));
    }
  });

  it('builds from kept rasterizations the map it builds without them, for every net', () => {
    const host = hostFromDesign(design);
    const opt = { softZones: true, viaInPad: false, viasOffPads: false };
    const profiles = nets.map((n) => profileOf(host, n, host.rules.className(n)));
    const grid = gridFor(host, chooseStep(profiles, host.pads));
    const memo = new RasterMemo(grid);
    for (const p of profiles) {
      const fresh = buildObstacleMap(host, grid, p, opt);
      for (let pass = 0; pass < 2; pass++) {
        const kept = buildObstacleMap(host, grid, p, opt, memo);
        expect(kept.work).toBe(fresh.work);
        expect(Buffer.from(kept.track.buffer).equals(Buffer.from(fresh.track.buffer))).toBe(true);
        expect(Buffer.from(kept.via.buffer).equals(Buffer.from(fresh.via.buffer))).toBe(true);
        expect(Buffer.from(kept.zone.buffer).equals(Buffer.from(fresh.zone.buffer))).toBe(true);
      }
    }
    expect(() => buildObstacleMap(host, gridFor(host, grid.step * 2), profiles[0], opt, memo)).toThrow(/RasterMemo/);
  });

  it('starts over for another design', () => {
    const cache = new RouteCache();
    routeVariant(design, requests[0], 0, cache);
    const other = load();
    expect(cache.parts(other)).not.toBe(cache.parts(design));
    expect(bytes(routeVariant(other, requests[1], 0, cache))).toBe(bytes(routeVariant(other, requests[1], 0)));
  });
});
