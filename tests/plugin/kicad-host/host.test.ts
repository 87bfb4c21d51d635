// The host's socket side without KiCad: per-user folder and socket modes, request checking, one host per
// socket, the launcher's ask(), and a launch with no KiCad to talk to.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Host } from '../../../plugin/kicad-host/host.ts';
import { MAX_NAME, MAX_ROUTE_NETS } from '../../../engine/session/limits.ts';
import { parseRequest } from '../../../plugin/kicad-host/host-request.ts';
import { ask, launch } from '../../../plugin/kicad-host/launcher.ts';
import { ensureRuntimeDir, hostPaths, runtimeDir, RuntimeDirError } from '../../../plugin/kicad-host/host-channel.ts';
import { kicadLike, startPeer } from '../../ipc/sp-peer.ts';

const tmp = mkdtempSync(join(tmpdir(), 'tmk-host-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('host', () => {
  it('keeps its socket in a private per-user folder, one name per KiCad and board', () => {
    expect(runtimeDir({ TRACEMAKER_RUNTIME_DIR: '/x' })).toBe('/x');
    expect(runtimeDir({ XDG_RUNTIME_DIR: '/run/user/7' })).toBe('/run/user/7/tracemaker');
    const dir = ensureRuntimeDir(join(tmp, 'rt'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const a = hostPaths(dir, '/tmp/kicad/api.sock', '/b/one.kicad_pcb');
    expect(a.socket).toMatch(/host-[0-9a-f]{16}\.sock$/);
    expect(hostPaths(dir, '/tmp/kicad/api-2.sock', '/b/one.kicad_pcb').socket).not.toBe(a.socket);
    expect(hostPaths(dir, '/tmp/kicad/api.sock', '/b/two.kicad_pcb').socket).not.toBe(a.socket);
    expect(() => hostPaths(join(tmp, 'x'.repeat(120)), 's', 'b')).toThrow(RuntimeDirError);
  });

  it('checks every request before running it', () => {
    expect(parseRequest('{"action":"route-selected","token":"t","nets":["A"]}')).toEqual({ action: 'route-selected', token: 't', nets: ['A'] });
    expect(parseRequest('nope')).toBe('the request is not JSON');
    expect(parseRequest('[]')).toBe('the request must be a JSON object');
    expect(parseRequest('{"action":"rm","token":""}')).toMatch(/"action" must be one of/);
    expect(parseRequest('{"action":"check","token":"","x":1}')).toBe('unknown key "x"');
    expect(parseRequest('{"action":"check"}')).toBe('"token" must be a string');
    expect(parseRequest('{"action":"check","token":"","nets":[""]}')).toMatch(/"nets"/);
    // The caps are the session's: at most MAX_ROUTE_NETS names of at most MAX_NAME characters.
    const names = (n: number, len = 3) =>
      JSON.stringify({ action: 'route-selected', token: 't', nets: Array.from({ length: n }, (_, i) => String(i).padStart(len, 'N')) });
    expect(parseRequest(names(MAX_ROUTE_NETS))).toMatchObject({ action: 'route-selected' });
    expect(parseRequest(names(MAX_ROUTE_NETS + 1))).toBe(`"nets" must be a list of at most ${MAX_ROUTE_NETS} net names, each 1 to ${MAX_NAME} characters`);
    expect(parseRequest(names(1, MAX_NAME + 1))).toMatch(/"nets" must be/);
    expect(parseRequest('{"action":"cancel","token":"t","progress":true}')).toEqual({ action: 'cancel', token: 't', progress: true });
    expect(parseRequest('{"action":"check","token":"t","progress":false}')).toEqual({ action: 'check', token: 't' });
    expect(parseRequest('{"action":"check","token":"t","progress":1}')).toBe('"progress" must be true or false');
  });

  it('serves on a 0600 socket, answers a bad request with an error, and is the only host on it', async () => {
    const dir = ensureRuntimeDir(join(tmp, 'rt2'));
    const paths = hostPaths(dir, join(tmp, 'no-kicad.sock'), 'b.kicad_pcb');
    const host = new Host({ socket: paths.socket, kicadSocket: join(tmp, 'no-kicad.sock'), boardFilename: 'b.kicad_pcb', log: paths.log, idleMs: 60_000 });
    expect(await host.start()).toBe(true);
    try {
      expect(statSync(paths.socket).mode & 0o777).toBe(0o600);
      const r = await ask(paths.socket, { action: 'bogus' as never, token: '' });
      expect(r).toMatchObject({ ok: false, code: 'failed' });
      expect(r.message).toMatch(/bad request: "action" must be one of/);
      const second = new Host({ socket: paths.socket, kicadSocket: 'x', boardFilename: 'b', log: paths.log, idleMs: 1000 });
      expect(await second.start()).toBe(false);
    } finally {
      await host.stop('test over');
    }
    await host.closed;
  });

  it('stops by itself when idle', async () => {
    const paths = hostPaths(ensureRuntimeDir(join(tmp, 'rt3')), 'k', 'b');
    const host = new Host({ socket: paths.socket, kicadSocket: join(tmp, 'rt3'), boardFilename: 'b', log: paths.log, idleMs: 50 });
    await host.start();
    await host.closed;
  });

  it('says plainly when KiCad cannot be reached', async () => {
    const r = await launch({
      action: 'route-selected',
      env: { KICAD_API_SOCKET: `ipc://${join(tmp, 'absent.sock')}`, TRACEMAKER_RUNTIME_DIR: join(tmp, 'rt4') },
    });
    expect(r.ok).toBe(false);
    expect(r.code).toBe('no_kicad');
    expect(r.message).toBe(
      "TraceMaker cannot reach KiCad's API: nothing was written\n" +
        `No KiCad API socket at ${join(tmp, 'absent.sock')}: KiCad's API server is off or KiCad is not running. ` +
        'In KiCad 9.0 or later, turn on Preferences → Plugins → "Enable KiCad API", then restart the PCB editor with the board open.',
    );
  });

  it('names the KiCad that is too old and what to do', async () => {
    const C = 'kiapi.common.commands.';
    const peer = await startPeer(
      kicadLike({
        [`${C}GetVersion`]: () => ({ type: `${C}GetVersionResponse`, value: { version: { major: 8, patch: 6, full_version: '8.0.6' } } }),
      }),
    );
    try {
      const r = await launch({ action: 'route-selected', env: { KICAD_API_SOCKET: `ipc://${peer.path}`, TRACEMAKER_RUNTIME_DIR: join(tmp, 'rt5') } });
      expect(r).toMatchObject({ ok: false, code: 'kicad_too_old' });
      expect(r.message).toBe(
        'TraceMaker needs a newer KiCad\nKiCad 8.0.6 is too old: TraceMaker needs KiCad 9.0 or later (its IPC API and plugins came with 9.0). Update KiCad, then try again.',
      );
      expect(peer.received.some((q) => q.command === `${C}GetOpenDocuments`)).toBe(false);
    } finally {
      await peer.close();
    }
  });
});
