// The panel host's front door, in-process on a bench board: it listens on 127.0.0.1 only, every
// request without the token is refused, a foreign Origin or Host is refused, bodies are
// validated (bad JSON → 400 with a message, unknown keys named, wrong type 415, too big 413),
// and a read-only panel refuses changes. Requests go through node:http so headers are ours.
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPanelServer, type PanelServer } from '../../plugin/panel/server.ts';
import { openSession } from '../../plugin/session-host.ts';
import { benchBoards } from '../support/bench.ts';
import { ROOT } from './harness.ts';

const board = benchBoards().find((b) => b.name === 'Blink-Eras_AVR_ISP_Pogo')!;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(url: URL, opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: url.port, method: opts.method ?? 'GET', path: opts.path ?? url.pathname, headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const json = (url: URL, action: string, body: string, headers: Record<string, string> = {}) =>
  send(url, { method: 'POST', path: `${url.pathname}api/${action}`, headers: { 'Content-Type': 'application/json', ...headers }, body });

describe('panel host security', () => {
  let server: PanelServer;
  let watch: PanelServer;
  let url: URL;

  beforeAll(async () => {
    const open = () => openSession({ board: board.bare, out: '', diagnostics: () => undefined }).session;
    const one = open();
    const two = open();
    server = await startPanelServer({ session: () => one, uiDir: join(ROOT, 'dist', 'ui') });
    watch = await startPanelServer({ session: () => two, readOnly: true, uiDir: join(ROOT, 'dist', 'ui') });
    url = new URL(server.url);
  });

  afterAll(async () => {
    await server?.close();
    await watch?.close();
  });

  it('listens on 127.0.0.1 with a long random token in the path', () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toMatch(/^\/[A-Za-z0-9_-]{32}\/$/);
    expect(new URL(watch.url).pathname).not.toBe(url.pathname);
  });

  it('serves the page and the API with the token, with a strict CSP', async () => {
    const page = await send(url);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script src="app.js">');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    const snap = await send(url, { path: `${url.pathname}api/snapshot` });
    expect(snap.status).toBe(200);
    expect(JSON.parse(snap.body).board.board).toBe('Blink-Eras_AVR_ISP_Pogo.kicad_pcb');
  });

  it('refuses every request without the right token', async () => {
    for (const path of [
      '/',
      '/api/snapshot',
      '/app.js',
      `/${'x'.repeat(32)}/api/snapshot`,
      `${url.pathname.slice(0, -2)}/api/snapshot`,
      `/api/snapshot?token=${url.pathname.slice(1, -1)}`,
    ]) {
      const r = await send(url, { path });
      expect([401, 403], path).toContain(r.status);
      expect(r.body).not.toContain('board');
    }
    expect((await send(url, { method: 'POST', path: '/api/route', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(403);
  });

  it('refuses a foreign Origin, a cross-site fetch and a rebinding Host', async () => {
    expect((await json(url, 'route', '{}', { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await json(url, 'route', '{}', { Origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await json(url, 'check', '{}', { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await send(url, { headers: { Host: `evil.example:${url.port}` } })).status).toBe(403);
    expect((await json(url, 'check', '{}', { Origin: url.origin })).status).toBe(200);
  });

  it('answers malformed bodies with 400 and a message naming the problem', async () => {
    const bad = await json(url, 'route', '{"nets": [');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatchObject({ code: 'bad_argument', message: expect.stringContaining('not valid JSON') });
    const key = await json(url, 'route', '{"nets": ["GND"], "path": "/etc/passwd"}');
    expect(key.status).toBe(400);
    expect(JSON.parse(key.body).error.message).toBe('route: unknown key "path"');
    const type = await json(url, 'restore', '{"state": "zero"}');
    expect(type.status).toBe(400);
    expect(JSON.parse(type.body).error.message).toContain('key "state"');
    const arr = await json(url, 'rip', '[]');
    expect(arr.status).toBe(400);
    expect((await send(url, { method: 'POST', path: `${url.pathname}api/check`, headers: { 'Content-Type': 'text/plain' }, body: '{}' })).status).toBe(415);
    expect((await json(url, 'check', JSON.stringify({ pad: 'x'.repeat(2 << 20) }))).status).toBe(413);
    expect((await json(url, 'no_such_action', '{}')).status).toBe(404);
    expect((await send(url, { method: 'DELETE' })).status).toBe(405);
  });

  it('turns session errors into HTTP errors with the session message', async () => {
    const r = await json(url, 'rip', '{"net": "no such net"}');
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body).error.code).toBe('unknown_name');
    const sel = await json(url, 'route_selection', '{}');
    expect(sel.status).toBe(409);
    expect(JSON.parse(sel.body).error.message).toContain('needs KiCad');
    const save = await json(url, 'save', '{}');
    expect(save.status).toBe(409);
  });

  it('a read-only panel looks but never changes', async () => {
    const w = new URL(watch.url);
    expect((await send(w, { path: `${w.pathname}api/snapshot` })).status).toBe(200);
    for (const [action, body] of [
      ['route', '{}'],
      ['rip', '{"net":"GND"}'],
      ['restore', '{"state":0}'],
      ['undo', '{}'],
      ['cancel', '{}'],
      ['save', '{}'],
    ]) {
      const r = await json(w, action, body);
      expect(r.status, action).toBeGreaterThanOrEqual(403);
      expect(r.status, action).toBeLessThan(500);
      expect(JSON.parse(r.body).error.code, action).toBe('not_allowed');
    }
    const snap = JSON.parse((await send(w, { path: `${w.pathname}api/snapshot` })).body);
    expect(snap.mode.read_only).toBe(true);
    expect(snap.history.states).toHaveLength(1);
  });
});
