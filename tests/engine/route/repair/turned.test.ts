// A route on a grid turned with a part placed at an angle (turned.ts): a tube of another net's
// track round a part's two pads, 40 µm wider than a track and its clearances, made in the part's
// frame and then turned by 30°. On the square grid the lane runs at 30° and no staircase fits it;
// on a grid turned with the part it is one straight row of sites.
import { describe, expect, it } from 'vitest';
import { distance, segment } from '../../../../engine/geom/index.ts';
import type { RouterHost } from '../../../../engine/route/core/host.ts';
import { finishOpen } from '../../../../engine/route/repair/finish-open.ts';
import { routeHost } from '../../../../engine/route/plan/variant-run.ts';
import { offGrid, turnedHost, turnsFor } from '../../../../engine/route/repair/turned.ts';
import { squareHost, TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;
const CLEARANCE = 200_000;

/** The part's frame: pads U.1 and U.2 of net A 6 mm apart on one row, in a closed tube of net
 *  B's 0.25 mm track on both layers whose lane is 40 µm wider than a 0.25 mm track needs. */
function tube(): RouterHost {
  const y = 15 * MM;
  const x1 = 12 * MM;
  const x2 = 18 * MM;
  const off = 125_000 + CLEARANCE + 125_000 + 20_000;
  const pad = (index: number, x: number) => ({ ...testPad(index, 1, x, y, { half: 100_000, ref: 'U' }), number: String(index + 1) });
  const walls = [
    segment(x1 - MM, y - off, x2 + MM, y - off, 250_000),
    segment(x1 - MM, y + off, x2 + MM, y + off, 250_000),
    segment(x1 - MM, y - off, x1 - MM, y + off, 250_000),
    segment(x2 + MM, y - off, x2 + MM, y + off, 250_000),
  ];
  return squareHost(30 * MM, {
    netNames: ['', 'A', 'B'],
    pads: [pad(0, x1), pad(1, x2)],
    obstacles: walls.flatMap((w) => [1, 2].map((layers) => ({ kind: 'track' as const, shape: w, layers, net: 2, clearance: 0 }))),
    rules: { ...TEST_RULES, minTrackWidth: () => 250_000 },
  });
}

/** The board: the tube with its part at 30° (KiCad's sense). */
const board = () => turnedHost(tube(), -30);
const connection = { net: 1, from: 0, to: 1 };

describe('a route on a grid turned with its part', () => {
  it('says which angles a part sits at off the grid', () => {
    expect([0, 90, -180, 270, 89.999, 30, -120, 45, 405.5].map(offGrid)).toEqual([0, 0, 0, 0, 0, 30, 60, 45, 45.5]);
    const pad = (p: number) => ({ pad: p, ref: 'U', number: String(p), at: { x: 0, y: 0 } });
    const c = { net: 1, netName: 'A', from: pad(0), to: pad(1), routed: false };
    expect(turnsFor(c, (p) => (p === 0 ? 30 : 120))).toEqual([30]);
    expect(turnsFor(c, (p) => (p === 0 ? 0 : 75))).toEqual([75]);
    expect(turnsFor(c, () => 180)).toEqual([]);
  });

  it('turns the board with the part: its pads come back square', () => {
    const b = board();
    expect(b.pads.map((p) => p.rotation)).toEqual([30, 30]);
    const back = turnedHost(b, 30);
    expect(back.pads.map((p) => p.rotation)).toEqual([0, 0]);
    for (const [i, p] of back.pads.entries()) {
      expect(Math.abs(p.at.x - tube().pads[i].at.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(p.at.y - tube().pads[i].at.y)).toBeLessThanOrEqual(1);
    }
  });

  it('finds the lane the square grid misses, in the board where it lies', () => {
    const b = board();
    const square = routeHost(b, { connection, work: 20_000_000 }, 0);
    expect(square.open).toHaveLength(1);
    const turned = routeHost(b, { connection, work: 20_000_000, turn: 30 }, 0);
    expect(turned.open).toEqual([]);
    expect(turned.connections[0].from.at).toEqual(b.pads[0].at);
    // The copper is the board's: it joins the pads where they lie and keeps its clearance from
    // the tube's walls as they lie.
    const ends = turned.tracks.flatMap((t) => [t.start, t.end]);
    for (const p of b.pads) expect(ends.some((e) => Math.hypot(e.x - p.at.x, e.y - p.at.y) <= 2)).toBe(true);
    for (const t of turned.tracks)
      for (const w of b.obstacles) expect(distance(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), w.shape)).toBeGreaterThanOrEqual(CLEARANCE);
    // The lane is one straight run at the part's angle.
    for (const t of turned.tracks) {
      const deg = (Math.atan2(t.end.y - t.start.y, t.end.x - t.start.x) * 180) / Math.PI;
      expect(Math.abs(((deg + 30 + 360) % 180) - 0) < 0.01 || Math.abs(((deg + 30 + 360) % 180) - 180) < 0.01).toBe(true);
    }
  });

  it('is a try of the work left when a connection stays open', () => {
    const b = board();
    const req = { nets: [1], work: 40_000_000 };
    const first = routeHost(b, req, 0);
    expect(first.open).toHaveLength(1);
    const r = finishOpen(
      req,
      first,
      (q) => routeHost(b, q, 0),
      (i) => ({ size: b.pads[i].minSize, rotation: b.pads[i].rotation, layers: b.pads[i].layers }),
      () => undefined,
    );
    expect(r.open).toEqual([]);
    expect(r.work).toBeLessThanOrEqual(r.budget);
  });
});
