// The rules of the synthetic router worlds in these tests: one class, 0.2 mm clearance,
// 0.25 mm tracks (0.15 mm at least), 0.6/0.3 mm vias, reliefs of two spokes; a square board to put them on, and the
// square pads they join.
import { rect, segment } from '../../../engine/geom/index.ts';
import type { HostPad, HostRules, RouterHost } from '../../../engine/route/core/host.ts';

export const TEST_RULES: HostRules = {
  clearance: () => 200_000,
  trackWidth: () => 250_000,
  minTrackWidth: () => 150_000,
  via: () => ({ diameter: 600_000, drill: 300_000 }),
  edgeClearance: () => 300_000,
  holeClearance: () => 200_000,
  holeToHole: 250_000,
  minSpokes: 2,
  className: () => 'Default',
};

/** A two-layer synthetic board `size` nm square with its outline, the test rules and `parts`. */
export function squareHost(size: number, parts: Pick<RouterHost, 'netNames' | 'pads' | 'obstacles'> & Partial<RouterHost>): RouterHost {
  const W = size;
  return {
    layerCount: 2,
    layerName: (i) => (i === 0 ? 'F.Cu' : 'B.Cu'),
    holes: [],
    outline: [segment(0, 0, W, 0, 0), segment(W, 0, W, W, 0), segment(W, W, 0, W, 0), segment(0, W, 0, 0, 0)],
    outlineEdges: Float64Array.of(0, 0, W, 0, W, 0, W, W, W, W, 0, W, 0, W, 0, 0),
    rules: TEST_RULES,
    ...parts,
  };
}

/** A square pad of one net: 0.8 mm on F.Cu, named P<index>, unless `o` says otherwise
 *  (`layers` is a mask: 1 F.Cu, 3 both). */
export function testPad(
  index: number,
  net: number,
  x: number,
  y: number,
  o: { half?: number; ref?: string; layers?: number; throughHole?: boolean } = {},
): HostPad {
  const half = o.half ?? 400_000;
  return {
    index,
    ref: o.ref ?? `P${index}`,
    number: '1',
    net,
    at: { x, y },
    rotation: 0,
    layers: o.layers ?? 1,
    shape: rect(x - half, y - half, x + half, y + half),
    clearance: 0,
    minSize: 2 * half,
    throughHole: o.throughHole ?? false,
  };
}
