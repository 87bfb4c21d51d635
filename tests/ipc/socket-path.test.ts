// Finding KiCad's API socket: KICAD_API_SOCKET (with its ipc:// scheme), per-OS defaults, Windows named
// pipes, and the api-<pid>.sock files of second instances.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSocketDir, resolveSocketPath, socketCandidates, socketPathFromUrl } from '../../ipc/socket-path.ts';

describe('socket path', () => {
  it('strips ipc:// from KICAD_API_SOCKET', () => {
    expect(resolveSocketPath({ env: { KICAD_API_SOCKET: 'ipc:///tmp/kicad/api-15351.sock' }, platform: 'linux', tmpdir: '/x' })).toBe(
      '/tmp/kicad/api-15351.sock',
    );
  });

  it('falls back to <TMPDIR>/kicad/api.sock on Linux and /tmp/kicad on macOS', () => {
    expect(resolveSocketPath({ env: {}, platform: 'linux', tmpdir: '/run/user/1000' })).toBe('/run/user/1000/kicad/api.sock');
    expect(resolveSocketPath({ env: {}, platform: 'darwin', tmpdir: '/var/folders/xy' })).toBe('/tmp/kicad/api.sock');
    expect(defaultSocketDir({ platform: 'linux', tmpdir: '' })).toBe('/tmp/kicad');
  });

  it('maps Windows paths to the named pipe NNG uses', () => {
    const url = 'ipc://C:\\Users\\ada\\AppData\\Local\\Temp\\kicad\\api.sock';
    expect(socketPathFromUrl(url, 'win32')).toBe('\\\\.\\pipe\\C:\\Users\\ada\\AppData\\Local\\Temp\\kicad\\api.sock');
    expect(resolveSocketPath({ env: {}, platform: 'win32', tmpdir: 'C:\\Temp' })).toBe('\\\\.\\pipe\\C:\\Temp\\kicad\\api.sock');
    expect(socketPathFromUrl('\\\\.\\pipe\\already', 'win32')).toBe('\\\\.\\pipe\\already');
  });

  it('lists api.sock first, then api-<pid>.sock of live processes only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kicad-sock-'));
    try {
      for (const name of ['api-300.sock', 'api.sock', 'api-20.sock', 'api-999.sock', 'api.lock', 'api-x.sock']) {
        writeFileSync(join(dir, name), '');
      }
      const alive = new Set([20, 300]);
      expect(socketCandidates(dir, (pid) => alive.has(pid))).toEqual([join(dir, 'api.sock'), join(dir, 'api-20.sock'), join(dir, 'api-300.sock')]);
      expect(socketCandidates(join(dir, 'missing'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
