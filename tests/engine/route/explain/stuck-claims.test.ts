// A stuck reason is a claim the user acts on. Where the flood that would back "no path on the
// router's grid" stops at its limit, nothing is claimed of the fixed copper: kitspace_Driverino-Shield
// with its selected nets taken away leaves /CS open, and its grid (550 × 428 sites, two layers) is
// larger than the flood may cover. The look off the grid that follows says what it came to.
import { describe, expect, it } from 'vitest';
import { routeVariant } from '../../../../engine/route/plan/variants.ts';
import { errorsAdded, strippedBench } from '../../../support/stripped-board.ts';

describe('stuck reasons that hold', () => {
  it('says a flood stopped at its limit rules nothing out, and names no blockers from it', () => {
    const { design, nets } = strippedBench('kitspace_Driverino-Shield');
    const r = routeVariant(design, { nets, variants: 1 }, 0);
    expect(errorsAdded(design, r)).toEqual([]);
    const cs = r.open.filter((c) => c.netName === '/CS');
    expect(cs).toHaveLength(1);
    const why = cs[0].stuck!;
    expect(why.reason).toBe('blocked');
    expect(why.why).toMatch(
      /^The search for U1\.36–R9\.2 found no legal path\. A flood of the router's grid at the class width \(0\.25 mm\) past the fixed copper covered \d+ sites from U1\.36 and stopped at its limit before reaching R9\.2, so no path is ruled out and what blocks it was not measured\. The search off the grid ran out of work before it settled\.$/,
    );
    expect(why.blockers).toEqual([]);
  });
});
