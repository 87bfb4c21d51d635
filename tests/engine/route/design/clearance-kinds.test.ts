// A fab's rule file often asks more room round pads and vias than between two tracks. The router
// once asked the rules per net only, so such a rule held every track that far from every other
// track too. Now it asks as the items are (track, via, pad, the fixed copper's kind): with a rule file
// that keeps tracks 0.3 mm from pads and vias on bench board arduino-led-driver (class clearance
// 0.2 mm), two tracks of different nets come closer than 0.3 mm where that is shorter, and nothing
// comes closer to a pad or via than 0.3 mm: the engine's DRC and kicad-cli 9.0.8 and 10.0.7 find no
// error the bare board lacks, and nothing is left unconnected.
import { describe, expect, it } from 'vitest';
import { distance, segment } from '../../../../engine/geom/index.ts';
import { expectNoErrorAdded, routeBench } from '../../../support/judge-generated.ts';
import { kicads } from '../../../support/kicad.ts';

const NAME = 'arduino-led-driver_arduino-led-driver';
const DRU = `(version 1)
(rule "Pads from tracks"
\t(condition "A.Type == 'Pad' && B.Type == 'Track'")
\t(constraint clearance (min 0.3mm)))
(rule "Vias from tracks"
\t(condition "A.Type == 'Via' && B.Type == 'Track'")
\t(constraint clearance (min 0.3mm)))
`;

const { g, design, result, after } = routeBench(NAME, DRU);

/** The least gap (nm) between new tracks of different nets on one layer. */
function leastTrackGap(): number {
  const shapes = result.tracks.map((t) => ({ t, s: segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width) }));
  let least = Infinity;
  for (let i = 0; i < shapes.length; i++)
    for (let j = i + 1; j < shapes.length; j++) {
      const a = shapes[i];
      const b = shapes[j];
      if (a.t.net === b.t.net || a.t.layer !== b.t.layer) continue;
      least = Math.min(least, distance(a.s, b.s));
    }
  return least;
}

describe('clearance rules conditioned on the items’ kinds, in the router', () => {
  it('routes every connection, its tracks closer to each other than to pads and vias', () => {
    expect(design.warnings.filter((w) => w.source === 'b.kicad_dru')).toEqual([]);
    expect(result.summary.open).toBe(0);
    expect(result.vias.length).toBeGreaterThan(0);
    const gap = leastTrackGap();
    // The class's 0.2 mm between tracks, less what KiCad's DRC lets pass; not the pads' 0.3 mm.
    expect(gap).toBeGreaterThanOrEqual(200_000 - 10);
    expect(gap).toBeLessThan(300_000);
  });

  it('the engine’s DRC finds nothing: pads and vias keep 0.3 mm from every track', () => {
    expect(after.errors).toEqual({});
    expect(after.unconnected).toBe(0);
  });

  describe.each(kicads().map((k) => [k.version, k] as const))('judged by kicad-cli %s', (_v, k) => {
    it('no error the bare board lacks, nothing left unconnected', async () => {
      await expectNoErrorAdded(k, g, DRU, design, result);
    }, 120_000);
  });
});
