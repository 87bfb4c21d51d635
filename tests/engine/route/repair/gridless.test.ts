// A connection routed off the grid (gridless.ts): through a lane exactly as wide as a track and
// its two clearances, at an angle no grid follows, and round a post; every line it lays keeps
// the clearance to within the 50 nm it allows for rounding, and it says when it found nothing.
import { describe, expect, it } from 'vitest';
import { circle, distance, polygon, segment, type Shape } from '../../../../engine/geom/index.ts';
import type { HostObstacle, RouterHost } from '../../../../engine/route/core/host.ts';
import { finishOpen } from '../../../../engine/route/repair/finish-open.ts';
import { routeGridless } from '../../../../engine/route/repair/gridless.ts';
import { variantBudget } from '../../../../engine/route/plan/budget.ts';
import { routeHost } from '../../../../engine/route/plan/variant-run.ts';
import type { RouteRequest, RouteResult } from '../../../../engine/route/types.ts';
import { squareHost, TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;
const CLEARANCE = 200_000;
const WIDTH = 250_000;

/** Pads of net A at P = (10, 10) mm and 8 mm on along (3, 4)/5 (on F.Cu, the second on
 *  `layers`), in a closed tube of net B's 0.25 mm track on both layers whose lane is `slack` nm
 *  wider than a track and its clearances. */
function tube(slack: number, extra: HostObstacle[] = [], layers = 1): RouterHost {
  const off = WIDTH / 2 + CLEARANCE + 125_000 + slack / 2;
  const [px, py] = [10 * MM, 10 * MM];
  const [qx, qy] = [px + 4.8 * MM, py + 6.4 * MM];
  // Along the lane one millimetre is (0.6, 0.8) mm; across it `off` is (−0.8, 0.6)·off.
  const [ax, ay] = [0.6 * MM, 0.8 * MM];
  const [nx, ny] = [Math.round(-0.8 * off), Math.round(0.6 * off)];
  const walls = [
    segment(px - ax + nx, py - ay + ny, qx + ax + nx, qy + ay + ny, 250_000),
    segment(px - ax - nx, py - ay - ny, qx + ax - nx, qy + ay - ny, 250_000),
    segment(px - ax + nx, py - ay + ny, px - ax - nx, py - ay - ny, 250_000),
    segment(qx + ax + nx, qy + ay + ny, qx + ax - nx, qy + ay - ny, 250_000),
  ];
  return squareHost(30 * MM, {
    netNames: ['', 'A', 'B'],
    pads: [testPad(0, 1, px, py, { half: 60_000 }), testPad(1, 1, qx, qy, { half: 60_000, layers })],
    obstacles: [...walls.map((shape): HostObstacle => ({ kind: 'track', shape, layers: 3, net: 2, clearance: 0 })), ...extra],
    rules: { ...TEST_RULES, minTrackWidth: () => WIDTH },
  });
}

const req = (work = 10_000_000, gridless: 'layer' | 'via' = 'layer'): RouteRequest => ({ connection: { net: 1, from: 0, to: 1 }, work, gridless });

/** Net A routed on `host` (`first`), and what finishOpen made of what it left open (`r`). */
function finished(host: RouterHost): { first: RouteResult; r: RouteResult } {
  const req = { nets: [1], work: 20_000_000 };
  const first = routeHost(host, req, 0);
  const look = (i: number) => ({ size: 120_000, rotation: 0, layers: host.pads.find((p) => p.index === i)!.layers });
  return {
    first,
    r: finishOpen(
      req,
      first,
      (q) => routeHost(host, q, 0),
      look,
      () => undefined,
    ),
  };
}

/** Least gap between the result's tracks and net B's copper, less the clearance. */
function leastSlack(host: RouterHost, tracks: { start: { x: number; y: number }; end: { x: number; y: number }; width: number }[]): number {
  let least = Infinity;
  for (const t of tracks)
    for (const o of host.obstacles) least = Math.min(least, distance(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), o.shape) - CLEARANCE);
  return least;
}

describe('a connection routed off the grid', () => {
  it('runs down a lane with no room to spare at an angle no grid follows, keeping the clearance', () => {
    const host = tube(0);
    const r = routeGridless(host, req(), undefined, 0, 1, variantBudget(req(), 1));
    expect(r.summary.routed).toBe(1);
    expect(r.open).toEqual([]);
    expect(r.tracks.length).toBeGreaterThan(0);
    expect(r.tracks[0].start).toEqual(host.pads[0].at);
    expect(r.tracks.at(-1)!.end).toEqual(host.pads[1].at);
    expect(leastSlack(host, r.tracks)).toBeGreaterThanOrEqual(-50);
    // Straight down the lane: 8 mm.
    expect(Math.abs(r.summary.length - 8 * MM)).toBeLessThan(1_000);
    expect(r.work).toBeGreaterThan(0);
  });

  it('finds nothing in a lane 200 nm too narrow, and says so', () => {
    const r = routeGridless(tube(-200), req(), undefined, 0, 1, variantBudget(req(), 1));
    expect(r.summary.routed).toBe(0);
    expect(r.tracks).toEqual([]);
    expect(r.open[0].stuck?.reason).toBe('blocked');
  });

  it('bends round a post in the lane at the least length, clear of it', () => {
    // A via of net B in a lane 1.2 mm wider than needed, 0.3 mm off its centre line.
    const post: HostObstacle = { kind: 'via', shape: circle(12.4 * MM - 240_000, 13.2 * MM + 180_000, 300_000), layers: 3, net: 2, clearance: 0 };
    const host = tube(1.2 * MM, [post]);
    const r = routeGridless(host, req(), undefined, 0, 1, variantBudget(req(), 1));
    expect(r.summary.routed).toBe(1);
    expect(leastSlack(host, r.tracks)).toBeGreaterThanOrEqual(-50);
    expect(r.tracks.length).toBeGreaterThan(1);
    // Longer than straight, but by less than going round the post's far side would add.
    expect(r.summary.length).toBeGreaterThan(8 * MM);
    expect(r.summary.length).toBeLessThan(8.1 * MM);
  });

  it('keeps out of another net’s zone fill, and of the boxes kept for other nets', () => {
    const fill: Shape = polygon([11.5 * MM, 11 * MM, 13.5 * MM, 11 * MM, 13.5 * MM, 15 * MM, 11.5 * MM, 15 * MM]);
    const zone: HostObstacle = { kind: 'zone', shape: fill, layers: 3, net: 2, clearance: CLEARANCE };
    expect(routeGridless(tube(1.2 * MM, [zone]), req(), undefined, 0, 1, variantBudget(req(), 1)).summary.routed).toBe(0);
    // The same fill of its own net is no wall.
    expect(routeGridless(tube(1.2 * MM, [{ ...zone, net: 1 }]), req(), undefined, 0, 1, variantBudget(req(), 1)).summary.routed).toBe(1);
    const kept = { ...req(), reserved: [{ net: 2, minX: 11.5 * MM, minY: 11 * MM, maxX: 13.5 * MM, maxY: 15 * MM }] };
    expect(routeGridless(tube(1.2 * MM), kept, undefined, 0, 1, variantBudget(kept, 1)).summary.routed).toBe(0);
    // A box kept for its own net is no wall.
    const own = { ...req(), reserved: [{ net: 1, minX: 11.5 * MM, minY: 11 * MM, maxX: 13.5 * MM, maxY: 15 * MM }] };
    expect(routeGridless(tube(1.2 * MM), own, undefined, 0, 1, variantBudget(own, 1)).summary.routed).toBe(1);
  });

  it('changes layer through a via where the pads are on different layers and a via fits', () => {
    const host = tube(1.2 * MM, [], 2);
    // On one layer there is no way: the pads share none.
    expect(routeGridless(host, req(), undefined, 0, 1, variantBudget(req(), 1)).summary.routed).toBe(0);
    const r = routeGridless(host, req(10_000_000, 'via'), undefined, 0, 1, variantBudget(req(10_000_000, 'via'), 1));
    expect(r.summary.routed).toBe(1);
    expect(r.vias).toHaveLength(1);
    const v = r.vias[0];
    expect(v).toMatchObject({ size: 600_000, drill: 300_000, layerFrom: 0, layerTo: 1, type: 'through' });
    // The via keeps the clearance from both walls' tracks, and the tracks on each side of it.
    for (const o of host.obstacles) expect(distance(circle(v.at.x, v.at.y, 300_000), o.shape) - CLEARANCE).toBeGreaterThanOrEqual(-50);
    expect(leastSlack(host, r.tracks)).toBeGreaterThanOrEqual(-50);
    expect(new Set(r.tracks.map((t) => t.layer))).toEqual(new Set([0, 1]));
    // In the lane with no room to spare no via fits: nothing is made.
    expect(routeGridless(tube(0, [], 2), req(10_000_000, 'via'), undefined, 0, 1, variantBudget(req(10_000_000, 'via'), 1)).summary.routed).toBe(0);
  });

  it('stops within its work and says the budget ran out', () => {
    const r = routeGridless(tube(0), req(20), undefined, 0, 1, variantBudget(req(20), 1));
    expect(r.summary.routed).toBe(0);
    expect(r.open[0].stuck?.reason).toBe('budget');
    expect(r.stopped).toBe('budget');
  });

  it('keeps nothing the final judge refuses', () => {
    const host = tube(0);
    const refuse = (tracks: unknown[]) => ({ tracks: new Set(tracks.map((_, i) => i)), vias: new Set<number>(), why: new Map<string, string>() });
    const r = routeGridless(host, req(), refuse, 0, 1, variantBudget(req(), 1));
    expect(r.summary.routed).toBe(0);
    expect(r.tracks).toEqual([]);
  });

  it('is the first try for a connection the fixed copper walls in on the grid, when the route leaves it open', () => {
    const host = tube(0);
    const { first, r } = finished(host);
    expect(first.open).toHaveLength(1);
    expect(first.open[0].stuck).toMatchObject({ reason: 'blocked', fixedWalls: true });
    expect(r.open).toEqual([]);
    expect(r.work).toBeLessThanOrEqual(r.budget);
    expect(leastSlack(host, r.tracks)).toBeGreaterThanOrEqual(-50);
  });

  it('says what the look off the grid found where it too finds no way', () => {
    const { first, r } = finished(tube(-200));
    expect(first.open).toHaveLength(1);
    expect(r.open).toHaveLength(1);
    expect(r.connections.filter((c) => !c.routed)).toEqual(r.open);
    // The grid's reason stands, with the box the look off the grid searched: the pads are 8 mm
    // apart, so ¾ of that round them.
    expect(r.open[0].stuck!.why).toBe(`${first.open[0].stuck!.why} No legal path off the grid on a layer both pads share was found within 6 mm of the pads.`);
  });
});
