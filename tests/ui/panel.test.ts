// The panel in a real browser (Debian's Chromium, headless) against `tracemaker panel` on a bench
// board, engine only: the open connections, a stuck one's picture, routing a net shrinks the
// list, the DRC check, restoring a state, filtering by keyboard, and the dark theme.
// Screenshots go to tests/artifacts/ui/ (UPDATE_DOCS=1 also refreshes docs/panel.png).
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchBoards } from '../support/bench.ts';
import { ARTIFACTS, ROOT, startChrome, startPanelHost, type Chrome, type PanelHost } from './harness.ts';

// A board whose route leaves a few connections open with reasons (boxed in, blocked), as long as
// the session's limit (100 M) holds the call's first round of variants but not a further round,
// which makes everything on it.
const board = benchBoards().find((b) => b.name === 'nanoSwinSidC_nanoSwinSidC')!;

async function status(page: Page, prefix: string | RegExp): Promise<string> {
  await page.waitForFunction(
    (p) => {
      const t = document.querySelector('#status')?.textContent ?? '';
      return typeof p === 'string' ? t.startsWith(p) : new RegExp(p).test(t);
    },
    typeof prefix === 'string' ? prefix : prefix.source,
    { timeout: 90_000 },
  );
  return (await page.textContent('#status')) ?? '';
}

/** The panel host on `bare`, and its page in Chromium with the connections listed; page errors go to `errors`. */
async function openPanel(bare: string, extra: string[], errors: string[]): Promise<{ host: PanelHost; chrome: Chrome; page: Page }> {
  const host = await startPanelHost(bare, extra);
  const chrome = await startChrome();
  const page = await (await chrome.context()).newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(host.url);
  await page.waitForSelector('button.conn');
  return { host, chrome, page };
}

const rows = (page: Page) => page.locator('button.conn').count();
const title = (page: Page) => page.textContent('#list-title');

describe('the panel in Chromium, on a board file', () => {
  let host: PanelHost;
  let chrome: Chrome;
  let page: Page;
  const dir = mkdtempSync(join(tmpdir(), 'tm-panel-'));
  const errors: string[] = [];

  beforeAll(async () => {
    ({ host, chrome, page } = await openPanel(board.bare, ['--out', join(dir, 'out.kicad_pcb'), '--work-limit', '100000000'], errors));
  });

  afterAll(async () => {
    await chrome?.close();
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the board and every open connection, grouped by net', async () => {
    expect(await page.textContent('#board-name')).toBe('nanoSwinSidC_nanoSwinSidC.kicad_pcb');
    expect(await title(page)).toBe('Open connections (52)');
    expect(await rows(page)).toBe(52);
    expect(await page.locator('.net-group h3', { hasText: /^GND/ }).count()).toBe(1);
    expect(await page.textContent('#mode')).toContain('no KiCad');
    expect(await page.locator('#route-selection').isDisabled()).toBe(true);
    expect(await page.getAttribute('#route-selection', 'title')).toContain('needs KiCad');
    await page.screenshot({ path: join(ARTIFACTS, '01-loaded.png'), fullPage: true });
  });

  it('routes one net and the list shrinks', async () => {
    const group = page.locator('.net-group', { has: page.locator('h3', { hasText: /^D0/ }) });
    await group.getByRole('button', { name: 'Route net' }).click();
    expect(await status(page, 'Routed')).toContain('Routed 1 of 1');
    expect(await title(page)).toBe('Open connections (51)');
    expect(await page.locator('.net-group h3', { hasText: /^D0/ }).count()).toBe(0);
    expect(await page.locator('button.state').count()).toBe(2);
  });

  let stuckRows = 0;

  it('routes everything, leaves stuck connections with reasons, and shows the spot of one', async () => {
    await page.click('#route-all');
    const said = await status(page, 'Routed');
    stuckRows = await rows(page);
    expect(stuckRows).toBeGreaterThan(0);
    expect(stuckRows).toBeLessThan(51);
    expect(said).toContain(`${stuckRows} open`);
    expect(await title(page)).toBe(`Open connections (${stuckRows})`);
    const stuck = page.locator('button.conn', { has: page.locator('.why') }).first();
    expect(await stuck.locator('.badge').textContent()).toMatch(/Boxed in|Blocked|No via site|Out of work|Unreachable/);
    expect(await stuck.locator('.chip').count()).toBeGreaterThan(0);
    await stuck.click();
    await page.waitForSelector('#spot .spot-img');
    await page.waitForFunction(() => (document.querySelector('#spot .spot-img') as HTMLImageElement | null)?.naturalWidth ?? 0 > 0);
    const caption = (await page.textContent('#spot .caption')) ?? '';
    expect(caption).toContain((await stuck.locator('.ends').textContent())!.replace(/\s+/g, ' ').split('→')[0].trim());
    expect(await page.textContent('#spot')).toContain('nothing is selected in KiCad');
    await page.screenshot({ path: join(ARTIFACTS, '02-stuck.png'), fullPage: false });
    if (process.env.UPDATE_DOCS === '1') copyFileSync(join(ARTIFACTS, '02-stuck.png'), join(ROOT, 'docs', 'panel.png'));
  });

  it('checks DRC before anything is written', async () => {
    await page.click('#check-drc');
    await page.waitForFunction(
      () => !document.querySelector('#check')?.hasAttribute('aria-busy') && /State #/.test(document.querySelector('#check')?.textContent ?? ''),
    );
    expect(await page.textContent('#check')).toMatch(/adds no DRC error|would add/);
  });

  it('filters by part from the keyboard', async () => {
    await page.locator('body').press('/');
    await page.keyboard.type('zzz-nothing');
    await page.waitForSelector('#list .placeholder');
    await page.fill('#filter', '');
    expect(await rows(page)).toBe(stuckRows);
  });

  it('restores the board as loaded, and the list is whole again', async () => {
    await page.locator('button.state[data-state="0"]').click();
    await status(page, 'Now at state #0');
    expect(await title(page)).toBe('Open connections (52)');
    expect(await page.getAttribute('button.state[data-state="0"]', 'aria-current')).toBe('true');
    // The restore is a history entry of its own, newest first, above the routes it went back over.
    expect(await page.locator('button.state .state-label').allTextContents()).toEqual(['Restore #0', 'Route all open', 'Route D0', 'Board as loaded']);
    // Every state stays restorable: back to the full route.
    await page.locator('button.state[data-state="2"]').click();
    await status(page, 'Now at state #2');
    expect(await rows(page)).toBe(stuckRows);
  });

  it('saves to the --out file only', async () => {
    await page.click('#save');
    await status(page, 'Saved state #2');
    expect(existsSync(join(dir, 'out.kicad_pcb'))).toBe(true);
  });

  it('follows the system dark setting', async () => {
    const dark = await (await chrome.context({ dark: true })).newPage();
    await dark.goto(host.url);
    await dark.waitForSelector('button.conn');
    const bg = await dark.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(14, 17, 22)');
    await dark.locator('button.conn').first().click();
    await dark.waitForSelector('#spot .spot-img');
    await dark.screenshot({ path: join(ARTIFACTS, '03-dark.png') });
    await dark.close();
    expect(errors).toEqual([]);
  });
});

describe('the panel in Chromium, on a board with a differential pair', () => {
  const usb = benchBoards().find((b) => b.name === 'usb_rs232c_usb_rs232c_rev_a')!;
  let host: PanelHost;
  let chrome: Chrome;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    ({ host, chrome, page } = await openPanel(usb.bare, [], errors));
  });

  afterAll(async () => {
    await chrome?.close();
    await host?.stop();
  });

  it("groups the pair's open connections and routes both nets with one button", async () => {
    // KiCad's naming rule makes four pairs here: /USB_D±, and /C1±, /C2±, /VS± of the RS-232 charge pump.
    const labels = await page.locator('section.net-group.pair').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(labels.sort()).toEqual(['pair /C1- and /C1+', 'pair /C2- and /C2+', 'pair /USB_D- and /USB_D+', 'pair /VS- and /VS+']);
    const pair = page.locator('section.net-group.pair[aria-label="pair /USB_D- and /USB_D+"]');
    expect(await pair.locator('button.conn').count()).toBe(2);
    expect(await pair.locator('.tag').textContent()).toBe('pair');
    // Neither net stands alone beside the pair.
    expect(await page.locator('section.net-group:not(.pair) h3', { hasText: /^\/USB_D/ }).count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, '04-pair.png'), fullPage: true });
    const before = await rows(page);
    await pair.getByRole('button', { name: 'Route pair' }).click();
    const said = await status(page, 'Routed');
    expect(said).toContain('Routed 2 of 2');
    expect(said).toMatch(
      / \/USB_D\+ and \/USB_D- are routed as a coupled pair over \d+ % of their length at the 0\.25 mm pair gap \(lengths [\d.]+ and [\d.]+ mm\); its pads lie .+ and the tracks fan out to them over [\d.]+ mm of the longer net\.$/,
    );
    expect(await pair.count()).toBe(0);
    expect(await rows(page)).toBe(before - 2);
    expect(errors).toEqual([]);
  });
});
