// Starts a real KiCad 9 pcbnew under Xvfb on a copy of a board, with a throwaway config (API server on,
// no first-run dialogs) and a private temp dir so its API socket is ours alone; stops it all by pid.
// Shared by every live test: `const kicad = await startKicad({ board })` … `await kicad.stop()`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { KicadClient } from '../../ipc/index.ts';

export const BENCH_BOARDS = join(import.meta.dirname, '..', '..', '..', 'shared', 'bench', 'boards');

/** A bench board's path by tier and name, e.g. benchBoard('A', 'Blink-Eras_AVR_ISP_Pogo'). */
export function benchBoard(tier: string, name: string): string {
  return join(BENCH_BOARDS, tier, name, `${name}.kicad_pcb`);
}

const REQUIRED = ['pcbnew', 'Xvfb', 'xdotool'];

/**
 * Whether live tests run here. Missing KiCad/Xvfb/xdotool is an error (CI must not pass by skipping)
 * unless TRACEMAKER_SKIP_LIVE=1 says to skip on purpose.
 */
export function liveEnabled(): boolean {
  if (process.env.TRACEMAKER_SKIP_LIVE === '1') return false;
  const missing = REQUIRED.filter((cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0);
  if (missing.length > 0) {
    throw new Error(
      `live tests need ${missing.join(', ')} (run scripts/install-system.sh), or set TRACEMAKER_SKIP_LIVE=1 to skip them`,
    );
  }
  return true;
}

export interface KicadInstance {
  /** The API socket of this pcbnew (no other process uses its temp dir). */
  socketPath: string;
  pid: number;
  /** The copy of the board pcbnew has open. */
  boardPath: string;
  /** The throwaway HOME pcbnew runs with (XDG folders under it). */
  home: string;
  /** pcbnew's environment (the one KiCad hands a plugin, before its KICAD_API_* additions). */
  env: NodeJS.ProcessEnv;
  display: string;
  /** The X window id of the "… — PCB Editor" frame. */
  windowId: string;
  /** Runs xdotool on this display; returns its stdout. */
  xdotool(args: string[]): string;
  /** Sends a key combination (xdotool syntax, e.g. "ctrl+z") to the PCB Editor window. */
  key(combo: string): void;
  /** The names of all mapped windows: a way to see which dialog is up. */
  windowNames(): string[];
  /** A connected client (closed by stop). */
  connect(opts?: { clientName?: string; busyTimeoutMs?: number; timeoutMs?: number }): Promise<KicadClient>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** A .kicad_pcb; it is copied with its .kicad_pro (and .kicad_dru if any). */
  board: string;
  timeoutMs?: number;
  /** Runs before pcbnew starts, with the throwaway HOME (e.g. to lay out a plugin the way PCM installs it). */
  prepare?: (home: string) => void;
  /** Merged over the throwaway kicad_common.json's `api` section (e.g. `interpreter_path`). */
  api?: Record<string, unknown>;
}

const KICAD_COMMON = {
  api: { enable_server: true },
  // The prompts a fresh config would show on first start, each a modal dialog that blocks the API.
  do_not_show_again: {
    data_collection_prompt: true, update_check_prompt: true, env_var_overwrite_warning: true,
    scaled_3d_models_warning: true, zone_fill_warning: true,
  },
  system: { check_for_kicad_updates: false },
};

const running = new Set<ChildProcess>();
// If the test process dies without stop(), do not leave pcbnew or Xvfb behind.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startKicad(opts: StartOptions): Promise<KicadInstance> {
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const deadline = Date.now() + timeoutMs;
  // Short on purpose: a Unix socket path must fit in 107 bytes, and KiCad fails silently past it.
  const root = mkdtempSync('/tmp/tmk-');
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  const boardDir = join(root, 'board');
  const config = join(home, '.config', 'kicad', '9.0');
  for (const d of [config, tmp, boardDir]) mkdirSync(d, { recursive: true });
  const common = { ...KICAD_COMMON, api: { ...KICAD_COMMON.api, ...opts.api } };
  writeFileSync(join(config, 'kicad_common.json'), JSON.stringify(common, null, 2));
  // Present (even empty) library tables stop the "configure global libraries" first-run dialog.
  writeFileSync(join(config, 'fp-lib-table'), '(fp_lib_table\n  (version 7)\n)\n');
  writeFileSync(join(config, 'sym-lib-table'), '(sym_lib_table\n  (version 7)\n)\n');
  const boardPath = join(boardDir, basename(opts.board));
  const stem = opts.board.replace(/\.kicad_pcb$/, '');
  for (const ext of ['.kicad_pcb', '.kicad_pro', '.kicad_dru']) {
    if (!existsSync(stem + ext)) continue;
    const to = join(boardDir, basename(stem) + ext);
    copyFileSync(stem + ext, to);
    chmodSync(to, 0o644);
  }

  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await terminate(child);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const { child: xvfb, display } = await startXvfb(deadline);
    children.push(xvfb);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache'),
      TMPDIR: tmp, DISPLAY: display, LIBGL_ALWAYS_SOFTWARE: '1', LANG: 'C.UTF-8',
    };
    opts.prepare?.(home);
    const pcbnew = spawn('pcbnew', [boardPath], { env, stdio: 'ignore' });
    track(pcbnew);
    children.push(pcbnew);
    const socketPath = join(tmp, 'kicad', 'api.sock');
    const xdotool = (args: string[]) => {
      const r = spawnSync('xdotool', args, { env: { ...env }, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`xdotool ${args.join(' ')} failed: ${r.stderr.trim() || r.status}`);
      return r.stdout;
    };
    await until(deadline, () => existsSync(socketPath) || exited(pcbnew), 'the API socket');
    if (exited(pcbnew)) throw new Error(`pcbnew exited early (code ${pcbnew.exitCode})`);
    // The server answers AS_NOT_READY until pcbnew has finished starting; the client retries that.
    const probe = await KicadClient.connect({ socket: socketPath, clientName: 'harness', busyTimeoutMs: deadline - Date.now() });
    try {
      await probe.version();
      await probe.board();
    } finally {
      probe.close();
    }
    let windowId = '';
    await until(deadline, () => {
      windowId = findWindow(xdotool, 'PCB Editor');
      return windowId !== '';
    }, 'the PCB Editor window');

    const clients: KicadClient[] = [];
    const windowNames = () => {
      const ids = searchWindows(xdotool, '.');
      return [...new Set(ids.map((id) => { try { return xdotool(['getwindowname', id]).trim(); } catch { return ''; } }))]
        .filter((n) => n !== '');
    };
    return {
      socketPath, pid: pcbnew.pid!, boardPath, home, env, display, windowId, xdotool, windowNames,
      key(combo) {
        xdotool(['windowfocus', '--sync', windowId]);
        // Keys reach the canvas only with the pointer over it.
        xdotool(['mousemove', '--window', windowId, '400', '300']);
        xdotool(['key', '--clearmodifiers', combo]);
      },
      async connect(o = {}) {
        const client = await KicadClient.connect({ socket: socketPath, clientName: o.clientName ?? 'tracemaker-live',
          busyTimeoutMs: o.busyTimeoutMs ?? 5_000, timeoutMs: o.timeoutMs ?? 10_000 });
        clients.push(client);
        return client;
      },
      async stop() {
        for (const c of clients) c.close();
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

function track(child: ChildProcess): void {
  running.add(child);
  child.on('exit', () => running.delete(child));
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function terminate(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
}

// Xvfb picks a free display itself and reports it on a pipe (-displayfd), so parallel test files do not race.
async function startXvfb(deadline: number): Promise<{ child: ChildProcess; display: string }> {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1000x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  track(child);
  const fd = child.stdio[3]!;
  let text = '';
  fd.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  await until(deadline, () => text.includes('\n') || exited(child), 'Xvfb');
  if (exited(child)) throw new Error(`Xvfb exited early (code ${child.exitCode})`);
  return { child, display: `:${text.trim()}` };
}

function searchWindows(xdotool: (args: string[]) => string, name: string): string[] {
  try {
    return xdotool(['search', '--onlyvisible', '--name', name]).split('\n').filter((l) => l !== '');
  } catch {
    // xdotool search exits 1 when nothing matches.
    return [];
  }
}

function findWindow(xdotool: (args: string[]) => string, name: string): string {
  return searchWindows(xdotool, name)[0] ?? '';
}

async function until(deadline: number, ready: () => boolean, what: string): Promise<void> {
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

