// Regression: a fab template's `.kicad_dru` beside a board made the router route nothing — its
// rules asked `A.Type`, `A.isPlated()` and `A.Pad_Type` and set annular_width and hole_to_hole,
// which the engine could not read, so every net was held back (rule_not_supported). With a rule
// file of that kind beside bench board BB-PWR-8009, the engine routes every connection, and
// kicad-cli 9.0.8 and 10.0.7 find no error on the routed board that the bare one lacks.
import { describe, expect, it } from 'vitest';
import { expectNoErrorAdded, routeBench } from '../../../support/judge-generated.ts';
import { kicads } from '../../../support/kicad.ts';
import { FAB_DRU as DRU } from '../../../support/fab-rules.ts';

const NAME = 'BB-PWR-8009_BB-PWR-8009_revA';

const { g, design, result, after } = routeBench(NAME, DRU);

describe('a fab template rule file beside a bench board', () => {
  it('reads every rule but the silkscreen one, and holds no net back', () => {
    expect(design.warnings.filter((w) => w.source === 'b.kicad_dru').map((w) => w.message)).toEqual([
      'rule "Silkscreen off pads": constraint silk_clearance is not supported and is ignored',
    ]);
    expect(result.open.map((c) => c.stuck?.reason)).toEqual([]);
    expect(result.summary.open).toBe(0);
    expect(result.tracks.length).toBeGreaterThan(0);
  });

  it('the router keeps the rules: vias ringed and drilled as asked, tracks as wide, the engine’s DRC clean', () => {
    for (const v of result.vias) {
      expect(v.drill).toBeGreaterThanOrEqual(300_000);
      expect(v.size - v.drill).toBeGreaterThanOrEqual(2 * 150_000);
    }
    for (const t of result.tracks) expect(t.width).toBeGreaterThanOrEqual(150_000);
    expect(after.errors).toEqual({});
    expect(after.unconnected).toBe(0);
  });

  describe.each(kicads().map((k) => [k.version, k] as const))('judged by kicad-cli %s', (_v, k) => {
    it('no error the bare board lacks, nothing left unconnected', async () => {
      await expectNoErrorAdded(k, g, DRU, design, result);
    }, 120_000);
  });
});
