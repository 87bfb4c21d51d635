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
import { answers, type ProgressLine } from './host.ts';
import type { HostRequest } from './host-request.ts';
import { message, sentence } from './outcomes.ts';
import { ensureRuntimeDir, hostPaths, RuntimeDirError, runtimeDir, type HostPaths } from './host-channel.ts';

export interface LaunchOptions {
  /** A toolbar action, or "cancel": stop the route the host for this KiCad and board runs. */
  action: ActionName | 'cancel';
  /** Told each progress line of a route (the launcher then asks the host for them). */
  onProgress?: (p: ProgressLine['progress']) => void;
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
    if (err instanceof KicadBusyError) return result('busy', BUSY);
    // A connection error says what to do itself; anything else gets the usual cause named.
    if (err instanceof KicadConnectionError)
      return result('no_kicad', message("TraceMaker cannot reach KiCad's API: nothing was written", sentence(err.message)));
    return result(
      'no_kicad',
      message(
        "TraceMaker cannot reach KiCad's API: nothing was written",
        sentence(`${(err as Error).message} (${kicadSocket})`),
        'Check that Preferences ▸ Plugins ▸ "Enable KiCad API" is on, then press the button again.',
      ),
    );
  }
  try {
    const doc = await client.board();
    boardFilename = doc.boardFilename;
    boardPath = join(doc.projectPath, doc.boardFilename);
    if (opts.inProcess && opts.action !== 'cancel') {
      const sync = new BoardSync((design, files) => hostPorts(design, files, (l) => process.stderr.write(`${l}\n`)));
      return await runAction(
        { client: async () => client, sync, log: (l) => process.stderr.write(`${l}\n`) },
        { action: opts.action, ...(opts.nets ? { nets: opts.nets } : {}) },
      );
    }
  } catch (err) {
    if (err instanceof KicadBusyError || (err instanceof KicadApiError && err.code === 'AS_BUSY')) return result('busy', BUSY);
    if (err instanceof KicadVersionError) return result('kicad_too_old', message('TraceMaker needs a newer KiCad', sentence(err.message)));
    if (err instanceof KicadIpcError) return result('no_board', message('KiCad has no board open for TraceMaker', sentence(err.message)));
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
  const req: HostRequest = { action: opts.action, token, ...(opts.nets ? { nets: opts.nets } : {}), ...(opts.onProgress ? { progress: true } : {}) };
  if (opts.action === 'cancel' && !(await answers(paths.socket))) {
    return { ok: true, code: 'nothing_running', message: 'No route is running: nothing to cancel.', timing: {} };
  }
  if (!(await answers(paths.socket))) {
    startHost(paths, kicadSocket, boardFilename, opts.hostIdleMs, opts.env);
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await answers(paths.socket))) {
      if (Date.now() > deadline)
        return result(
          'failed',
          message('TraceMaker did not start: nothing was written', `Its host did not answer within ${START_TIMEOUT_MS / 1000} s; its log is ${paths.log}.`),
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const answer = await ask(paths.socket, req, ANSWER_TIMEOUT_MS, opts.onProgress);
  return { ...answer, details: { ...answer.details, log: paths.log } };
}

const BUSY = message('KiCad is busy: nothing was written', 'Close the open dialog or finish the current tool (press Esc), then press the button again.');

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

/** Sends one request line and reads the host's answer line, passing progress lines before it to `onProgress`. */
export function ask(
  socket: string,
  req: HostRequest,
  timeoutMs = ANSWER_TIMEOUT_MS,
  onProgress?: (p: ProgressLine['progress']) => void,
): Promise<ActionResult> {
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
    const timer = setTimeout(
      () => finish(result('failed', message('TraceMaker did not answer', `No answer from its host within ${timeoutMs / 1000} s.`))),
      timeoutMs,
    );
    s.setEncoding('utf8');
    s.on('connect', () => s.write(JSON.stringify(req) + '\n'));
    s.on('data', (d: string) => {
      text += d;
      for (let nl = text.indexOf('\n'); nl >= 0 && !settled; nl = text.indexOf('\n')) {
        const line = text.slice(0, nl);
        text = text.slice(nl + 1);
        const progress = progressOf(line);
        if (progress) onProgress?.(progress);
        else finish(parseAnswer(line));
      }
    });
    s.on('error', (err) => finish(result('failed', message('TraceMaker lost its host', `${err.message}.`))));
    s.on('close', () => finish(text ? parseAnswer(text) : result('failed', message('TraceMaker lost its host', 'It closed without answering.'))));
  });
}

function progressOf(line: string): ProgressLine['progress'] | null {
  try {
    const v = JSON.parse(line) as Partial<ProgressLine>;
    const p = v.progress;
    if (p && [p.made, p.connections, p.elapsed_ms].every((n) => typeof n === 'number')) return p;
  } catch {
    // Not progress: the answer line is judged by parseAnswer.
  }
  return null;
}

function parseAnswer(line: string): ActionResult {
  try {
    const v = JSON.parse(line) as ActionResult;
    if (typeof v.ok === 'boolean' && typeof v.code === 'string' && typeof v.message === 'string') return v;
  } catch {
    // Fall through to the error below.
  }
  return result('failed', message('TraceMaker failed', 'Its host sent an answer that is not a result.'));
}
