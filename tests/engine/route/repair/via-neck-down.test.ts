// Vias necked down where the class via does not fit (neck-down.ts): a synthetic pad whose only
// way out is a via too tight for the class, and a bench board as the plugin meets it (a person's
// routing with its selected nets taken away) whose BGA nets drop between the balls.
import { describe, expect, it } from 'vitest';
import { segment } from '../../../../engine/geom/index.ts';
import { routeDesign } from '../../../../engine/route/index.ts';
import { routeHost } from '../../../../engine/route/plan/variant-run.ts';
import { hostFromDesign } from '../../../../engine/route/design/host-from-design.ts';
import type { RouterHost } from '../../../../engine/route/core/host.ts';
import { errorsAdded, strippedBench } from '../../../support/stripped-board.ts';
import { squareHost, TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;

/** U1 (0.8 mm, F.Cu only) at the centre of a closed ring of net B on F.Cu (1 mm from the centre
 *  to its inner edge), J1 on B.Cu outside it: the route must drop through a via inside the ring,
 *  beside U1, where a 0.6 mm class via finds no site and a 0.3 mm one does. `minVia` is the
 *  smallest via the rules allow. */
function ringedPad(minVia?: { diameter: number; drill: number }): RouterHost {
  const inner = 1 * MM;
  const half = 0.25 * MM;
  const c = 10 * MM;
  const r = inner + half;
  const sides = [
    segment(c - r, c - r, c + r, c - r, 2 * half),
    segment(c + r, c - r, c + r, c + r, 2 * half),
    segment(c + r, c + r, c - r, c + r, 2 * half),
    segment(c - r, c + r, c - r, c - r, 2 * half),
  ];
  return squareHost(20 * MM, {
    netNames: ['', 'A', 'B'],
    pads: [
      testPad(0, 1, c, c, { ref: 'U1' }),
      testPad(1, 1, 16 * MM, 16 * MM, { ref: 'J1', layers: 2 }),
      testPad(2, 2, 2 * MM, 2 * MM),
      testPad(3, 2, 2 * MM, 18 * MM),
    ],
    obstacles: sides.map((s) => ({ kind: 'track' as const, shape: s, layers: 1, net: 2, clearance: 0 })),
    rules: minVia ? { ...TEST_RULES, minVia: () => minVia } : TEST_RULES,
  });
}

describe('a via necked down where the class via does not fit', () => {
  it('drops through the smallest via the rules allow, and only then', () => {
    const tight = routeHost(ringedPad({ diameter: 300_000, drill: 150_000 }), { nets: [1] }, 0);
    expect(tight.open).toEqual([]);
    expect(tight.vias.map((v) => [v.size, v.drill])).toEqual([[300_000, 150_000]]);
    // Without a smaller via in the rules the pad stays open: the class via has no site.
    const classOnly = routeHost(ringedPad(), { nets: [1] }, 0);
    expect(classOnly.open.length).toBe(1);
    // The class via's floods prove nothing of vias off the grid: the reason says so.
    expect(classOnly.open[0].stuck?.reason).toBe('no_via_site');
    expect(classOnly.open[0].stuck?.why).toMatch(/no via of this net's class \(0\.6 mm on a 0\.3 mm drill\).*; a site off the grid may still fit\.$/);
    // With a smaller via allowed that does not fit either, the reason names it as not ruled out.
    const smallerOnly = routeHost(ringedPad({ diameter: 580_000, drill: 280_000 }), { nets: [1] }, 0);
    expect(smallerOnly.open[0].stuck?.reason).toBe('no_via_site');
    expect(smallerOnly.open[0].stuck?.why).toMatch(/; a smaller via \(down to 0\.58 mm on a 0\.28 mm drill\) or a site off the grid may still fit\.$/);
  });

  it('asks the smallest via the rules allow with the least annular ring round the least drill', () => {
    // LibreSolar_bms-c1 allows a 0.2 mm via and a 0.2 mm hole, and asks a 0.1 mm ring: the least
    // via is 0.4 mm on 0.2 mm. Read as 0.2 mm on 0.2 mm, a necked via of /TEMP2 had no ring, the
    // final check refused its route and the connection stayed open.
    const { design } = strippedBench('LibreSolar_bms-c1');
    const rules = hostFromDesign(design).rules;
    const net = design.board.netByName.get('/TEMP2')!;
    expect(rules.minVia?.(net)).toEqual({ diameter: 400_000, drill: 200_000 });
  });

  it('keeps the class via wherever it fits', () => {
    // The same world with the ring gone: nothing is tight, nothing is necked.
    const open = { ...ringedPad({ diameter: 300_000, drill: 150_000 }), obstacles: [] };
    const r = routeHost(open, { nets: [1] }, 0);
    expect(r.open).toEqual([]);
    expect(r.vias.every((v) => v.size === 600_000 && v.drill === 300_000)).toBe(true);
  });

  it('routes glasgow’s BGA nets back with vias between the balls, clean by the engine’s DRC', () => {
    const { design, nets } = strippedBench('kitspace_glasgow');
    // As `tracemaker route --nets` routes it: two variants. With the class via only, six of its
    // twelve connections stayed open.
    const r = routeDesign(design, { nets, variants: 2 });
    expect(r.summary.open).toBeLessThanOrEqual(1);
    // The class via is 0.6 mm; the person's, and the necked ones, 0.4 mm.
    expect(r.vias.some((v) => v.size === 400_000 && v.drill === 200_000)).toBe(true);
    expect(r.vias.some((v) => v.size === 600_000)).toBe(true);
    expect(errorsAdded(design, r)).toEqual([]);
  }, 120_000);
});
