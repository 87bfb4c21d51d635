// The router's progress (router.ts): as it searches and places nets it tells the caller how many
// connections it holds made of those it routes, which the progress window and the panel show a
// person waiting. The count climbs to what the route makes, never past what it routes.
import { describe, expect, it } from 'vitest';
import { routeDesign } from '../../../../engine/route/plan/variants.ts';
import type { RouteProgress } from '../../../../engine/route/types.ts';
import { strippedBench } from '../../../support/stripped-board.ts';

describe("the router's progress", () => {
  it('counts connections made of those routed, climbing to what the route made', () => {
    const { design, nets } = strippedBench('arduino-led-driver_arduino-led-driver');
    const seen: RouteProgress[] = [];
    const r = routeDesign(design, { nets, variants: 1, onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThan(0);
    // Every event counts against the connections the call routes, made or left open.
    expect(new Set(seen.map((p) => p.connections))).toEqual(new Set([r.summary.routed + r.open.length]));
    expect(seen.every((p) => p.made >= 0 && p.made <= p.connections)).toBe(true);
    // The first pass searches each of the stripped nets once and only adds: the count climbs, net by net.
    const first = seen.slice(0, nets.length).map((p) => p.made);
    expect(first).toEqual([...first].sort((a, b) => a - b));
    expect(first[0]).toBeGreaterThan(0);
    // The last event is the call's result: what it kept, its finishing steps' connections included.
    expect(seen.at(-1)).toMatchObject({ made: r.summary.routed, connections: r.summary.routed + r.open.length });
  }, 120_000);
});
