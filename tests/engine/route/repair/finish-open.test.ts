// Work left after a route with connections open (design/finish-open.ts): the call again on the
// grid of the finest part an open connection ends on, then each connection alone. A synthetic
// lane of a fine-pitch part that the board's grid, set by a 2.54 mm header, does not hold.
import { describe, expect, it } from 'vitest';
import { rect, segment } from '../../../../engine/geom/index.ts';
import { finishOpen } from '../../../../engine/route/repair/finish-open.ts';
import { routeVariant } from '../../../../engine/route/plan/variants.ts';
import type { RouterHost } from '../../../../engine/route/core/host.ts';
import { routeHost } from '../../../../engine/route/plan/variant-run.ts';
import { errorsAdded, strippedBench } from '../../../support/stripped-board.ts';
import { squareHost, TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;

/** A 2.54 mm header J (ten pads, which set the board's grid) and a 0.5 mm-pitch part U whose pin
 *  U.2 (net A, 0.25 mm wide) lies at the end of a channel between net B's tracks from U.1 and
 *  U.3: 0.75 mm wide, room for a 0.25 mm track with its clearances only within 50 µm of the
 *  channel's middle, half a board grid step from any site. A's other end is J's first pad. No
 *  track may neck below the class width. */
function channelled(): RouterHost {
  const j = Array.from({ length: 10 }, (_, k) => testPad(k, k === 0 ? 1 : 0, 2 * MM + k * 2_540_000, 4 * MM, { ref: 'J', throughHole: true, layers: 3 }));
  const step = Math.round(1_270_000 / 9);
  const x0 = 2 * MM + 4 * 2_540_000 + 3 * step + Math.round(step / 2);
  const y0 = 14 * MM;
  const fine = (index: number, net: number, x: number) => ({
    ...testPad(index, net, x, y0, { ref: 'U' }),
    number: String(index - 9),
    shape: rect(x - 125_000, y0 - 500_000, x + 125_000, y0 + 500_000),
    minSize: 250_000,
  });
  const pads = [...j, fine(10, 2, x0 - 500_000), fine(11, 1, x0), fine(12, 2, x0 + 500_000), testPad(13, 2, 27 * MM, 27 * MM)];
  // B's walls: up from U.1 and U.3, and across below U.2, so the channel is A's only way in.
  const walls = [
    segment(x0 - 500_000, y0, x0 - 500_000, y0 - 4 * MM, 250_000),
    segment(x0 + 500_000, y0, x0 + 500_000, y0 - 4 * MM, 250_000),
    segment(x0 - 500_000, y0 + 800_000, x0 + 500_000, y0 + 800_000, 250_000),
    segment(x0 - 500_000, y0, x0 - 500_000, y0 + 800_000, 250_000),
    segment(x0 + 500_000, y0, x0 + 500_000, y0 + 800_000, 250_000),
  ];
  return squareHost(30 * MM, {
    netNames: ['', 'A', 'B'],
    pads,
    obstacles: walls.flatMap((w) => [1, 2].map((layers) => ({ kind: 'track' as const, shape: w, layers, net: 2, clearance: 0 }))),
    rules: { ...TEST_RULES, minTrackWidth: () => 250_000 },
  });
}

describe('connections left open, tried again with the work left', () => {
  it('finds the lane of a fine-pitch part that lies off the board’s grid, on that part’s grid', () => {
    const host = channelled();
    const req = { nets: [1], work: 20_000_000 };
    const first = routeHost(host, req, 0);
    expect(first.open.map((c) => `${c.from.ref}.${c.from.number}–${c.to.ref}.${c.to.number}`)).toHaveLength(1);
    const size = (i: number) => ({ size: host.pads.find((p) => p.index === i)!.minSize, rotation: 0, layers: host.pads.find((p) => p.index === i)!.layers });
    const r = finishOpen(
      req,
      first,
      (q) => routeHost(host, q, 0),
      size,
      () => undefined,
    );
    expect(r.open).toEqual([]);
    expect(r.summary).toMatchObject({ routed: 1, open: 0 });
    expect(r.work).toBeLessThanOrEqual(r.budget);
    expect(r.work).toBeGreaterThan(first.work);
  });

  it('leaves a result with nothing open as it is', () => {
    const host = channelled();
    const req = { nets: [2], work: 20_000_000 };
    const first = routeHost(host, req, 0);
    expect(first.open).toEqual([]);
    expect(
      finishOpen(
        req,
        first,
        () => {
          throw new Error('not called');
        },
        () => ({ size: 0, rotation: 0, layers: 1 }),
        () => undefined,
      ),
    ).toBe(first);
  });

  it('routes a connection kept to a corridor on a grid over the corridor only, also twice as fine', () => {
    const host = channelled();
    const conn = { net: 1, from: 11, to: 0 };
    const whole = routeHost(host, { connection: conn, work: 50_000_000 }, 0);
    const box = { minX: 2 * MM, minY: 3 * MM, maxX: 16 * MM, maxY: 15 * MM };
    const boxed = routeHost(host, { connection: { ...conn, corridor: box }, work: 50_000_000 }, 0);
    const finer = routeHost(host, { connection: { ...conn, corridor: box }, gridRefine: 2, work: 50_000_000 }, 0);
    for (const r of [whole, boxed, finer]) expect(r.open).toEqual([]);
    // Set-up (the obstacle maps' marking) covers the box, not the 30 mm board; at half the step
    // the same box holds four times the sites.
    expect(boxed.setup).toBeLessThan(whole.setup / 2);
    expect(finer.setup).toBeGreaterThan(boxed.setup * 2);
    for (const t of [...boxed.tracks, ...finer.tracks]) {
      for (const p of [t.start, t.end]) {
        expect(p.x).toBeGreaterThanOrEqual(box.minX - MM);
        expect(p.x).toBeLessThanOrEqual(box.maxX + MM);
      }
    }
  });

  it('routes the call again in other net orders: nanoSwinSidC’s stripped nets in their second order', () => {
    const { design, nets } = strippedBench('nanoSwinSidC_nanoSwinSidC');
    const req = { nets, variants: 1 };
    const r = routeVariant(design, req, 1);
    // Its own order (variant 1's) leaves a connection open whatever its connections alone
    // try; another order makes all.
    expect(r.variant).not.toBe(1);
    expect(r.open).toEqual([]);
    expect(r.work).toBeLessThanOrEqual(r.budget);
    expect(errorsAdded(design, r)).toEqual([]);
    // That order is the call's own when it is asked for, with nothing left for finishing to do.
    const direct = routeVariant(design, req, r.variant);
    expect(direct.variant).toBe(r.variant);
    expect(direct.tracks).toEqual(r.tracks);
  });
});
