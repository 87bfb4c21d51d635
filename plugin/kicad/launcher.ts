// The launcher KiCad runs on a click: it finds the board KiCad has open, hands the action to the host
// for that KiCad and board (starting the host if none answers), waits for its one-line answer and
// returns it. It keeps no state; all the work and everything worth keeping lives in the host. Also where
// hosts live: a private per-user folder with one socket and one log per KiCad instance and board.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { KicadApiError, KicadBusyError, KicadClient, KicadConnectionError, KicadIpcError, KicadVersionError, resolveSocketPath } from '../../ipc/index.ts';
import { hostPorts, runAction, type ActionName, type ActionResult } from './actions.ts';
import { BoardSync } from './board-sync.ts';
import { answers, type HostRequest } from './host.ts';

export interface LaunchOptions {
  action: ActionName;
  nets?: string[];
  env: NodeJS.ProcessEnv;
  /** Run the action in this process instead of through a host (for debugging). */
  inProcess?: boolean;
  /** The host's idle timeout, ms (only used when this launch starts it). */
  hostIdleMs?: number;
}

const START_TIMEOUT_MS = 20_000;
const ANSWER_TIMEOUT_MS = 15 * 60_000;

function result(code: string, message: string): ActionResult {
  return { ok: false, code, message, timing: {} };
}

/** Runs one action the way a toolbar click does; every expected failure comes back as a result. */
export async function launch(opts: LaunchOptions): Promise<ActionResult> {
  const kicadSocket = resolveSocketPath({ env: opts.env, platform: process.platform, tmpdir: opts.env.TMPDIR || '/tmp' });
  const token = opts.env.KICAD_API_TOKEN ?? '';
  let boardPath: string;
  let boardFilename: string;
  let client: KicadClient;
  try {
    client = await KicadClient.connect({ socket: kicadSocket, token, clientName: 'tracemaker-launcher', busyTimeoutMs: 2_000, timeoutMs: 5_000 });
  } catch (err) {
    if (err instanceof KicadBusyError) return result('busy', 'KiCad is busy: close the open dialog or finish the current tool, then try again. Nothing was written.');
    if (err instanceof KicadConnectionError) return result('no_kicad', `Cannot reach KiCad: ${err.message}.`);
    return result('no_kicad', `Cannot reach KiCad's API at ${kicadSocket} (${(err as Error).message}). Is Preferences → Plugins → "Enable KiCad API" on?`);
  }
  try {
    const doc = await client.board();
    boardFilename = doc.boardFilename;
    boardPath = join(doc.projectPath, doc.boardFilename);
    if (opts.inProcess) {
      const sync = new BoardSync((design, files) => hostPorts(design, files, (l) => process.stderr.write(`${l}\n`)));
      return await runAction({ client: async () => client, sync, log: (l) => process.stderr.write(`${l}\n`) }, { action: opts.action, ...(opts.nets ? { nets: opts.nets } : {}) });
    }
  } catch (err) {
    if (err instanceof KicadBusyError || (err instanceof KicadApiError && err.code === 'AS_BUSY')) {
      return result('busy', 'KiCad is busy: close the open dialog or finish the current tool, then try again. Nothing was written.');
    }
    if (err instanceof KicadVersionError) return result('kicad_too_old', `${err.message}.`);
    if (err instanceof KicadIpcError) return result('no_board', `KiCad has no board open for the plugin: ${err.message}`);
    throw err;
  } finally {
    client.close();
  }

  let paths: HostPaths;
  try {
    paths = hostPaths(ensureRuntimeDir(runtimeDir(opts.env)), kicadSocket, boardPath);
  } catch (err) {
    if (err instanceof RuntimeDirError || (err as NodeJS.ErrnoException).code !== undefined) return result('failed', `No place for the TraceMaker host: ${(err as Error).message}`);
    throw err;
  }
  const req: HostRequest = { action: opts.action, token, ...(opts.nets ? { nets: opts.nets } : {}) };
  if (!(await answers(paths.socket))) {
    startHost(paths, kicadSocket, boardFilename, opts.hostIdleMs, opts.env);
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await answers(paths.socket))) {
      if (Date.now() > deadline) return result('failed', `The TraceMaker host did not start within ${START_TIMEOUT_MS / 1000} s; see ${paths.log}.`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return ask(paths.socket, req);
}

// The host outlives this launcher: detached, in its own process group, output into its log.
function startHost(paths: { socket: string; log: string }, kicadSocket: string, boardFilename: string, idleMs: number | undefined, env: NodeJS.ProcessEnv): void {
  const log = openSync(paths.log, 'a', 0o600);
  const args = [...process.execArgv, process.argv[1], 'kicad', 'host', '--socket', paths.socket, '--kicad-socket', kicadSocket, '--board', boardFilename, '--log', paths.log];
  if (idleMs !== undefined) args.push('--idle-seconds', String(Math.round(idleMs / 1000)));
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env, cwd: '/' });
  child.unref();
  closeSync(log);
}

/** Sends one request line and reads the host's one answer line. */
export function ask(socket: string, req: HostRequest, timeoutMs = ANSWER_TIMEOUT_MS): Promise<ActionResult> {
  return new Promise((resolve) => {
    const s = connect({ path: socket });
    let text = '';
    let settled = false;
    const finish = (r: ActionResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      s.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => finish(result('failed', `No answer from the TraceMaker host within ${timeoutMs / 1000} s.`)), timeoutMs);
    s.setEncoding('utf8');
    s.on('connect', () => s.write(JSON.stringify(req) + '\n'));
    s.on('data', (d: string) => {
      text += d;
      const nl = text.indexOf('\n');
      if (nl >= 0) finish(parseAnswer(text.slice(0, nl)));
    });
    s.on('error', (err) => finish(result('failed', `Lost the TraceMaker host: ${err.message}`)));
    s.on('close', () => finish(text ? parseAnswer(text) : result('failed', 'The TraceMaker host closed without answering.')));
  });
}

function parseAnswer(line: string): ActionResult {
  try {
    const v = JSON.parse(line) as ActionResult;
    if (typeof v.ok === 'boolean' && typeof v.code === 'string' && typeof v.message === 'string') return v;
  } catch {
    // Fall through to the error below.
  }
  return result('failed', 'The TraceMaker host sent an answer that is not a result.');
}

// Where the launcher finds the host: a per-user folder (mode 0700, owned by this user, not a symlink)
// holding one socket (mode 0600) and one log per KiCad instance and board. The name is a digest of
// KiCad's API socket and the board path, so two KiCads or two boards never share a host.

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
