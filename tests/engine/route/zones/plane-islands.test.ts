// Starved thermals, judged on the routing grid: new copper of another net that rings a pad of a
// zone's net off the rest of its fill is flagged; copper that only crosses the fill is not, nor
// a ring the net's own track reaches into, nor a relief already starved before any routing.
import { describe, expect, it } from 'vitest';
import { polygon, segment } from '../../../../engine/geom/index.ts';
import type { NewTrack } from '../../../../engine/board/added-copper.ts';
import type { RouterHost } from '../../../../engine/route/index.ts';
import { gridFor } from '../../../../engine/route/core/grid.ts';
import { islandVerify } from '../../../../engine/route/zones/plane-islands.ts';
import { TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;
const W = 20 * MM;

const pad = (index: number, net: number, x: number, y: number) => testPad(index, net, x, y);

/** A square hole (as a flat ring) from (x0, y0) to (x1, y1). */
const square = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];

/** The thermal gap round a pad at (x, y), as holes in the fill: the fill left between them is
 *  spokes 0.4 mm wide along the pad's axes, 4 of them, 2 (right and left) or 1 (right). */
function relief(x: number, y: number, spokes: 4 | 2 | 1 = 4): number[][] {
  const s = 0.2 * MM;
  if (spokes === 4) {
    return [
      square(x + s, y + s, x + MM, y + MM),
      square(x - MM, y + s, x - s, y + MM),
      square(x - MM, y - MM, x - s, y - s),
      square(x + s, y - MM, x + MM, y - s),
    ];
  }
  // The pad is no fill either (as in KiCad's), or the spokes would join through it.
  if (spokes === 2) return [square(x - MM, y - MM, x + MM, y - s), square(x - 0.4 * MM, y - s, x + 0.4 * MM, y + s), square(x - MM, y + s, x + MM, y + MM)];
  return [[x + MM, y + s, x + MM, y + MM, x - MM, y + MM, x - MM, y - MM, x + MM, y - MM, x + MM, y - s, x + 0.4 * MM, y - s, x + 0.4 * MM, y + s]];
}

function host(spokes: 4 | 2 | 1 = 2): RouterHost {
  // Net 1's fill covers layer 0, with a thermal relief round each of its three pads.
  const fill = polygon(square(0, 0, W, W), [...relief(5 * MM, 5 * MM, spokes), ...relief(15 * MM, 15 * MM), ...relief(15 * MM, 5 * MM)]);
  return {
    layerCount: 2,
    layerName: (i) => (i === 0 ? 'F.Cu' : 'B.Cu'),
    netNames: ['', 'GND', 'SIG'],
    // Pad indices are the design's, not places in this list (pads off copper are skipped).
    pads: [
      { ...pad(7, 1, 5 * MM, 5 * MM), clearance: 0.8 * MM },
      { ...pad(8, 1, 15 * MM, 15 * MM), clearance: 0.8 * MM },
      { ...pad(9, 1, 15 * MM, 5 * MM), clearance: 0.8 * MM },
    ],
    obstacles: [{ kind: 'zone', shape: fill, layers: 1, net: 1, clearance: 200_000, thermal: { gap: 0.6 * MM, thtOnly: false } }],
    holes: [],
    outline: [segment(0, 0, W, 0, 0), segment(W, 0, W, W, 0), segment(W, W, 0, W, 0), segment(0, W, 0, 0, 0)],
    outlineEdges: Float64Array.of(0, 0, W, 0, W, 0, W, W, W, W, 0, W, 0, W, 0, 0),
    rules: TEST_RULES,
  };
}

const track = (ax: number, ay: number, bx: number, by: number): NewTrack => ({
  start: { x: ax, y: ay },
  end: { x: bx, y: by },
  width: 250_000,
  layer: 0,
  net: 2,
});

describe('plane islands', () => {
  const h = host();
  const verify = islandVerify(h, gridFor(h, 100_000));
  // A wall of net 2 round the fill the left spoke of pad 0 (at 5, 5) lands in, its ends in the
  // gap: the pad keeps one spoke to the plane.
  const wall = [track(4.2 * MM, 4.3 * MM, 3 * MM, 4.3 * MM), track(3 * MM, 4.3 * MM, 3 * MM, 5.7 * MM), track(3 * MM, 5.7 * MM, 4.2 * MM, 5.7 * MM)];
  const [b, d] = [3.5 * MM, 6.5 * MM];

  it('flags new copper that leaves a relief one spoke to the plane', () => {
    const out = verify(wall, []);
    expect([...out.tracks].sort()).toEqual([0, 1, 2]);
    // The reason names the relief: which pad, its net and layer, and the spokes it keeps.
    expect([...out.why.values()][0]).toBe(
      'it would leave the thermal relief of pad P7.1 (GND) on F.Cu with 1 spoke to the zone after refill, fewer than 2 (starved thermal)',
    );
  });

  it('asks the spokes the board’s rules ask (min_resolved_spokes), not always two', () => {
    // The wall leaves pad P7.1 one spoke: starved at KiCad's default of two (above), not on a
    // board whose rules ask one.
    const one = { ...h, rules: { ...h.rules, minSpokes: 1 } };
    expect(islandVerify(one, gridFor(one, 100_000))(wall, []).tracks.size).toBe(0);
    const two = { ...h, rules: { ...h.rules, minSpokes: 2 } };
    expect([...islandVerify(two, gridFor(two, 100_000))(wall, []).tracks].sort()).toEqual([0, 1, 2]);
  });

  it('lets a track cross the fill when every relief keeps its spokes', () => {
    expect(verify([track(2 * MM, 10 * MM, 18 * MM, 10 * MM)], []).tracks.size).toBe(0);
  });

  it('flags a ring that cuts a whole relief off the plane', () => {
    // KiCad lets spokes into islands alone pass, but its refill may draw another spoke to the
    // plane beside them, and one spoke to the plane with the rest in islands is starved.
    const ring = [track(b, b, d, b), track(d, b, d, d), track(d, d, b, d), track(b, d, b, b)];
    expect([...verify(ring, []).tracks].sort()).toEqual([0, 1, 2, 3]);
  });

  it('counts the zone’s own net: its track in the island, or leaving the pad into fill', () => {
    const inIsland: NewTrack = { ...track(3.6 * MM, 4.8 * MM, 3.6 * MM, 5.2 * MM), net: 1 };
    expect(verify([...wall, inIsland], []).tracks.size).toBe(0);
    const manual: NewTrack = { ...track(5 * MM, 5 * MM, 5 * MM, 2 * MM), net: 1 };
    expect(verify([...wall, manual], []).tracks.size).toBe(0);
  });

  it('flags new copper that takes a spoke’s landing', () => {
    expect([...verify([track(3.9 * MM, 3 * MM, 3.9 * MM, 7 * MM)], []).tracks]).toEqual([0]);
  });

  it('leaves alone a relief that was starved before any routing', () => {
    const lone = host(1);
    expect(islandVerify(lone, gridFor(lone, 100_000))(wall, []).tracks.size).toBe(0);
  });

  it('sees no relief where the zone joins pads solid', () => {
    const solid = host();
    delete solid.obstacles[0].thermal;
    expect(islandVerify(solid, gridFor(solid, 100_000))(wall, []).tracks.size).toBe(0);
  });
});
