// Layer cost factors: the net of a zone with thermal reliefs prefers the zone's layers (its
// tracks there hold the plane to its pads); a zone joining pads solid changes nothing; a hint
// for the net wins over the preference.
import { describe, expect, it } from 'vitest';
import { rect } from '../../../../engine/geom/index.ts';
import type { HostObstacle, RouterHost } from '../../../../engine/route/index.ts';
import { layerFactors } from '../../../../engine/route/plan/costs.ts';
import { TEST_RULES } from '../test-rules.ts';

const MM = 1_000_000;

function host(zones: HostObstacle[]): RouterHost {
  return {
    layerCount: 2,
    layerName: (i) => (i === 0 ? 'F.Cu' : 'B.Cu'),
    netNames: ['', 'GND', 'VCC', 'SIG'],
    pads: [],
    obstacles: zones,
    holes: [],
    outline: [],
    outlineEdges: new Float64Array(0),
    rules: TEST_RULES,
  };
}

const zone = (net: number, layer: number, thermal: boolean): HostObstacle => ({
  kind: 'zone',
  shape: rect(0, 0, 10 * MM, 10 * MM),
  layers: 1 << layer,
  net,
  clearance: 200_000,
  ...(thermal ? { thermal: { gap: 500_000, thtOnly: false } } : {}),
});

describe('layer factors', () => {
  it('make a thermally joined zone’s layer cheaper for its net only', () => {
    const f = layerFactors(host([zone(1, 1, true), zone(2, 0, false)]), {});
    expect([...f.perNet.get(1)!]).toEqual([1, 0.6]);
    expect(f.perNet.has(2)).toBe(false);
    expect(f.perNet.has(3)).toBe(false);
    expect([...f.base]).toEqual([1, 1]);
  });

  it('leave a net the user gave layer costs as the user gave them', () => {
    const f = layerFactors(host([zone(1, 1, true)]), { hints: { layers: [{ net: 1, layer: 0, cost: 2 }] } });
    expect([...f.perNet.get(1)!]).toEqual([2, 1]);
  });

  it('build on costs given for every net', () => {
    const f = layerFactors(host([zone(1, 1, true)]), { hints: { layers: [{ layer: 1, cost: 2 }] } });
    expect([...f.perNet.get(-1)!]).toEqual([1, 2]);
    expect([...f.perNet.get(1)!]).toEqual([1, 1.2]);
  });
});
