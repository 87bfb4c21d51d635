// Where the launcher finds the host: a per-user folder (mode 0700, owned by this user, not a symlink)
// holding one socket (mode 0600) and one log per KiCad instance and board. The name is a digest of
// KiCad's API socket and the board path, so two KiCads or two boards never share a host.
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export class RuntimeDirError extends Error {
  override name = 'RuntimeDirError';
}

/** The per-user folder: TRACEMAKER_RUNTIME_DIR, else $XDG_RUNTIME_DIR/tracemaker, else <tmp>/tracemaker-<uid>. */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TRACEMAKER_RUNTIME_DIR) return env.TRACEMAKER_RUNTIME_DIR;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'tracemaker');
  return join(env.TMPDIR || tmpdir(), `tracemaker-${userInfo().uid}`);
}

/** Creates the folder if needed and refuses one another user could write into or swap. */
export function ensureRuntimeDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new RuntimeDirError(`${dir} is not a plain folder`);
  if (process.getuid && st.uid !== process.getuid()) throw new RuntimeDirError(`${dir} belongs to another user`);
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return dir;
}

export interface HostPaths {
  key: string;
  socket: string;
  log: string;
}

/** The host's socket and log for one KiCad API socket and board file. */
export function hostPaths(dir: string, kicadSocket: string, boardPath: string): HostPaths {
  const key = createHash('sha1').update(`${kicadSocket}\0${boardPath}`).digest('hex').slice(0, 16);
  const socket = join(dir, `host-${key}.sock`);
  // A Unix socket path longer than the kernel's limit fails with a confusing error; say it plainly.
  if (Buffer.byteLength(socket) > 100) throw new RuntimeDirError(`the host socket path is too long (${socket}); set TRACEMAKER_RUNTIME_DIR to a shorter folder`);
  return { key, socket, log: join(dir, `host-${key}.log`) };
}
