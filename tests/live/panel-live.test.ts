// The panel against a real pcbnew under Xvfb, once per KiCad under test: clicking an open connection in the page
// selects its pads in KiCad; routing and restoring from the page are KiCad commits, and a
// restore is one undo step (Ctrl+Z in the editor brings the routed copper back).
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KicadClient } from '../../ipc/index.ts';
import type { Session } from '../../engine/session/session.ts';
import { startPanelServer, type PanelServer } from '../../plugin/panel/server.ts';
import { openSession } from '../../plugin/session-host.ts';
import { ROOT, startChrome, type Chrome } from '../ui/harness.ts';
import { benchBoard, describeKicads, useKicad, type KicadInstance } from './kicad-harness.ts';
import { TestBridge } from './panel-bridge.ts';

async function waitFor<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function status(page: Page, prefix: string): Promise<string> {
  await page.waitForFunction((p) => (document.querySelector('#status')?.textContent ?? '').startsWith(p), prefix, { timeout: 90_000 });
  return (await page.textContent('#status')) ?? '';
}

describeKicads('the panel with live pcbnew', (version) => {
  const live = useKicad(version, { board: benchBoard('A', 'Blink-Eras_AVR_ISP_Pogo', version) });
  let kicad: KicadInstance;
  let client: KicadClient;
  let session: Session;
  let bridge: TestBridge;
  let server: PanelServer;
  let chrome: Chrome;
  let page: Page;
  const copper = async () => (await client.items(['track', 'via'])).length;

  beforeAll(async () => {
    kicad = live.instance;
    client = live.client;
    session = openSession({ board: kicad.boardPath, out: '', diagnostics: () => undefined }).session;
    bridge = new TestBridge(client, session);
    server = await startPanelServer({ session: () => session, bridge, uiDir: join(ROOT, 'dist', 'ui') });
    chrome = await startChrome();
    page = await (await chrome.context()).newPage();
    await page.goto(server.url);
    await page.waitForSelector('button.conn');
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  it('says it is connected and clicking a connection selects its pads in KiCad', async () => {
    expect(await page.textContent('#mode')).toBe('Connected to KiCad');
    const row = page.locator('button.conn').first();
    const ends = ((await row.locator('.pad').allTextContents()) as string[]).filter((e) => e !== 'zone');
    await row.click();
    await page.waitForSelector('#spot .ok');
    expect(await page.textContent('#spot .ok')).toContain('in KiCad');
    const want = await bridge.padIds(ends.map((e) => ({ reference: e.slice(0, e.indexOf('.')), pad: e.slice(e.indexOf('.') + 1) })));
    expect(want.length).toBe(ends.length);
    const selected = (await client.selection(['pad'])).map((i) => ('id' in i ? i.id : '')).sort();
    expect(selected).toEqual(want);
  });

  it('routes from the page as one commit, and a restore is one undo step in KiCad', async () => {
    const before = await copper();
    await page.click('#route-all');
    await status(page, 'Routed');
    const routed = session.states.current.copper.tracks.length + session.states.current.copper.vias.length;
    expect(routed).toBeGreaterThan(0);
    expect(await copper()).toBe(before + routed);

    await page.locator('button.state[data-state="0"]').click();
    await status(page, 'Now at state #0');
    expect(await copper()).toBe(before);

    // KiCad's own undo stack is the truth: one Ctrl+Z undoes the whole restore.
    await client.clearSelection();
    kicad.key('ctrl+z');
    await waitFor('undo of the restore', copper, (n) => n === before + routed);
  });
});
