// A step that lays copper after the router's final gate (a pair laid as a pair) asks planesCut
// whether its copper cuts a zone's plane once KiCad refills it: through, or down to a neck
// thinner than the zone's minimum width.
import { describe, expect, it } from 'vitest';
import type { NewTrack } from '../../../../engine/board/added-copper.ts';
import { polygon } from '../../../../engine/geom/index.ts';
import { gridFor } from '../../../../engine/route/core/grid.ts';
import type { HostObstacle } from '../../../../engine/route/index.ts';
import { planesCut } from '../../../../engine/route/zones/plane-cut.ts';
import { squareHost, testPad } from '../test-rules.ts';

const MM = 1_000_000;
const W = 20 * MM;
const NONE = { tracks: [], vias: [] };

/** Net A (1): through-hole pads at (4, 10) and (16, 10) and a solid plane on B.Cu from y 2.2 to
 *  17.8 mm, of minimum width `minWidth`; net B (2) adds nothing but the tracks a test lays. */
function world(minWidth?: number) {
  const fill: HostObstacle = {
    kind: 'zone',
    shape: polygon([0.5 * MM, 2.2 * MM, W - 0.5 * MM, 2.2 * MM, W - 0.5 * MM, 17.8 * MM, 0.5 * MM, 17.8 * MM]),
    layers: 2,
    net: 1,
    clearance: 200_000,
  };
  if (minWidth) fill.minWidth = minWidth;
  const pad = (index: number, x: number) => testPad(index, 1, x, 10 * MM, { half: 0.5 * MM, layers: 3, throughHole: true });
  const host = squareHost(W, { netNames: ['', 'A', 'B'], pads: [pad(0, 4 * MM), pad(1, 16 * MM)], obstacles: [fill] });
  return { host, grid: gridFor(host, 50_000) };
}

/** Net B's 0.25 mm track down the middle from above the plane to `y` (nm) on `layer`. */
const down = (y: number, layer = 1): { tracks: NewTrack[]; vias: [] } => ({
  tracks: [{ net: 2, layer, width: 250_000, start: { x: 10 * MM, y: 0.5 * MM }, end: { x: 10 * MM, y } }],
  vias: [],
});

describe('planes cut by new copper', () => {
  it('names the net whose plane a track crosses from edge to edge', () => {
    const { host, grid } = world();
    expect(planesCut(host, grid, NONE, down(19.5 * MM))).toEqual([1]);
    // The same track the other way round (taken out) cuts nothing; on the other layer neither.
    expect(planesCut(host, grid, down(19.5 * MM), NONE)).toEqual([]);
    expect(planesCut(host, grid, NONE, down(19.5 * MM, 0))).toEqual([]);
  });

  it('counts a neck thinner than the zone’s minimum width as a cut', () => {
    // The track's knock-out (half its width and the 0.2 mm clearance) stops 0.2 mm short of the
    // plane's lower edge: a neck KiCad keeps without a minimum width and drops under 0.25 mm.
    const short = down(17.8 * MM - 525_000);
    expect(planesCut(world().host, world().grid, NONE, short)).toEqual([]);
    const thin = world(250_000);
    expect(planesCut(thin.host, thin.grid, NONE, short)).toEqual([1]);
    // 0.6 mm short is wide enough.
    expect(planesCut(thin.host, thin.grid, NONE, down(17.8 * MM - 925_000))).toEqual([]);
  });

  it('weighs the change only: a plane already cut before stays as it was', () => {
    const { host, grid } = world();
    const both = {
      tracks: [...down(19.5 * MM).tracks, { ...down(19.5 * MM).tracks[0], start: { x: 12 * MM, y: 0.5 * MM }, end: { x: 12 * MM, y: 19.5 * MM } }],
      vias: [],
    };
    expect(planesCut(host, grid, down(19.5 * MM), both)).toEqual([]);
  });
});
