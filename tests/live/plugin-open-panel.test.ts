// "Open panel" end to end in a real pcbnew under Xvfb, once per KiCad under test: the action runs the way KiCad runs it
// (`node dist/tracemaker.js kicad open-panel` with KICAD_API_SOCKET/TOKEN), the host's browser is a
// script (TRACEMAKER_BROWSER) that records the URL it is given, Chromium loads that URL, and a click
// on an open connection leaves KiCad's selection equal to that connection's pads; a Ctrl+Z in KiCad
// shows in the page's history; and a route that leaves a connection open (a pad boxed in) opens the
// panel by itself — not while a page shows it, and not when the user's settings turned that off.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KicadClient } from '../../ipc/index.ts';
import { CLI, startChrome, type Chrome } from '../ui/harness.ts';
import { benchBoard, describeKicads, useKicad, type KicadInstance } from './kicad-harness.ts';
import { boxAround, stopKicadAndHosts } from './plugin-support.ts';

interface Outcome {
  ok: boolean;
  code: string;
  message: string;
  details?: { url?: string };
}

describeKicads('the Open panel action in live pcbnew', (version) => {
  const live = useKicad(version, {
    board: benchBoard('A', 'Blink-Eras_AVR_ISP_Pogo', version),
    clientName: 'tracemaker-open-panel',
    teardown: stopKicadAndHosts,
  });
  let kicad: KicadInstance;
  let client: KicadClient;
  let chrome: Chrome;
  let page: Page;
  let dir = '';
  let opened = '';

  /** The URLs the host asked the "browser" to open so far. */
  const urls = () => (existsSync(opened) ? readFileSync(opened, 'utf8').split('\n').filter(Boolean) : []);
  // The opener runs detached from the action, so its record may land a moment after the reply.
  const urlsAtLeast = async (n: number) => {
    const until = Date.now() + 10_000;
    while (urls().length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    return urls();
  };

  function act(action: string, extra: string[] = []): Outcome {
    const r = spawnSync(process.execPath, [CLI, 'kicad', action, '--json', ...extra], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...kicad.env, KICAD_API_SOCKET: `ipc://${kicad.socketPath}`, KICAD_API_TOKEN: client.token, TRACEMAKER_BROWSER: join(dir, 'browser.sh') },
    });
    const last = r.stdout.trim().split('\n').pop();
    if (!last) throw new Error(`tracemaker kicad ${action} printed nothing; stderr: ${r.stderr}`);
    return JSON.parse(last) as Outcome;
  }

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('build first: npm run build');
    dir = mkdtempSync(join(tmpdir(), 'tmk-open-panel-'));
    opened = join(dir, 'opened.txt');
    // Stands in for xdg-open: records the address, opens nothing.
    writeFileSync(join(dir, 'browser.sh'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
    chmodSync(join(dir, 'browser.sh'), 0o755);
    kicad = live.instance;
    client = live.client;
    chrome = await startChrome();
    page = await (await chrome.context()).newPage();
  });

  afterAll(async () => {
    await chrome?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens the panel at a tokened local address; clicking a connection selects its pads in KiCad', async () => {
    const r = act('open-panel');
    expect(r.code, r.message).toBe('panel');
    expect(r.message).toMatch(/^The panel is open in your browser\n/);
    expect(await urlsAtLeast(1)).toEqual([r.details!.url]);
    expect(r.details!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/$/);

    await page.goto(urls()[0]);
    await page.waitForSelector('button.conn');
    expect(await page.textContent('#mode')).toBe('Connected to KiCad');
    const row = page.locator('button.conn').first();
    const ends = (await row.locator('.pad').allTextContents()).filter((e) => e !== 'zone');
    expect(ends.length).toBeGreaterThan(0);
    await row.click();
    await page.waitForSelector('#spot .ok');
    const want = new Set(ends);
    const padIds = (await client.footprints()).flatMap((f) => f.pads.filter((p) => want.has(`${f.reference}.${p.number}`)).map((p) => p.id)).sort();
    expect(padIds.length).toBe(ends.length);
    const selected = (await client.selection(['pad'])).map((i) => ('id' in i ? i.id : '')).sort();
    expect(selected).toEqual(padIds);
  });

  it('follows a Ctrl+Z in KiCad: the page shows the editor going back as a history entry', async () => {
    const net = (await page.locator('button.conn').first().getAttribute('data-key'))!.split('|')[0];
    const copper = async () => (await client.items(['track', 'via'])).length;
    const before = await copper();
    const r = act('route-selected', ['--nets', net]);
    expect(r.code, r.message).toBe('routed');
    await page.waitForFunction(() => document.querySelector('button.state.current .state-label')?.textContent?.startsWith('Route '));
    await client.clearSelection();
    kicad.key('ctrl+z');
    const deadline = Date.now() + 15_000;
    while ((await copper()) !== before && Date.now() < deadline) await new Promise((res) => setTimeout(res, 200));
    expect(await copper()).toBe(before);
    // Coming back to the page looks at the editor again.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.waitForFunction(() => document.querySelector('button.state.current .state-label')?.textContent?.startsWith('KiCad: '));
    expect(await page.getAttribute('button.state.current', 'data-state')).toBe('0');
  });

  it('opens the panel after a route that leaves connections open, unless the settings say not to', async () => {
    const pads = await client.pads();
    const pad = pads.find((p) => p.net !== '' && pads.filter((q) => q.net === p.net).length >= 2)!;
    const box = await client.beginCommit();
    await box.create(boxAround(pad));
    await box.push('Test: box a pad in');
    const stuck = () => act('route-selected', ['--nets', pad.net]);
    const leftOpen = (r: Outcome) => ['not_routed', 'refused'].includes(r.code) || (r.code === 'routed' && /still unrouted/.test(r.message));

    // The page of the first test is still connected: it is told, and no second tab opens.
    const watched = stuck();
    expect(leftOpen(watched), `${watched.code}: ${watched.message}`).toBe(true);
    expect(urls()).toHaveLength(1);
    await page.close();
    await new Promise((r) => setTimeout(r, 500));

    // Nobody looking: the same route opens the panel, at the same address.
    const alone = stuck();
    expect(leftOpen(alone), `${alone.code}: ${alone.message}`).toBe(true);
    expect(alone.message).toMatch(/The panel in your browser shows why each connection stayed unrouted\.$/);
    const both = await urlsAtLeast(2);
    expect(both).toEqual([both[0], both[0]]);

    // Turned off in the user's settings file: no browser.
    const settings = join(kicad.env.XDG_CONFIG_HOME!, 'tracemaker');
    mkdirSync(settings, { recursive: true });
    writeFileSync(join(settings, 'settings.json'), JSON.stringify({ open_panel_after_route: false }));
    const quiet = stuck();
    expect(leftOpen(quiet), `${quiet.code}: ${quiet.message}`).toBe(true);
    expect(quiet.message).not.toMatch(/panel/);
    expect(urls()).toHaveLength(2);
  });
});
