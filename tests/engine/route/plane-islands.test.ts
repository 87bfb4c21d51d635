// Refill islands (starved thermals), judged on the routing grid: new copper of another net that
// rings a pad of a zone's net off the rest of its fill is flagged; copper that only crosses the
// fill is not.
import { describe, expect, it } from 'vitest';
import { polygon, rect, segment } from '../../../engine/geom/index.ts';
import type { HostPad, NewTrack, RouterHost } from '../../../engine/route/index.ts';
import { gridFor } from '../../../engine/route/grid.ts';
import { islandVerify } from '../../../engine/route/plane-islands.ts';
import { TEST_RULES } from './test-rules.ts';

const MM = 1_000_000;
const W = 20 * MM;

function pad(index: number, net: number, x: number, y: number): HostPad {
  return { index, ref: `P${index}`, number: '1', net, at: { x, y }, rotation: 0, layers: 1, shape: rect(x - 0.4 * MM, y - 0.4 * MM, x + 0.4 * MM, y + 0.4 * MM), clearance: 0, minSize: 0.8 * MM, throughHole: false };
}

function host(): RouterHost {
  // Net 1's fill covers layer 0, with the thermal gap round its two pads left open.
  const hole = (x: number, y: number) => [x - MM, y - MM, x + MM, y - MM, x + MM, y + MM, x - MM, y + MM];
  const fill = polygon([0, 0, W, 0, W, W, 0, W], [hole(5 * MM, 5 * MM), hole(15 * MM, 15 * MM)]);
  return {
    layerCount: 2,
    layerName: (i) => (i === 0 ? 'F.Cu' : 'B.Cu'),
    netNames: ['', 'GND', 'SIG'],
    pads: [{ ...pad(0, 1, 5 * MM, 5 * MM), clearance: 0.8 * MM }, { ...pad(1, 1, 15 * MM, 15 * MM), clearance: 0.8 * MM }],
    obstacles: [{ kind: 'zone', shape: fill, layers: 1, net: 1, clearance: 200_000 }],
    holes: [],
    outline: [segment(0, 0, W, 0, 0), segment(W, 0, W, W, 0), segment(W, W, 0, W, 0), segment(0, W, 0, 0, 0)],
    outlineEdges: Float64Array.of(0, 0, W, 0, W, 0, W, W, W, W, 0, W, 0, W, 0, 0),
    rules: TEST_RULES,
  };
}

const track = (ax: number, ay: number, bx: number, by: number): NewTrack => ({ start: { x: ax, y: ay }, end: { x: bx, y: by }, width: 250_000, layer: 0, net: 2 });

describe('plane islands', () => {
  const h = host();
  const verify = islandVerify(h, gridFor(h, 100_000));

  it('flags a ring of another net round a pad of the zone’s net', () => {
    const a = 2.5 * MM;
    const b = 7.5 * MM;
    const ring = [track(a, a, b, a), track(b, a, b, b), track(b, b, a, b), track(a, b, a, a)];
    const out = verify(ring, []);
    expect(out.tracks.size).toBeGreaterThan(0);
    expect([...out.why.values()][0]).toContain('starved thermal');
  });

  it('lets a track cross the fill when both pads keep the plane', () => {
    expect(verify([track(2 * MM, 10 * MM, 18 * MM, 10 * MM)], []).tracks.size).toBe(0);
  });
});
