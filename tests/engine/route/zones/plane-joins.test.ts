// A zone's plane joins its net's pads: with soft zones the router routes the net by tracks, then
// takes out each join the plane, refilled around the other nets' new copper, still makes. A
// route of another net that cuts the plane in two leaves the track that bridges the cut.
import { describe, expect, it } from 'vitest';
import { polygon, rect, segment } from '../../../../engine/geom/index.ts';
import type { HostObstacle, RouterHost } from '../../../../engine/route/index.ts';
import { routeHost } from '../../../../engine/route/index.ts';
import { TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;
const W = 20 * MM;

/** A through-hole pad (both layers). */
const pad = (index: number, net: number, x: number, y: number) => testPad(index, net, x, y, { half: 0.5 * MM, layers: 3, throughHole: true });

/** Net A (1) has pads at (4, 10) and (16, 10) and a solid plane over B.Cu; net B (2) has
 *  pads at the top and bottom edges. When `cut`, keep-outs bar F.Cu down the middle but for a
 *  gap at A's height: B's route then crosses the plane on B.Cu and splits it, and A's track
 *  can still bridge the split on F.Cu through the gap. */
function world(cut: boolean): RouterHost {
  // The saved fill keeps clear of B's pads: it spans the board between them.
  const [m, top, bottom] = [0.5 * MM, 2.2 * MM, 17.8 * MM];
  const fill = polygon([m, top, W - m, top, W - m, bottom, m, bottom]);
  const obstacles: HostObstacle[] = [{ kind: 'zone', shape: fill, layers: 2, net: 1, clearance: 200_000 }];
  if (cut) {
    for (const [y0, y1] of [
      [0, 9 * MM],
      [11 * MM, W],
    ])
      obstacles.push({ kind: 'keepout', shape: rect(8 * MM, y0, 12 * MM, y1), layers: 1, net: 0, keepTracks: true, keepVias: true, clearance: 0 });
  }
  return {
    layerCount: 2,
    layerName: (i) => (i === 0 ? 'F.Cu' : 'B.Cu'),
    netNames: ['', 'A', 'B'],
    pads: [pad(0, 1, 4 * MM, 10 * MM), pad(1, 1, 16 * MM, 10 * MM), pad(2, 2, 10 * MM, 1.2 * MM), pad(3, 2, 10 * MM, 18.8 * MM)],
    obstacles,
    holes: [],
    outline: [segment(0, 0, W, 0, 0), segment(W, 0, W, W, 0), segment(W, W, 0, W, 0), segment(0, W, 0, 0, 0)],
    outlineEdges: Float64Array.of(0, 0, W, 0, W, 0, W, W, W, W, 0, W, 0, W, 0, 0),
    rules: TEST_RULES,
  };
}

describe('joins a plane makes', () => {
  it('leaves no track where the plane joins the pads, and no connection to report', () => {
    const r = routeHost(world(false), {}, 0);
    expect(r.open).toEqual([]);
    expect(r.connections.filter((c) => c.net === 1)).toEqual([]);
    expect(r.tracks.filter((t) => t.net === 1)).toEqual([]);
    expect(r.tracks.filter((t) => t.net === 2).length).toBeGreaterThan(0);
  });

  it('keeps the track that bridges a plane another route cuts in two', () => {
    const r = routeHost(world(true), {}, 0);
    expect(r.open).toEqual([]);
    // B crosses the whole plane on B.Cu, between A's pads.
    const b = r.tracks.filter((t) => t.net === 2);
    expect(b.length).toBeGreaterThan(0);
    expect(b.some((t) => t.layer === 1)).toBe(true);
    // The track keeps what the plane joined before: still no connection of A's to report.
    expect(r.tracks.filter((t) => t.net === 1).length).toBeGreaterThan(0);
    expect(r.connections.filter((c) => c.net === 1)).toEqual([]);
  });

  it('routes the zone’s net by tracks as before with hard zones', () => {
    const r = routeHost(world(false), { options: { softZones: false } }, 0);
    expect(r.open).toEqual([]);
    expect(r.tracks.filter((t) => t.net === 1)).toEqual([]);
  });
});
