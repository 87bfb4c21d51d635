// A coupled pair too short for the project's length rule, routed from a real pcbnew (9.0.8,
// 10.0.7): the route action lays /CAN± as a pair and lengthens both nets with pair meanders, both
// tracks bent together at the pair's gap, commits them in one step; the board read back from the
// editor then has no length error, the pair still runs coupled over most of its length, and one
// Ctrl+Z takes it all away.
import { expect, it } from 'vitest';
import { gapTolerance, pairCoupling } from '../../engine/drc/pair-coupling.ts';
import type { Track } from '../../ipc/index.ts';
import { runAction } from '../../plugin/kicad-host/actions.ts';
import { describeKicads, useKicad } from './kicad-harness.ts';
import { actionContext, benchBoardWithRules, copper, idOf, lengthOf, netOf, selectPadsOf, undoOnce } from './live-copper.ts';

const PLUS = '/CAN+';
const MINUS = '/CAN-';
// Routed shortest as a pair (CANBUS class: 0.1524 mm tracks 0.254 mm apart), each net is about
// 34 mm: the rule asks at least 47 mm.
const MIN = 47_000_000;
const MAX = 61_000_000;
const DRU = `(version 1)
(rule "can length"
\t(condition "A.inDiffPair('/CAN')")
\t(constraint length (min 47mm) (max 61mm)))
`;

describeKicads('a coupled pair under a length rule routed from live pcbnew', (version) => {
  const live = useKicad(version, { board: benchBoardWithRules('B', 'flatpack2-adapter_EltekFlatpack2', version, DRU) });

  it('lengthens both nets with pair meanders in one commit; the board then meets the rule, the pair still coupled; one Ctrl+Z takes it back', async () => {
    const client = live.client;
    const ctx = actionContext(client);
    await selectPadsOf(client, PLUS);
    const before = new Set((await copper(client)).map(idOf));

    const r = await runAction(ctx, { action: 'route-selected' });
    // The nets come in the board's net order, which KiCad 9 and 10 number differently.
    expect(r).toMatchObject({ ok: true, code: 'routed', details: { nets: expect.arrayContaining([PLUS, MINUS]), open_after: 0 } });
    expect((r.details as { nets: string[] }).nets).toHaveLength(2);
    const added = (await copper(client)).filter((i) => !before.has(idOf(i)));
    expect(new Set(added.map(netOf))).toEqual(new Set([PLUS, MINUS]));
    // The committed copper, read back from the editor, measured as KiCad measures a net's length.
    const length = (net: string) => lengthOf(added, net, version);
    for (const net of [PLUS, MINUS]) {
      expect(length(net), net).toBeGreaterThanOrEqual(MIN);
      expect(length(net), net).toBeLessThanOrEqual(MAX);
    }
    // Most of what both nets gained is the pair's meanders: coupled at the class's gap as KiCad's
    // coupling check pairs tracks, the pair runs so over more than two thirds of its length (one
    // net's own bumps would each take a stretch out of the coupling instead).
    const tracks = added.filter((i): i is Track => i.kind === 'track');
    const layers = [...new Set(tracks.map((t) => t.layer))].sort();
    const side = (net: string) => tracks.filter((t) => t.net === net).map((t) => ({ ...t, layer: layers.indexOf(t.layer) }));
    const gap = gapTolerance(254_000);
    expect(pairCoupling(side(PLUS), side(MINUS), gap).share).toBeGreaterThan(2 / 3);

    const errors = ((await runAction(ctx, { action: 'check' })).details?.errors ?? []) as { type: string }[];
    expect(errors.map((e) => e.type)).not.toContain('length_out_of_range');

    expect(await undoOnce(live.instance, client, before)).toEqual(before);
  });
});
