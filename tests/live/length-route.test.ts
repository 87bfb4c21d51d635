// A differential pair under the project's length and skew rules, routed from a real pcbnew (9.0.8,
// 10.0.7): the route action lengthens the shorter net with meanders until the two match within the
// skew rule, commits both in one step, and the board read back from the editor then has no length
// or skew error; one Ctrl+Z takes it all away.
import { expect, it } from 'vitest';
import { runAction } from '../../plugin/kicad-host/actions.ts';
import { describeKicads, useKicad } from './kicad-harness.ts';
import { actionContext, benchBoardWithRules, copper, idOf, lengthOf, netOf, selectPadsOf, undoOnce } from './live-copper.ts';

const PLUS = '/USB_D+';
const MINUS = '/USB_D-';
// Routed shortest the two nets are about 8 and 11 mm: the rules ask them within 0.5 mm of each
// other, and no longer than 20 mm.
const DRU = `(version 1)
(rule "usb length"
\t(condition "A.inDiffPair('/USB_D')")
\t(constraint length (max 20mm)))
(rule "usb skew"
\t(condition "A.inDiffPair('/USB_D')")
\t(constraint skew (max 0.5mm) (within_diff_pairs)))
`;

describeKicads('a pair under length and skew rules routed from live pcbnew', (version) => {
  const live = useKicad(version, { board: benchBoardWithRules('B', 'usb_rs232c_usb_rs232c_rev_a', version, DRU) });

  it('meanders the shorter net to the skew rule in one commit; the board then breaks neither rule; one Ctrl+Z takes it back', async () => {
    const client = live.client;
    const ctx = actionContext(client);
    await selectPadsOf(client, PLUS);
    const before = new Set((await copper(client)).map(idOf));
    // Unrouted, both nets are too short for the length rule.
    const types = (r: Awaited<ReturnType<typeof runAction>>) => ((r.details?.errors ?? []) as { type: string; count: number }[]).map((e) => e.type);

    const r = await runAction(ctx, { action: 'route-selected' });
    // The nets come in the board's net order, which KiCad 9 and 10 number differently.
    expect(r).toMatchObject({ ok: true, code: 'routed', details: { nets: expect.arrayContaining([PLUS, MINUS]), open_after: 0 } });
    expect((r.details as { nets: string[] }).nets).toHaveLength(2);
    const added = (await copper(client)).filter((i) => !before.has(idOf(i)));
    expect(new Set(added.map(netOf))).toEqual(new Set([PLUS, MINUS]));
    // The committed copper, read back from the editor: the two nets within 0.5 mm as KiCad
    // measures them, the shorter one meandered.
    const length = (net: string) => lengthOf(added, net, version);
    expect(Math.abs(length(PLUS) - length(MINUS))).toBeLessThanOrEqual(500_000);
    expect(added.length).toBeGreaterThan(14);

    const after = types(await runAction(ctx, { action: 'check' }));
    expect(after).not.toContain('length_out_of_range');
    expect(after).not.toContain('skew_out_of_range');

    expect(await undoOnce(live.instance, client, before)).toEqual(before);
  });
});
