// Room for a connection the fixed copper walls in on the grid (make-room.ts): the nets in the way
// of its copper are found exactly (clashes.ts), and on kitspace_d20_tri_r0.3 with its selected nets
// taken away, U3.13–D105.2, which every variant leaves open because colb_9's route holds the one
// lane off the grid it has, is made, colb_9 routed again round it, nothing added that the DRC
// finds, within the variant's work.
import { describe, expect, it } from 'vitest';
import { clashingNets } from '../../../../engine/route/repair/clashes.ts';
import { roomFor, routeVariant } from '../../../../engine/route/plan/variants.ts';
import type { NewTrack, NewVia } from '../../../../engine/board/added-copper.ts';
import type { RouteResult } from '../../../../engine/route/types.ts';
import { errorsAdded, strippedBench } from '../../../support/stripped-board.ts';
import { squareHost } from '../test-rules.ts';

const MM = 1_000_000;
const track = (net: number, ax: number, ay: number, bx: number, by: number, layer = 0): NewTrack => ({
  start: { x: ax, y: ay },
  end: { x: bx, y: by },
  width: 250_000,
  layer,
  net,
});
const via = (net: number, x: number, y: number): NewVia => ({ at: { x, y }, size: 600_000, drill: 300_000, layerFrom: 0, layerTo: 1, net });

describe('the nets in the way of a connection’s copper', () => {
  it('are those closer than the clearance, each once, by tracks and by vias', () => {
    const host = squareHost(30 * MM, { netNames: ['', 'A', 'B', 'C', 'D', 'E'], pads: [], obstacles: [] });
    const mine = { tracks: [track(1, 5 * MM, 10 * MM, 25 * MM, 10 * MM)], vias: [via(1, 25 * MM, 10 * MM)] };
    // B crosses it twice; C runs beside it 1 nm inside the clearance (0.2 mm); D exactly at it;
    // E's track runs too near its via, on the other layer; its own net's copper is no clash.
    const edge = 10 * MM + 250_000 + 200_000;
    const theirs = {
      tracks: [
        track(2, 8 * MM, 5 * MM, 8 * MM, 15 * MM),
        track(2, 12 * MM, 5 * MM, 12 * MM, 15 * MM),
        track(3, 14 * MM, edge - 1, 18 * MM, edge - 1),
        track(4, 14 * MM, 10 * MM - 450_000, 18 * MM, 10 * MM - 450_000),
        track(1, 20 * MM, 10 * MM, 20 * MM, 12 * MM),
        track(5, 25 * MM, 10 * MM + 600_000, 28 * MM, 10 * MM + 600_000, 1),
      ],
      vias: [],
    };
    expect(clashingNets(host, mine, theirs)).toEqual([2, 3, 5]);
    expect(clashingNets(host, { tracks: [], vias: [] }, theirs)).toEqual([]);
  });
});

describe('room for a connection the fixed copper walls in', () => {
  it('is asked for only where every connection left open is so walled in', () => {
    const at = { x: 0, y: 0 };
    const open = (fixedWalls: boolean) => ({
      net: 1,
      netName: 'A',
      from: { pad: 0, ref: 'P', number: '1', at },
      to: { pad: 1, ref: 'P', number: '2', at },
      routed: false,
      stuck: { reason: 'blocked' as const, why: '', blockers: [], rips: 0, fails: 1, tried: true, ...(fixedWalls ? { fixedWalls } : {}) },
    });
    const result = (walled: boolean[]) => ({ open: walled.map(open) }) as unknown as RouteResult;
    expect(roomFor({}, result([true, true]))?.makeRoom?.walled).toEqual([
      { net: 1, from: 0, to: 1 },
      { net: 1, from: 0, to: 1 },
    ]);
    expect(roomFor({}, result([true, false]))).toBeUndefined();
    expect(roomFor({}, result([]))).toBeUndefined();
  });

  it('makes U3.13–D105.2 on kitspace_d20_tri_r0.3, routing colb_9 again round it', () => {
    const { design, nets } = strippedBench('kitspace_d20_tri_r0.3');
    const req = { nets, variants: 2 };
    // Variant 2's net order leaves the one connection walled in.
    const first = routeVariant(design, req, 2);
    expect(first.open.map((c) => `${c.from.ref}.${c.from.number}–${c.to.ref}.${c.to.number}`)).toEqual(['U3.13–D105.2']);
    const room = roomFor(req, first)!;
    expect(room.makeRoom!.walled).toHaveLength(1);
    const r = routeVariant(design, room, 3);
    expect(r.open).toEqual([]);
    expect(r.summary).toMatchObject({ open: 0, routed: first.summary.routed + 1 });
    expect(r.work).toBeLessThanOrEqual(r.budget);
    expect(r.variant).toBe(3);
    expect(errorsAdded(design, r)).toEqual([]);
    // colb_9 was taken out and routed again: all its connections made, with copper of its own.
    const colb9 = r.nets.find((n) => n.name === 'colb_9')!;
    const its = r.connections.filter((c) => c.net === colb9.net);
    expect(its.length).toBeGreaterThan(0);
    expect(its.every((c) => c.routed)).toBe(true);
    expect(colb9.tracks.length).toBeGreaterThan(0);
    expect(colb9).toMatchObject({ open: 0 });
    // A net's counts are of its pieces, never below none.
    expect(r.nets.every((n) => n.open >= 0 && n.routed >= 0)).toBe(true);
    expect(r.tracks.filter((t) => t.net === colb9.net)).toEqual(colb9.tracks);
  }, 300_000);
});
