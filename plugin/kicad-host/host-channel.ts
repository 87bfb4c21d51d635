// Where the launcher finds the host: a per-user folder holding one channel and one log per KiCad instance
// and board. On Linux and macOS the channel is a Unix socket (mode 0600) in a folder of mode 0700 owned by
// the user; on Windows it is a named pipe, whose default security lets only its creator's account (and
// administrators) open it for writing, so no other user can send the host a request. The name is a digest
// of KiCad's API socket and the board path, so two KiCads or two boards never share a host.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, win32 } from 'node:path';

export class RuntimeDirError extends Error {
  override name = 'RuntimeDirError';
}

const PIPE_PREFIX = '\\\\.\\pipe\\';

/**
 * The per-user folder: TRACEMAKER_RUNTIME_DIR; on Windows %LOCALAPPDATA%\tracemaker; else
 * $XDG_RUNTIME_DIR/tracemaker, else <tmp>/tracemaker-<uid>. The Python launcher computes the same.
 */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TRACEMAKER_RUNTIME_DIR) return env.TRACEMAKER_RUNTIME_DIR;
  if (platform === 'win32') {
    return win32.join(env.LOCALAPPDATA || win32.join(env.USERPROFILE || tmpdir(), 'AppData', 'Local'), 'tracemaker');
  }
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'tracemaker');
  return join(env.TMPDIR || tmpdir(), `tracemaker-${userInfo().uid}`);
}

/** Creates the folder if needed and refuses one another user could write into or swap. */
export function ensureRuntimeDir(dir: string, platform: NodeJS.Platform = process.platform): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new RuntimeDirError(`${dir} is not a plain folder`);
  // Windows has no owner uid or mode bits here; %LOCALAPPDATA% is already the user's alone.
  if (platform === 'win32') return dir;
  if (process.getuid && st.uid !== process.getuid()) throw new RuntimeDirError(`${dir} belongs to another user`);
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return dir;
}

export interface HostPaths {
  key: string;
  /** The host's channel: a Unix socket path, or a named pipe (\\.\pipe\…) on Windows. */
  socket: string;
  log: string;
}

/** The host's channel and log for one KiCad API socket and board file. */
export function hostPaths(dir: string, kicadSocket: string, boardPath: string, platform: NodeJS.Platform = process.platform): HostPaths {
  const key = createHash('sha1').update(`${kicadSocket}\0${boardPath}`).digest('hex').slice(0, 16);
  if (platform === 'win32') {
    // Pipes share one machine-wide namespace: the user's name (digested) keeps two users' hosts apart.
    const user = createHash('sha1').update(userInfo().username.toLowerCase()).digest('hex').slice(0, 12);
    return { key, socket: `${PIPE_PREFIX}tracemaker-${user}-${key}`, log: win32.join(dir, `host-${key}.log`) };
  }
  const socket = join(dir, `host-${key}.sock`);
  // A Unix socket path longer than the kernel's limit fails with a confusing error; say it plainly.
  if (Buffer.byteLength(socket) > 100)
    throw new RuntimeDirError(`the host socket path is too long (${socket}); set TRACEMAKER_RUNTIME_DIR to a shorter folder`);
  return { key, socket, log: join(dir, `host-${key}.log`) };
}

export function isPipe(channel: string): boolean {
  return channel.startsWith(PIPE_PREFIX);
}

/** Listens on the channel: a stale Unix socket file is removed first and the new one made private. */
export async function listenOn(server: Server, channel: string): Promise<void> {
  if (!isPipe(channel) && existsSync(channel)) unlinkSync(channel);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(channel, () => resolve());
  });
  if (!isPipe(channel)) chmodSync(channel, 0o600);
}

/** Removes what listening left behind (a pipe goes with its server). */
export function removeChannel(channel: string): void {
  if (isPipe(channel)) return;
  try {
    unlinkSync(channel);
  } catch {
    // Already gone.
  }
}
