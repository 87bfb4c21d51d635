// Live progress and Cancel through the panel host of `tracemaker panel` on a large bench board:
// the route runs on the host's route thread, so progress events stream while it runs and a
// cancel request reaches the router, which stops after its current search and keeps what is clean.
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchBoards } from '../support/bench.ts';
import { ARTIFACTS, startChrome, startPanelHost, type PanelHost } from './harness.ts';

const board = benchBoards().find((b) => b.name === 'kitspace_glasgow')!;

function post(url: URL, action: string, body: object): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: url.port, method: 'POST', path: `${url.pathname}api/${action}`, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Collects the host's events; `until` resolves when one matches. */
function events(url: URL) {
  const seen: { type: string; [k: string]: unknown }[] = [];
  const waiters: { test: (e: (typeof seen)[number]) => boolean; resolve: () => void }[] = [];
  let buffer = '';
  const req = request({ host: '127.0.0.1', port: url.port, path: `${url.pathname}api/events` }, (res) => {
    res.on('data', (c: Buffer) => {
      buffer += c.toString();
      let i: number;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        if (!data) continue;
        const e = JSON.parse(data.slice(6));
        seen.push(e);
        for (const w of [...waiters]) {
          if (!w.test(e)) continue;
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    });
  });
  req.end();
  return {
    seen,
    until: (test: (e: (typeof seen)[number]) => boolean) => new Promise<void>((resolve) => (seen.some(test) ? resolve() : waiters.push({ test, resolve }))),
    close: () => req.destroy(),
  };
}

describe('route progress and cancel', () => {
  let host: PanelHost;
  let url: URL;

  beforeAll(async () => {
    host = await startPanelHost(board.bare);
    url = new URL(host.url);
  });

  afterAll(async () => {
    await host?.stop();
  });

  it('streams progress while routing and stops soon after Cancel, keeping what it routed', async () => {
    const ev = events(url);
    const routing = post(url, 'route', {});
    // Progress counts connections made, of those the route asks for, as it goes.
    await ev.until((e) => e.type === 'progress' && (e.made as number) > 0);
    const progress = ev.seen.filter((e) => e.type === 'progress');
    expect(progress.every((e) => (e.made as number) <= (e.connections as number) && (e.connections as number) > 0)).toBe(true);
    expect(ev.seen.some((e) => e.type === 'busy' && e.busy === true && e.cancellable === true)).toBe(true);
    // A second change while one runs is refused, not queued.
    const again = await post(url, 'rip', { net: 'GND' });
    expect(again.status).toBe(409);
    expect((again.json.error as { message: string }).message).toMatch(/^busy: /);
    const cancel = await post(url, 'cancel', {});
    expect(cancel.json).toEqual({ cancelling: true });
    const r = await routing;
    expect(r.status).toBe(200);
    expect(r.json.routed as number).toBeGreaterThan(0);
    expect(r.json.open_total as number).toBeGreaterThan(0);
    await ev.until((e) => e.type === 'busy' && e.busy === false);
    await ev.until((e) => e.type === 'changed');
    ev.close();
  });

  it('shows the connections made so far in the panel while it routes, and Cancel there stops it', async () => {
    const chrome = await startChrome();
    try {
      const page = await (await chrome.context()).newPage();
      await page.goto(url.href);
      await page.click('#route-all');
      const text = page.locator('#progress-text');
      await text.filter({ hasText: /connections made/ }).waitFor({ timeout: 60_000 });
      expect(await text.textContent()).toMatch(/^Routing: \d+ of \d+ connections made · \d+ s$/);
      await page.screenshot({ path: join(ARTIFACTS, '05-progress.png') });
      await page.click('#cancel');
      await page.locator('#progress').waitFor({ state: 'hidden', timeout: 120_000 });
    } finally {
      await chrome.close();
    }
  });
});
