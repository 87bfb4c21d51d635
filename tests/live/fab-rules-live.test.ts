// A fab's rule file beside a board opened in a real pcbnew (9.0.8, 10.0.7): rules conditioned on
// the item's type, its pad type and isPlated(), with annular_width and hole_to_hole minimums, as
// fab templates write them. The route action routes every net of the board in one commit, holding
// none back; the vias KiCad then holds keep the rules' ring and drill, KiCad's own check of the
// board finds no error of the kinds those rules judge, and one Ctrl+Z takes it all away.
import { expect, it } from 'vitest';
import { runAction } from '../../plugin/kicad-host/actions.ts';
import { FAB_DRU as DRU } from '../support/fab-rules.ts';
import { describeKicads, useKicad } from './kicad-harness.ts';
import { actionContext, benchBoardWithRules, copper, idOf, netOf, undoOnce } from './live-copper.ts';

const NETS = ['Net-(C1-Pad1)', 'GND', 'Net-(C2-Pad1)', 'Net-(C2-Pad2)', 'Net-(L1-Pad1)', 'Net-(D1-Pad1)'];

describeKicads('a fab rule file beside a board in live pcbnew', (version) => {
  const live = useKicad(version, { board: benchBoardWithRules('A', 'BB-PWR-8009_BB-PWR-8009_revA', version, DRU) });

  it('routes every net in one commit under the rules, and one Ctrl+Z takes it back', async () => {
    const client = live.client;
    const ctx = actionContext(client);
    const before = new Set((await copper(client)).map(idOf));

    const r = await runAction(ctx, { action: 'route-selected', nets: NETS });
    expect(r).toMatchObject({ ok: true, code: 'routed', details: { open_after: 0 } });
    const added = (await copper(client)).filter((i) => !before.has(idOf(i)));
    expect(new Set(added.map(netOf)).size).toBeGreaterThanOrEqual(5);
    const vias = added.filter((i) => i.kind === 'via');
    expect(vias.length).toBeGreaterThan(0);
    for (const v of vias) {
      if (v.kind !== 'via') continue;
      expect(v.drill).toBeGreaterThanOrEqual(300_000);
      expect(v.diameter - v.drill).toBeGreaterThanOrEqual(2 * 150_000);
    }

    const check = await runAction(ctx, { action: 'check' });
    const errors = ((check.details?.errors ?? []) as { type: string; count: number }[]).map((e) => e.type);
    for (const type of ['annular_width', 'hole_to_hole', 'track_width', 'clearance', 'drill_out_of_range', 'unconnected_items'])
      expect(errors).not.toContain(type);

    expect(await undoOnce(live.instance, client, before)).toEqual(before);
  });
});
