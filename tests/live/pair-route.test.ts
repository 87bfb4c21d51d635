// One net of a differential pair selected in a real pcbnew (9.0.8, 10.0.7): the route action the
// plugin's host runs (plugin/kicad-host/actions.ts, against the live editor through its API) routes
// both nets of the pair in one commit, and one Ctrl+Z takes all of it away.
import { expect, it } from 'vitest';
import { runAction } from '../../plugin/kicad-host/actions.ts';
import { benchBoard, describeKicads, useKicad } from './kicad-harness.ts';
import { actionContext, copper, idOf, netOf, selectPadsOf, undoOnce } from './live-copper.ts';

const PLUS = '/USB_D+';
const MINUS = '/USB_D-';

describeKicads('one net of a differential pair selected in live pcbnew', (version) => {
  const live = useKicad(version, { board: benchBoard('B', 'usb_rs232c_usb_rs232c_rev_a', version) });

  it('routes both nets of the pair in one commit; one Ctrl+Z takes it all back', async () => {
    const client = live.client;
    expect(await selectPadsOf(client, PLUS)).toBe(2);
    const before = new Set((await copper(client)).map(idOf));
    const r = await runAction(actionContext(client), { action: 'route-selected' });
    // The nets come in the board's net order, which KiCad 9 and 10 number differently.
    expect(r).toMatchObject({ ok: true, code: 'routed', details: { nets: expect.arrayContaining([PLUS, MINUS]), open_after: 0 } });
    expect((r.details as { nets: string[] }).nets).toHaveLength(2);
    // Routed as a coupled pair, and the message says how much of it runs coupled and why not all.
    const lines = r.message.split('\n');
    expect(lines[0]).toMatch(/^Routed 2 nets: \d+ tracks?, \d+ vias?$/);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\/USB_D[+-] and \/USB_D[+-] are routed as a coupled pair over \d+ % of their length at the 0\.25 mm pair gap \(lengths [\d.]+ and [\d.]+ mm\); its pads lie .+ and the tracks fan out to them over [\d.]+ mm of the longer net\.$/,
      ),
    );
    const added = (await copper(client)).filter((i) => !before.has(idOf(i)));
    expect(new Set(added.map(netOf))).toEqual(new Set([PLUS, MINUS]));

    expect(await undoOnce(live.instance, client, before)).toEqual(before);
  });
});
