// Starts a real pcbnew of a given KiCad (9 on the host, or 10 inside its root) under Xvfb on a copy of
// a board, with a throwaway HOME and config (API server on, no first-run wizard or dialogs) and a
// private temp dir under /tmp so its API socket is ours alone; stops it all by pid.
// Every live suite runs once per KiCad under test: `describe.each(liveKicads())(…, (k) => { const
// live = useKicad(k, { board }); … })`, or startKicad({ board, kicad }) … stop() by hand.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { KicadApiError, KicadClient, KicadConnectionError } from '../../ipc/index.ts';
import { BENCH, KICAD10_BENCH } from '../support/bench.ts';
import { KICAD10_ROOT, kicads, type Kicad } from '../support/kicad.ts';

export type { Kicad } from '../support/kicad.ts';

export const BENCH_BOARDS = BENCH;

/**
 * A bench board's path by tier and name, e.g. benchBoard('A', 'Blink-Eras_AVR_ISP_Pogo', kicad): the
 * shared bench for KiCad 9, its copy in KiCad 10's own format (scripts/kicad10-corpus.mjs) for 10.
 */
export function benchBoard(tier: string, name: string, kicad?: Kicad): string {
  const root = kicad?.major === 10 ? KICAD10_BENCH : BENCH;
  return join(root, tier, name, `${name}.kicad_pcb`);
}

const REQUIRED = ['Xvfb', 'xdotool'];

/**
 * Whether live tests run here. Missing Xvfb/xdotool or a KiCad under test is an error (CI must not
 * pass by skipping) unless TRACEMAKER_SKIP_LIVE=1 says to skip on purpose.
 */
export function liveEnabled(): boolean {
  if (process.env.TRACEMAKER_SKIP_LIVE === '1') return false;
  const missing = REQUIRED.filter((cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0);
  if (missing.length > 0) {
    throw new Error(`live tests need ${missing.join(', ')} (run scripts/install-system.sh), or set TRACEMAKER_SKIP_LIVE=1 to skip them`);
  }
  kicads();
  return true;
}

/**
 * The KiCads a live suite runs against (TRACEMAKER_KICAD), each checked present. When live tests are
 * skipped on purpose, one stand-in so the skipped suite is still listed; nothing starts it.
 */
export function liveKicads(): Kicad[] {
  if (liveEnabled()) return kicads();
  return [{ major: 0, version: 'skipped', cli: '', python: '', pcbnew: '', configDir: '', demos: '', rooted: false }];
}

/**
 * A describe block per KiCad under test, named "<title> (KiCad <version>)"; the blocks run one after
 * the other, so at most one pcbnew of a file is up at a time. Skipped (and still listed) when live
 * tests are skipped on purpose.
 */
export function describeKicads(title: string, body: (kicad: Kicad) => void): void {
  for (const kicad of liveKicads()) describe.skipIf(kicad.major === 0)(`${title} (KiCad ${kicad.version})`, () => body(kicad));
}

/** The folders of a throwaway HOME that KiCad of this version reads and writes. */
export interface KicadDirs {
  home: string;
  /** kicad_common.json and the library tables. */
  config: string;
  /** The PCM folder: `<3rdparty>/plugins/<id>/` is where KiCad looks for installed packages' plugins. */
  thirdParty: string;
  /** Where KiCad's python runtime makes each plugin's venv (`python-environments/<plugin id>`). */
  cache: string;
}

export function kicadDirs(home: string, kicad: Kicad): KicadDirs {
  return {
    home,
    config: join(home, '.config', 'kicad', kicad.configDir),
    thirdParty: join(home, '.local', 'share', 'kicad', kicad.configDir, '3rdparty'),
    cache: join(home, '.cache', 'kicad', kicad.configDir),
  };
}

export interface KicadInstance {
  kicad: Kicad;
  /** The API socket of this pcbnew (no other process uses its temp dir). */
  socketPath: string;
  pid: number;
  /** The copy of the board pcbnew has open. */
  boardPath: string;
  /** The throwaway HOME pcbnew runs with (XDG folders under it). */
  home: string;
  dirs: KicadDirs;
  /** pcbnew's environment (the one KiCad hands a plugin, before its KICAD_API_* additions). */
  env: NodeJS.ProcessEnv;
  display: string;
  /** pcbnew's stdout and stderr (where a plugin's output goes too). */
  log(): string;
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
  /** The screen's size (pcbnew's window fills it). */
  screen: { width: number; height: number };
  /** Saves a PNG of the whole screen. */
  screenshot(path: string): void;
  /**
   * Kills pcbnew with SIGKILL, as a crash ends it (its API socket file stays behind), and starts it
   * again on the same board, HOME and temp dir; socketPath, pid and windowId then name the new one.
   */
  crashAndRestart(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** A .kicad_pcb; it is copied with its .kicad_pro (and .kicad_dru if any). */
  board: string;
  kicad: Kicad;
  timeoutMs?: number;
  /** Added to pcbnew's environment, so plugins it runs inherit them (e.g. TRACEMAKER_BROWSER). */
  env?: Record<string, string>;
  /** Runs before pcbnew starts, with the throwaway HOME (e.g. to lay out a plugin the way PCM installs it). */
  prepare?: (home: string, dirs: KicadDirs) => void;
  /**
   * Merged over the throwaway kicad_common.json's `api` section (e.g. `interpreter_path`). With
   * `enable_server: false` there is no API: start() waits for the editor's window only, and socketPath
   * is where the socket would have been.
   */
  api?: Record<string, unknown>;
  /** The screen's size, which pcbnew's window fills (default 1600×1000; KiCad 10 opens at 1280×720). */
  screen?: { width: number; height: number };
}

const KICAD_COMMON = {
  api: { enable_server: true },
  // The prompts a fresh config would show on first start, each a modal dialog that blocks the API;
  // KiCad 10's first-run wizard has a privacy page unless the first two are set.
  do_not_show_again: {
    data_collection_prompt: true,
    update_check_prompt: true,
    env_var_overwrite_warning: true,
    scaled_3d_models_warning: true,
    zone_fill_warning: true,
  },
  // No autosave: a pcbnew killed on purpose (crashAndRestart) would otherwise ask to restore it.
  system: { check_for_kicad_updates: false, autosave_interval: 0 },
};

// Present and parseable global library tables keep KiCad from asking to configure them: KiCad 9
// shows a dialog without the symbol and footprint tables, and KiCad 10's first-run wizard ("KiCad
// Setup") has a libraries page unless all three exist (seen live: without design-block-lib-table
// pcbnew 10.0.7 opened the wizard; with it, none).
const LIBRARY_TABLES: Record<string, string> = {
  'fp-lib-table': '(fp_lib_table\n  (version 7)\n)\n',
  'sym-lib-table': '(sym_lib_table\n  (version 7)\n)\n',
  'design-block-lib-table': '(design_block_lib_table\n  (version 7)\n)\n',
};

/** pcbnew did not come up: it exited while starting, or its editor window never showed in time. */
export class KicadStartError extends Error {
  override name = 'KicadStartError';
}

/** The title of KiCad 10's first-run wizard, which blocks the API (AS_NOT_READY) while it is up. */
const SETUP_WIZARD = 'KiCad Setup';

const running = new Set<ChildProcess>();
// If the test process dies without stop(), do not leave pcbnew or Xvfb behind.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startKicad(opts: StartOptions): Promise<KicadInstance> {
  const { kicad } = opts;
  if (kicad.major !== 9 && kicad.major !== 10) throw new Error(`startKicad: no KiCad ${kicad.version} to start`);
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const deadline = Date.now() + timeoutMs;
  // Short on purpose: a Unix socket path must fit in 107 bytes, and KiCad fails silently past it.
  // Under /tmp for KiCad 10 too: the root shares /tmp, so the socket is the same path inside and out.
  const root = mkdtempSync('/tmp/tmk-');
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  const boardDir = join(root, 'board');
  const dirs = kicadDirs(home, kicad);
  for (const d of [dirs.config, tmp, boardDir]) mkdirSync(d, { recursive: true });
  const common = { ...KICAD_COMMON, api: { ...KICAD_COMMON.api, ...opts.api } };
  writeFileSync(join(dirs.config, 'kicad_common.json'), JSON.stringify(common, null, 2));
  for (const [name, text] of Object.entries(LIBRARY_TABLES)) writeFileSync(join(dirs.config, name), text);
  if (!existsSync(opts.board)) {
    throw new Error(`${opts.board} is missing${kicad.major === 10 ? ' (make the KiCad 10 bench: node scripts/kicad10-corpus.mjs)' : ''}`);
  }
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
  const logPath = join(root, 'pcbnew.log');
  const log = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '');
  try {
    const screen = opts.screen ?? SCREEN;
    const { child: xvfb, display } = await startXvfb(deadline, screen);
    children.push(xvfb);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      TMPDIR: tmp,
      DISPLAY: display,
      LIBGL_ALWAYS_SOFTWARE: '1',
      LANG: 'C.UTF-8',
      ...opts.env,
    };
    opts.prepare?.(home, dirs);
    const launch = () => {
      const out = openSync(logPath, 'a');
      // KiCad 10's wrapper execs down to pcbnew itself (unshare, chroot, sh all exec), so this pid is pcbnew's.
      const child = spawn(kicad.pcbnew, [boardPath], { env, stdio: ['ignore', out, out] });
      closeSync(out);
      track(child);
      children.push(child);
      return child;
    };
    let pcbnew = launch();
    const socketPath = join(tmp, 'kicad', 'api.sock');
    const xdotool = (args: string[]) => {
      // The test's own PATH: pcbnew's may be cut down on purpose (a user's without node, say).
      const r = spawnSync('xdotool', args, { env: { ...env, PATH: process.env.PATH }, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`xdotool ${args.join(' ')} failed: ${r.stderr.trim() || r.status}`);
      return r.stdout;
    };
    const windowNames = () => {
      const ids = searchWindows(xdotool, '.');
      return [
        ...new Set(
          ids.map((id) => {
            try {
              return xdotool(['getwindowname', id]).trim();
            } catch {
              return '';
            }
          }),
        ),
      ].filter((n) => n !== '');
    };
    const what = `pcbnew ${kicad.version}`;
    const noWizard = () => {
      if (windowNames().includes(SETUP_WIZARD)) {
        throw new Error(
          `${what} opened its first-run wizard ("${SETUP_WIZARD}"), which blocks the API: the seeded config in ${dirs.config} no longer satisfies it`,
        );
      }
    };
    if (common.api.enable_server !== false) {
      await until(deadline, () => existsSync(socketPath) || exited(pcbnew), `${what}'s API socket`);
      if (exited(pcbnew)) throw new KicadStartError(`${what} exited early (code ${pcbnew.exitCode}): ${log().slice(-800)}`);
      await boardAnswers(socketPath, deadline, noWizard, what);
    }
    let windowId = '';
    try {
      await until(
        deadline,
        () => {
          windowId = findWindow(xdotool, 'PCB Editor');
          return windowId !== '' || exited(pcbnew);
        },
        `${what}'s PCB Editor window`,
      );
    } catch (err) {
      throw new KicadStartError(`${(err as Error).message}; windows up: ${JSON.stringify(windowNames())}; pcbnew's log ends: ${log().slice(-800)}`);
    }
    if (exited(pcbnew)) throw new KicadStartError(`${what} exited before its window showed (code ${pcbnew.exitCode}): ${log().slice(-800)}`);
    noWizard();
    // The whole screen, as a user's maximised editor: KiCad 10 opens at 1280×720, where its top toolbar
    // is cut before the plugin buttons at its right end (there is no window manager to maximise it).
    const fill = async (id: string, by: number) => {
      xdotool(['windowsize', id, String(screen.width), String(screen.height)]);
      await until(
        by,
        () =>
          / Geometry: (\d+)x(\d+)/
            .exec(xdotool(['getwindowgeometry', id]))
            ?.slice(1)
            .join('x') === `${screen.width}x${screen.height}`,
        `${what}'s window to fill the screen`,
      );
    };
    await fill(windowId, deadline);

    const clients: KicadClient[] = [];
    const instance: KicadInstance = {
      kicad,
      socketPath,
      pid: pcbnew.pid!,
      boardPath,
      home,
      dirs,
      env,
      display,
      windowId,
      xdotool,
      windowNames,
      log,
      key(combo) {
        xdotool(['windowfocus', '--sync', instance.windowId]);
        // Keys reach the canvas only with the pointer over it.
        xdotool(['mousemove', '--window', instance.windowId, '400', '300']);
        xdotool(['key', '--clearmodifiers', combo]);
      },
      async connect(o = {}) {
        const client = await KicadClient.connect({
          socket: instance.socketPath,
          clientName: o.clientName ?? 'tracemaker-live',
          // A loaded test machine (two suites, each with a pcbnew) can keep a reply waiting past 10 s.
          busyTimeoutMs: o.busyTimeoutMs ?? 5_000,
          timeoutMs: o.timeoutMs ?? 30_000,
        });
        clients.push(client);
        return client;
      },
      screen,
      screenshot(path) {
        // wx's screen device (Debian's python3-wxgtk, which the live suites need anyway): no extra tool.
        const code = [
          'import sys, wx',
          'app = wx.App(False)',
          'w, h = wx.GetDisplaySize()',
          'bmp = wx.Bitmap(w, h)',
          'mem = wx.MemoryDC(bmp)',
          'mem.Blit(0, 0, w, h, wx.ScreenDC(), 0, 0)',
          'mem.SelectObject(wx.NullBitmap)',
          'sys.exit(0 if bmp.SaveFile(sys.argv[1], wx.BITMAP_TYPE_PNG) else 1)',
        ].join('\n');
        const r = spawnSync('/usr/bin/python3', ['-c', code, path], { env: { ...env, PATH: process.env.PATH }, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`screenshot to ${path} failed: ${r.stderr.trim() || r.status}`);
      },
      async crashAndRestart() {
        for (const c of clients.splice(0)) c.close();
        const old = pcbnew;
        const gone = new Promise<void>((resolve) => old.once('exit', () => resolve()));
        old.kill('SIGKILL');
        await gone;
        // KiCad asks whether to open a board whose lock file a dead pcbnew left (a modal dialog that
        // blocks the API); a user answers it once, the test removes the stale lock first.
        for (const f of readdirSync(boardDir)) if (f.endsWith('.lck')) rmSync(join(boardDir, f), { force: true });
        const by = Date.now() + timeoutMs;
        const socketsBefore = new Set(sockets(join(tmp, 'kicad')));
        pcbnew = launch();
        // A crash leaves api.sock behind: the new pcbnew listens there again or on api-<pid>.sock.
        const mine = join(tmp, 'kicad', `api-${pcbnew.pid}.sock`);
        await until(by, () => existsSync(mine) || socketsBefore.has(socketPath) || exited(pcbnew), `${what}'s API socket after the restart`);
        let found = '';
        await until(
          by,
          () => {
            if (exited(pcbnew)) return true;
            found = existsSync(mine) ? mine : socketPath;
            windowIdNow = findWindow(xdotool, 'PCB Editor');
            return windowIdNow !== '';
          },
          `${what}'s PCB Editor window after the restart`,
        );
        if (exited(pcbnew)) throw new KicadStartError(`${what} exited after its restart (code ${pcbnew.exitCode}): ${log().slice(-800)}`);
        await boardAnswers(found, by, noWizard, what);
        await fill(windowIdNow, by);
        instance.socketPath = found;
        instance.pid = pcbnew.pid!;
        instance.windowId = windowIdNow;
      },
      async stop() {
        for (const c of clients) c.close();
        await stop();
      },
    };
    let windowIdNow = windowId;
    return instance;
  } catch (err) {
    await stop();
    throw err;
  }
}

// The server answers AS_NOT_READY until pcbnew has finished starting (and for as long as a first-run
// dialog is up): ask in short rounds, looking for the wizard between them, until the board answers.
async function boardAnswers(socketPath: string, deadline: number, noWizard: () => void, what: string): Promise<void> {
  const probe = await KicadClient.connect({ socket: socketPath, clientName: 'harness', busyTimeoutMs: 1_000 });
  try {
    for (;;) {
      try {
        await probe.version();
        await probe.board();
        return;
      } catch (err) {
        if (!(err instanceof KicadApiError) || (err.code !== 'AS_NOT_READY' && err.code !== 'AS_BUSY')) throw err;
        noWizard();
        if (Date.now() > deadline) throw new Error(`${what} did not answer for its board in time (last: ${err.message})`, { cause: err });
      }
    }
  } finally {
    probe.close();
  }
}

/**
 * Starts this KiCad on `opts.board` before the enclosing describe's tests and stops it after them
 * (with `teardown`, default stop()). The returned object's fields are set once started.
 */
export function useKicad(
  kicad: Kicad,
  opts: Omit<StartOptions, 'kicad'> & { clientName?: string; teardown?: (k: KicadInstance) => Promise<void> },
): { readonly instance: KicadInstance; readonly client: KicadClient } {
  let instance: KicadInstance | undefined;
  let client: KicadClient | undefined;
  beforeAll(async () => {
    console.log(`live: KiCad ${kicad.version} (${kicad.rooted ? `pcbnew inside ${KICAD10_ROOT}` : 'pcbnew on this system'}) on ${basename(opts.board)}`);
    for (let attempt = 1; ; attempt++) {
      try {
        instance = await startKicad({ ...opts, kicad });
        if (opts.api?.enable_server !== false) client = await instance.connect(opts.clientName ? { clientName: opts.clientName } : {});
        return;
      } catch (err) {
        // On a loaded machine pcbnew now and then exits while it starts, leaving its socket file
        // behind, or (seen once in CI, API off) never shows its window in 90 s: started once more
        // from scratch, and a second such failure fails the suite.
        if (attempt >= 2 || !(err instanceof KicadConnectionError || err instanceof KicadStartError)) throw err;
        console.log(`live: KiCad ${kicad.version} did not start (${err.message}); starting it again`);
        await instance?.stop();
        instance = undefined;
        client = undefined;
      }
    }
  });
  afterAll(async () => {
    if (instance) await (opts.teardown ?? ((k) => k.stop()))(instance);
  });
  return {
    get instance() {
      if (!instance) throw new Error('KiCad is not started (beforeAll failed?)');
      return instance;
    },
    get client() {
      if (!client) throw new Error(opts.api?.enable_server === false ? 'this KiCad runs without its API server' : 'KiCad is not started (beforeAll failed?)');
      return client;
    },
  };
}

/**
 * A program of this KiCad's install with its arguments, as the host runs it (through the root for 10).
 * Name a program of the root by its bare name (found on the PATH inside): scripts/kicad10/run binds
 * the folder of every absolute argument from the host, so "/usr/bin/x" would be the host's /usr/bin.
 * Paths under /tmp are the same inside and out.
 */
export function inKicad(kicad: Kicad, program: string, args: string[]): { cmd: string; args: string[] } {
  if (!kicad.rooted) return { cmd: program, args };
  return { cmd: join(import.meta.dirname, '..', '..', 'scripts', 'kicad10', 'run'), args: [program, ...args] };
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

const SCREEN = { width: 1600, height: 1000 };

// Xvfb picks a free display itself and reports it on a pipe (-displayfd), so parallel test files do not race.
async function startXvfb(deadline: number, screen: { width: number; height: number }): Promise<{ child: ChildProcess; display: string }> {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${screen.width}x${screen.height}x24`, '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  track(child);
  const fd = child.stdio[3]!;
  let text = '';
  fd.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  await until(deadline, () => text.includes('\n') || exited(child), 'Xvfb');
  if (exited(child)) throw new Error(`Xvfb exited early (code ${child.exitCode})`);
  return { child, display: `:${text.trim()}` };
}

function searchWindows(xdotool: (args: string[]) => string, name: string): string[] {
  try {
    return xdotool(['search', '--onlyvisible', '--name', name])
      .split('\n')
      .filter((l) => l !== '');
  } catch {
    // xdotool search exits 1 when nothing matches.
    return [];
  }
}

function sockets(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.sock'))
        .map((f) => join(dir, f))
    : [];
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
