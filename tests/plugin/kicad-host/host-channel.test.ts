// The host's per-user channel per platform: a private Unix socket on Linux and macOS, a per-user
// named pipe on Windows, with the runtime folder where each OS keeps per-user state.
import { describe, expect, it } from 'vitest';
import { hostPaths, isPipe, runtimeDir } from '../../../plugin/kicad-host/host-channel.ts';

describe('the host channel on Windows', () => {
  it("keeps its folder in %LOCALAPPDATA%, or the profile's AppData\\Local without it", () => {
    expect(runtimeDir({ LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' }, 'win32')).toBe('C:\\Users\\ana\\AppData\\Local\\tracemaker');
    expect(runtimeDir({ USERPROFILE: 'C:\\Users\\ana' }, 'win32')).toBe('C:\\Users\\ana\\AppData\\Local\\tracemaker');
    expect(runtimeDir({ TRACEMAKER_RUNTIME_DIR: 'D:\\rt', LOCALAPPDATA: 'C:\\x' }, 'win32')).toBe('D:\\rt');
    // XDG is a Unix convention; Windows does not take it.
    expect(runtimeDir({ XDG_RUNTIME_DIR: '/run/user/1', LOCALAPPDATA: 'C:\\L' }, 'win32')).toBe('C:\\L\\tracemaker');
  });

  it('listens on a named pipe per KiCad and board, its log in the folder', () => {
    const kicad = '\\\\.\\pipe\\C:\\Users\\ana\\AppData\\Local\\Temp\\kicad\\api.sock';
    const a = hostPaths('C:\\L\\tracemaker', kicad, 'C:\\b\\one.kicad_pcb', 'win32');
    expect(a.socket).toMatch(/^\\\\\.\\pipe\\tracemaker-[0-9a-f]{12}-[0-9a-f]{16}$/);
    expect(isPipe(a.socket)).toBe(true);
    expect(a.log).toBe(`C:\\L\\tracemaker\\host-${a.key}.log`);
    expect(hostPaths('C:\\L\\tracemaker', kicad, 'C:\\b\\two.kicad_pcb', 'win32').socket).not.toBe(a.socket);
    // A long folder is no problem for a pipe (a Unix socket path has a length limit).
    expect(() => hostPaths('C:\\' + 'x'.repeat(200), kicad, 'b', 'win32')).not.toThrow();
  });

  it('uses a Unix socket file elsewhere', () => {
    const p = hostPaths('/run/user/7/tracemaker', '/tmp/kicad/api.sock', '/b/one.kicad_pcb', 'linux');
    expect(p.socket).toBe(`/run/user/7/tracemaker/host-${p.key}.sock`);
    expect(isPipe(p.socket)).toBe(false);
  });
});
