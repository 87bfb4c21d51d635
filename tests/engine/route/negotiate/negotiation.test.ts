// The negotiation (router.ts) reroutes each round the nets in conflict; once the conflicts stop
// falling, the nets whose copper lies round where they conflict as well. On arduino-led-driver
// with its selected nets taken away (the plugin's everyday case), three of them fought over the
// same room for all 30 rounds while the nets beside them, in no conflict, stayed where they were;
// rerouting the conflicted nets alone left a connection open in each variant (EN10's U1.26–U16.1
// in the better one).
import { describe, expect, it } from 'vitest';
import { routeDesign } from '../../../../engine/route/plan/variants.ts';
import { errorsAdded, strippedBench } from '../../../support/stripped-board.ts';

describe('negotiated congestion', () => {
  it('moves the nets round a conflict that does not resolve: arduino-led-driver’s stripped nets all route back, clean', () => {
    const { design, nets } = strippedBench('arduino-led-driver_arduino-led-driver');
    // As `tracemaker route --nets` routes it: two variants, the better kept.
    const r = routeDesign(design, { nets, variants: 2 });
    expect(r.open.map((c) => `${c.netName} ${c.from.ref}.${c.from.number}–${c.to.ref}.${c.to.number}`)).toEqual([]);
    expect(r.summary.routed).toBe(21);
    expect(r.work).toBeLessThanOrEqual(r.budget);
    expect(errorsAdded(design, r)).toEqual([]);
  }, 120_000);
});
