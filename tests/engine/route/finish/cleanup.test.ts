// Pulling routed copper tight (engine/route/cleanup.ts; issue #19, "copper a person would
// keep") on small synthetic worlds: a staircase becomes one 45° segment, a staircase beside
// another net's pad keeps its clearance, copper that lands on a leg stays on one of its
// vertices, and the same input gives the same output.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Pt } from '../../../../engine/board/model.ts';
import { segment } from '../../../../engine/geom/index.ts';
import { Checker } from '../../../../engine/route/core/checker.ts';
import { tidyJoins, type ClearTrack } from '../../../../engine/route/finish/cleanup.ts';
import type { HostPad, RouterHost } from '../../../../engine/route/core/host.ts';
import type { Leg } from '../../../../engine/route/core/path-geometry.ts';
import { routeHost } from '../../../../engine/route/plan/variant-run.ts';
import type { Join } from '../../../../engine/route/negotiate/router.ts';
import { TEST_RULES, testPad } from '../test-rules.ts';
import { loadDesign } from '../../../../engine/kicad/load.ts';
import { routeDesign } from '../../../../engine/route/plan/variants.ts';
import { benchBoards } from '../../../support/bench.ts';

const MM = 1_000_000;
const STEP = 100_000;
const WIDTH = 250_000;

const pad = (index: number, net: number, x: number, y: number, half = 0.4 * MM) => testPad(index, net, x, y, { half });

function world(pads: HostPad[]): RouterHost {
  const W = 20 * MM;
  return {
    layerCount: 2,
    layerName: (i) => (i === 0 ? 'F.Cu' : 'B.Cu'),
    netNames: ['', 'A', 'B'],
    pads,
    obstacles: [],
    holes: [],
    outline: [segment(0, 0, W, 0, 0), segment(W, 0, W, W, 0), segment(W, W, 0, W, 0), segment(0, W, 0, 0, 0)],
    outlineEdges: Float64Array.of(0, 0, W, 0, W, 0, W, W, W, W, 0, W, 0, W, 0, 0),
    rules: TEST_RULES,
  };
}

/** Grid steps from `from`: 'h' one step in x, 'v' one in y (signs from `sx`, `sy`), corners kept. */
function staircase(from: Pt, moves: string, sx = 1, sy = 1): Pt[] {
  const pts = [from];
  let { x, y } = from;
  for (const m of moves) {
    if (m === 'h') x += sx * STEP;
    else y += sy * STEP;
    pts.push({ x, y });
  }
  // Corners only, as path-geometry.ts makes legs: collinear steps merged.
  return pts.filter((p, i) => i === 0 || i === pts.length - 1 || (pts[i - 1].x === p.x) !== (p.x === pts[i + 1].x));
}

function join(legs: Leg[], fromJoin = -1): Join {
  return { to: 1, path: new Int32Array(0), fromJoin, fromPiece: fromJoin < 0 ? 0 : -1, copper: { legs, vias: [] } };
}

function judge(host: RouterHost, net: number): { clear: ClearTrack; calls: () => number } {
  const checker = new Checker(host, true);
  let n = 0;
  return {
    clear: (layer, a, b, width) => {
      n++;
      return !checker.track(net, layer, a.x, a.y, b.x, b.y, width);
    },
    calls: () => n,
  };
}

function onPolyline(pts: Pt[], p: Pt): boolean {
  for (let i = 0; i + 1 < pts.length; i++) {
    const a = pts[i];
    const b = pts[i + 1];
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross === 0 && p.x >= Math.min(a.x, b.x) && p.x <= Math.max(a.x, b.x) && p.y >= Math.min(a.y, b.y) && p.y <= Math.max(a.y, b.y)) return true;
  }
  return false;
}

describe('cleanup', () => {
  it('turns a staircase into one 45° segment, keeping the ends and the width', () => {
    const host = world([pad(0, 1, 2 * MM, 2 * MM), pad(1, 1, 6 * MM, 6 * MM)]);
    const pts = staircase({ x: 2 * MM, y: 2 * MM }, 'hv'.repeat(40));
    expect(pts.length).toBe(81);
    const { clear } = judge(host, 1);
    const out = tidyJoins([join([{ layer: 0, pts, width: 200_000 }])], () => 200_000, clear)!;
    expect(out).toBeDefined();
    expect(out[0].copper.legs).toEqual([
      {
        layer: 0,
        pts: [
          { x: 2 * MM, y: 2 * MM },
          { x: 6 * MM, y: 6 * MM },
        ],
        width: 200_000,
      },
    ]);
  });

  it('keeps clearance to another net’s pad beside a staircase and does not cut through it', () => {
    // Net B's pad sits on the diagonal; net A's staircase goes round it below (right, then up).
    const blocker = pad(2, 2, 5 * MM, 5 * MM);
    const host = world([pad(0, 1, 2 * MM, 8 * MM), pad(1, 1, 8 * MM, 2 * MM), blocker]);
    const start = { x: 2 * MM, y: 8 * MM };
    const pts = staircase(start, 'hv'.repeat(20) + 'h'.repeat(20) + 'hv'.repeat(20), 1, -1);
    const checker = new Checker(host, true);
    const seg = (a: Pt, b: Pt) => checker.track(1, 0, a.x, a.y, b.x, b.y, WIDTH);
    for (let i = 0; i + 1 < pts.length; i++) expect(seg(pts[i], pts[i + 1])).toBeFalsy();
    // The straight diagonal would cross net B's pad.
    expect(seg(start, pts[pts.length - 1])?.net).toBe(2);
    const out = tidyJoins([join([{ layer: 0, pts }])], () => WIDTH, judge(host, 1).clear)!;
    const got = out[0].copper.legs[0].pts;
    expect(got[0]).toEqual(start);
    expect(got[got.length - 1]).toEqual(pts[pts.length - 1]);
    expect(got.length).toBeGreaterThan(2);
    expect(got.length).toBeLessThan(8);
    for (let i = 0; i + 1 < got.length; i++) {
      expect(seg(got[i], got[i + 1])).toBeFalsy();
      const dx = Math.abs(got[i + 1].x - got[i].x);
      const dy = Math.abs(got[i + 1].y - got[i].y);
      expect(dx === 0 || dy === 0 || dx === dy).toBe(true);
    }
  });

  it('keeps a leg’s inner vertex where another join of the net lands', () => {
    const host = world([pad(0, 1, 2 * MM, 2 * MM), pad(1, 1, 6 * MM, 6 * MM), pad(2, 1, 3.1 * MM, 1 * MM)]);
    const pts = staircase({ x: 2 * MM, y: 2 * MM }, 'hv'.repeat(40));
    // A corner off the diagonal: pulling the staircase tight would leave it behind.
    const land = { x: 3.1 * MM, y: 3 * MM };
    expect(pts).toContainEqual(land);
    const branch: Leg = { layer: 0, pts: [land, { x: 3.1 * MM, y: 1 * MM }] };
    const out = tidyJoins([join([{ layer: 0, pts }]), join([branch], 0)], () => WIDTH, judge(host, 1).clear)!;
    const got = out[0].copper.legs[0].pts;
    // Still a vertex, not only a point on a segment: the branch meets a track end there.
    expect(got).toContainEqual(land);
    expect(onPolyline(got, land)).toBe(true);
    // Two bent connections, one each side of the landing point.
    expect(got.length).toBeLessThanOrEqual(5);
    expect(out[1].copper.legs[0]).toEqual(branch);
    // A branch landing on another layer does not pin the leg.
    const elsewhere = tidyJoins([join([{ layer: 0, pts }]), join([{ ...branch, layer: 1 }], 0)], () => WIDTH, judge(host, 1).clear)!;
    expect(elsewhere[0].copper.legs[0].pts).toEqual([
      { x: 2 * MM, y: 2 * MM },
      { x: 6 * MM, y: 6 * MM },
    ]);
  });

  it('splits a straight leg where a branch lands on its middle', () => {
    const host = world([pad(0, 1, 2 * MM, 2 * MM), pad(1, 1, 8 * MM, 2 * MM), pad(2, 1, 5 * MM, 4 * MM)]);
    const trunk: Leg = {
      layer: 0,
      pts: [
        { x: 2 * MM, y: 2 * MM },
        { x: 8 * MM, y: 2 * MM },
      ],
    };
    const branch: Leg = {
      layer: 0,
      pts: [
        { x: 5 * MM, y: 2 * MM },
        { x: 5 * MM, y: 4 * MM },
      ],
    };
    const out = tidyJoins([join([trunk]), join([branch], 0)], () => WIDTH, judge(host, 1).clear)!;
    expect(out[0].copper.legs[0].pts).toEqual([trunk.pts[0], branch.pts[0], trunk.pts[1]]);
    expect(out[1].copper.legs[0]).toEqual(branch);
  });

  it('leaves a leg alone when no pulled candidate is clear', () => {
    const pts = staircase({ x: 2 * MM, y: 2 * MM }, 'hv'.repeat(10));
    expect(
      tidyJoins(
        [join([{ layer: 0, pts }])],
        () => WIDTH,
        () => false,
      ),
    ).toBeUndefined();
    expect(
      tidyJoins(
        [join([{ layer: 0, pts: [pts[0], pts[1]] }])],
        () => WIDTH,
        () => true,
      ),
    ).toBeUndefined();
  });

  it('gives the same copper for the same input', () => {
    const host = world([pad(0, 1, 2 * MM, 8 * MM), pad(1, 1, 8 * MM, 2 * MM), pad(2, 2, 5 * MM, 5 * MM)]);
    const run = () => {
      const pts = staircase({ x: 2 * MM, y: 8 * MM }, 'hv'.repeat(20) + 'h'.repeat(20) + 'hv'.repeat(20), 1, -1);
      const j = judge(host, 1);
      return { joins: tidyJoins([join([{ layer: 0, pts }])], () => WIDTH, j.clear), calls: j.calls() };
    };
    expect(run()).toEqual(run());
  });

  it('routes two crossing nets with few segments, clean, the same every run', () => {
    const host = world([
      pad(0, 1, 3 * MM, 3 * MM),
      pad(1, 1, 16 * MM, 5 * MM),
      pad(2, 1, 9 * MM, 15 * MM),
      pad(3, 2, 3 * MM, 15 * MM),
      pad(4, 2, 16 * MM, 15 * MM),
      pad(5, 2, 10 * MM, 2 * MM),
    ]);
    const a = routeHost(host, {}, 0);
    expect(a.summary.open).toBe(0);
    // The searched routes take 18 segments here, with jogs of one grid step.
    expect(a.tracks.length).toBeLessThanOrEqual(12);
    const checker = new Checker(host, true);
    for (const t of a.tracks) checker.addTrack(t.net, t.layer, t.start.x, t.start.y, t.end.x, t.end.y, t.width);
    for (const t of a.tracks) expect(checker.track(t.net, t.layer, t.start.x, t.start.y, t.end.x, t.end.y, t.width)).toBeUndefined();
    expect(routeHost(host, {}, 0)).toEqual(a);
  });

  it('gives the searched copper back where the pulled copper leaves the final check a relief to starve', () => {
    // On sonde-xilinx a pulled track left a thermal relief of a zone's net starved once refilled;
    // the islands settled around it and the final gate then cut /PWR_3,3-5V's join to J2.1.
    const b = benchBoards().find((x) => x.name === 'kicad-demo_sonde-xilinx')!;
    const design = loadDesign({ board: readFileSync(b.bare, 'utf8'), boardName: b.bare, project: readFileSync(b.pro, 'utf8'), projectName: b.pro });
    const r = routeDesign(design, {});
    expect(r.open.map((c) => `${c.netName} ${c.stuck?.why}`)).toEqual([]);
  }, 120_000);
});
