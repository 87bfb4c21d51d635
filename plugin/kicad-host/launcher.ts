// The launcher KiCad runs on a click: it finds the board KiCad has open, hands the action to the host
// for that KiCad and board (starting the host if none answers), waits for its one-line answer and
// returns it. It keeps no state; all the work and everything worth keeping lives in the host. Also where
// hosts live: a private per-user folder with one socket and one log per KiCad instance and board.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { KicadApiError, KicadBusyError, KicadClient, KicadConnectionError, KicadIpcError, KicadVersionError, resolveSocketPath } from '../../ipc/index.ts';
import { hostPorts, runAction, type ActionName, type ActionResult } from './actions.ts';
import { BoardSync } from './board-sync.ts';
import { answers, type HostRequest } from './host.ts';
import { ensureRuntimeDir, hostPaths, RuntimeDirError, runtimeDir, type HostPaths } from './host-channel.ts';

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
  const kicadSocket = resolveSocketPath({
    env: opts.env,
    platform: process.platform,
    tmpdir: (process.platform === 'win32' ? opts.env.TEMP : opts.env.TMPDIR) || tmpdir(),
  });
  const token = opts.env.KICAD_API_TOKEN ?? '';
  let boardPath: string;
  let boardFilename: string;
  let client: KicadClient;
  try {
    client = await KicadClient.connect({ socket: kicadSocket, token, clientName: 'tracemaker-launcher', busyTimeoutMs: 2_000, timeoutMs: 5_000 });
  } catch (err) {
    if (err instanceof KicadBusyError)
      return result('busy', 'KiCad is busy: close the open dialog or finish the current tool, then try again. Nothing was written.');
    if (err instanceof KicadConnectionError) return result('no_kicad', `Cannot reach KiCad: ${err.message}.`);
    return result('no_kicad', `Cannot reach KiCad's API at ${kicadSocket} (${(err as Error).message}). Is Preferences → Plugins → "Enable KiCad API" on?`);
  }
  try {
    const doc = await client.board();
    boardFilename = doc.boardFilename;
    boardPath = join(doc.projectPath, doc.boardFilename);
    if (opts.inProcess) {
      const sync = new BoardSync((design, files) => hostPorts(design, files, (l) => process.stderr.write(`${l}\n`)));
      return await runAction(
        { client: async () => client, sync, log: (l) => process.stderr.write(`${l}\n`) },
        { action: opts.action, ...(opts.nets ? { nets: opts.nets } : {}) },
      );
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
    if (err instanceof RuntimeDirError || (err as NodeJS.ErrnoException).code !== undefined)
      return result('failed', `No place for the TraceMaker host: ${(err as Error).message}`);
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
function startHost(
  paths: { socket: string; log: string },
  kicadSocket: string,
  boardFilename: string,
  idleMs: number | undefined,
  env: NodeJS.ProcessEnv,
): void {
  const log = openSync(paths.log, 'a', 0o600);
  const args = [
    ...process.execArgv,
    process.argv[1],
    'kicad',
    'host',
    '--socket',
    paths.socket,
    '--kicad-socket',
    kicadSocket,
    '--board',
    boardFilename,
    '--log',
    paths.log,
  ];
  if (idleMs !== undefined) args.push('--idle-seconds', String(Math.round(idleMs / 1000)));
  // windowsHide: no console window for the host; cwd off any drive or folder the user may remove.
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', log, log],
    env,
    cwd: process.platform === 'win32' ? homedir() : '/',
    windowsHide: true,
  });
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
