// Where KiCad's API server listens: KICAD_API_SOCKET when KiCad launched us, otherwise the per-OS default,
// and the `api-<pid>.sock` files a second KiCad process (or one started beside a stale api.sock) uses.
import { readdirSync } from 'node:fs';
import { join, win32 } from 'node:path';

export interface SocketEnv {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** The OS temp dir as KiCad's toolkit sees it (TMPDIR on Unix, TEMP on Windows). */
  tmpdir: string;
}

const PIPE_PREFIX = '\\\\.\\pipe\\';

/** Turns an NNG URL or a bare path into what `net.connect({path})` needs on this platform. */
export function socketPathFromUrl(url: string, platform: NodeJS.Platform): string {
  const path = url.startsWith('ipc://') ? url.slice('ipc://'.length) : url;
  // NNG maps ipc://X on Windows to the named pipe \\.\pipe\X.
  if (platform === 'win32' && !path.startsWith(PIPE_PREFIX)) return PIPE_PREFIX + path;
  return path;
}

/** The folder KiCad puts api.sock in when nothing tells it otherwise. */
export function defaultSocketDir({ platform, tmpdir }: Pick<SocketEnv, 'platform' | 'tmpdir'>): string {
  if (platform === 'darwin') return '/tmp/kicad';
  if (platform === 'win32') return win32.join(tmpdir, 'kicad');
  return join(tmpdir || '/tmp', 'kicad');
}

/** The socket to use: KICAD_API_SOCKET if set (KiCad sets it for the plugins it launches), else the default. */
export function resolveSocketPath(se: SocketEnv): string {
  const fromEnv = se.env.KICAD_API_SOCKET;
  if (fromEnv) return socketPathFromUrl(fromEnv, se.platform);
  const dir = defaultSocketDir(se);
  return socketPathFromUrl(se.platform === 'win32' ? win32.join(dir, 'api.sock') : join(dir, 'api.sock'), se.platform);
}

/**
 * Every socket a standalone client might reach on Unix, best first: api.sock, then api-<pid>.sock for pids
 * that are still alive (files of dead processes are left behind by a killed KiCad and refuse connections).
 */
export function socketCandidates(dir: string, isAlive: (pid: number) => boolean = processAlive): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  if (names.includes('api.sock')) out.push(join(dir, 'api.sock'));
  const byPid = names
    .map((n) => /^api-(\d+)\.sock$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ name: m[0], pid: Number(m[1]) }))
    .filter((c) => isAlive(c.pid))
    .sort((a, b) => a.pid - b.pid);
  for (const c of byPid) out.push(join(dir, c.name));
  return out;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
