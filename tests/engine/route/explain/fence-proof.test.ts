// The proof behind "boxed in" and "unreachable" (fence-proof.ts): it holds where copper truly fences
// a pad, does not hold where a narrower track gets through, and — on every bench board as the plugin
// meets them, a person's routing with a quarter of its signal nets taken away — never holds for a
// connection the person routed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chooseNets } from '../../../../bench/choose-nets.ts';
import { segment } from '../../../../engine/geom/index.ts';
import { loadDesign } from '../../../../engine/kicad/load.ts';
import { connectedPieces, hostItems } from '../../../../engine/route/negotiate/connectivity.ts';
import { proveFenced, relaxedMap, touchSites } from '../../../../engine/route/explain/fence-proof.ts';
import { gridFor } from '../../../../engine/route/core/grid.ts';
import { hostFromDesign } from '../../../../engine/route/design/host-from-design.ts';
import type { RouterHost } from '../../../../engine/route/core/host.ts';
import type { ObstacleMap } from '../../../../engine/route/core/obstacle-map.ts';
import { chooseStep } from '../../../../engine/route/plan/grid-step.ts';
import { profileOf } from '../../../../engine/route/plan/profiles.ts';
import { routeHost } from '../../../../engine/route/plan/variant-run.ts';
import { benchBoards } from '../../../support/bench.ts';
import { squareHost, testPad } from '../test-rules.ts';

const MM = 1_000_000;

const pad = (index: number, net: number, x: number, y: number, ref?: string) => testPad(index, net, x, y, { ref, layers: 3 });

/** Two layers, 20 mm square; net B's 0.5 mm tracks ring (6..10 mm)² on both layers with a gap of
 *  `gap` nm (edge to edge) in the right side. */
function ringWorld(gap: number): RouterHost {
  const half = 0.25 * MM;
  const g0 = 8 * MM - gap / 2 - half;
  const g1 = 8 * MM + gap / 2 + half;
  const sides = [
    segment(6 * MM, 6 * MM, 10 * MM, 6 * MM, 500_000),
    segment(10 * MM, 10 * MM, 6 * MM, 10 * MM, 500_000),
    segment(6 * MM, 10 * MM, 6 * MM, 6 * MM, 500_000),
    ...(gap > 0
      ? [segment(10 * MM, 6 * MM, 10 * MM, g0, 500_000), segment(10 * MM, g1, 10 * MM, 10 * MM, 500_000)]
      : [segment(10 * MM, 6 * MM, 10 * MM, 10 * MM, 500_000)]),
  ];
  return squareHost(20 * MM, {
    netNames: ['', 'A', 'B'],
    pads: [pad(0, 1, 8 * MM, 8 * MM, 'U1'), pad(1, 1, 16 * MM, 16 * MM, 'J1'), pad(2, 2, 2 * MM, 2 * MM), pad(3, 2, 2 * MM, 18 * MM)],
    obstacles: sides.flatMap((s) => [0, 1].map((l) => ({ kind: 'track' as const, shape: s, layers: 1 << l, net: 2, clearance: 0 }))),
  });
}

describe('the proof that a pad is fenced in', () => {
  it('holds for a closed ring, naming the ring’s net', () => {
    const r = routeHost(ringWorld(0), { nets: [1] }, 0);
    expect(r.open.map((c) => [c.stuck?.reason, c.stuck?.blockers.map((b) => b.name)])).toEqual([['boxed_in', ['B']]]);
    expect(r.open[0].stuck?.why).toContain('U1.1');
  });

  it('does not hold where the gap is too narrow for the class width but not for the narrowest track, which necks through', () => {
    // Class: 0.25 mm track, 0.2 mm clearance each side = 0.65 mm; narrowest: 0.15 mm = 0.55 mm.
    const r = routeHost(ringWorld(620_000), { nets: [1] }, 0);
    expect(r.open).toEqual([]);
    expect(r.tracks.some((t) => t.width === 150_000)).toBe(true);
  });

  it('says blocked, not boxed in, where no legal track fits but the proof cannot tell at its precision', () => {
    // 0.52 mm: no legal track (0.55 mm at least), but within a grid cell of fitting.
    const r = routeHost(ringWorld(520_000), { nets: [1] }, 0);
    expect(r.open.length).toBe(1);
    const s = r.open[0].stuck!;
    expect(s.reason).toBe('blocked');
    expect(s.why).toContain('narrower');
    expect(s.blockers.map((b) => b.name)).toEqual(['B']);
  });

  it('lets the class width through a gap wide enough for it', () => {
    expect(routeHost(ringWorld(800_000), { nets: [1] }, 0).open).toEqual([]);
  });

  it('never holds for a connection a person routed, on any bench board with its selected nets taken away', () => {
    const wrong: string[] = [];
    let proofs = 0;
    for (const b of benchBoards()) {
      const design = loadDesign({ board: readFileSync(b.ref, 'utf8'), boardName: b.ref, project: readFileSync(b.pro, 'utf8'), projectName: b.pro });
      const board = design.board;
      const codes = new Set(chooseNets(board).map((n) => board.netByName.get(n)!));
      board.tracks = board.tracks.filter((t) => !codes.has(t.net));
      board.vias = board.vias.filter((v) => !codes.has(v.net));
      const host = hostFromDesign(design);
      const items = hostItems(host).filter((it) => !it.zone);
      const pieces = connectedPieces(items);
      const nets = [...codes].filter((n) => (pieces.get(n)?.length ?? 0) > 1).sort((x, y) => x - y);
      if (nets.length === 0) continue;
      const profiles = nets.map((n) => profileOf(host, n, host.rules.className(n)));
      const grid = gridFor(host, chooseStep(profiles, host.pads));
      const maps = new Map<string, ObstacleMap>();
      const seen = new Uint32Array(grid.cells * grid.layers);
      let gen = 0;
      nets.forEach((net, i) => {
        const prof = profiles[i];
        let map = maps.get(prof.key);
        if (!map) maps.set(prof.key, (map = relaxedMap(host, grid, prof)));
        const w = map.profile.width;
        const sites = pieces.get(net)!.map((g) =>
          touchSites(
            grid,
            map,
            net,
            g.map((k) => items[k]),
            (l) => w[l],
          ),
        );
        // No site to touch a piece from is what "unreachable" claims.
        sites.forEach((x, k) => x.length === 0 && wrong.push(`${b.tier}/${b.name} ${host.netNames[net]} piece ${k}: nowhere to touch it`));
        for (let k = 1; k < sites.length; k++) {
          const v = proveFenced(grid, map, net, sites[k], sites[0], Infinity, seen, ++gen);
          proofs++;
          if (v.fenced || !v.complete)
            wrong.push(`${b.tier}/${b.name} ${host.netNames[net]} piece ${k}: ${v.fenced ? 'fenced' : 'incomplete'} (${v.region} sites)`);
        }
      });
    }
    expect(wrong).toEqual([]);
    expect(proofs).toBeGreaterThan(100);
  }, 600_000);
});
