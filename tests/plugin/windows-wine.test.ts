// The Windows package on Windows code paths, without a Windows machine: the zip `npm run package` makes
// for Windows, unpacked as KiCad's package manager does, its own node.exe (the official Windows build)
// run under Wine. It routes the demo board to the same bytes as Linux Node, and the host listens on its
// per-user named pipe and answers a second Windows Node process there, then ends itself when idle (on
// Windows that is how a host ends: KiCad's own pipe has no file to watch).
// The Python launcher's Windows branch (which node.exe it picks, %LOCALAPPDATA%) cannot run here: there
// is no Windows Python under Wine. Its per-platform logic is unit-tested in
// tests/plugin/kicad-host/launcher-py.test.ts; from node.exe on, everything below is the real thing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostPaths } from '../../plugin/kicad-host/host-channel.ts';
import { installLikePcm, listFiles, readZip } from '../../plugin/kicad-host/pcm-package.ts';
import { NODE_VERSION } from '../../scripts/node-runtimes.ts';
import { buildPlatformZip, ROOT } from '../live/plugin-support.ts';

const WINE = process.env.TRACEMAKER_WINE ?? '/usr/lib/wine/wine64';
const WINESERVER = join(dirname(WINE), 'wineserver');
const SCHEMAS = process.env.KICAD_SCHEMAS ?? '/usr/share/kicad/schemas';
const DEMO = join(ROOT, 'assets', 'demo.kicad_pcb');
// What KiCad for Windows hands a plugin: NNG's ipc:// URL of a path, which NNG serves as a named pipe.
// Nothing listens there: the host's answer is KiCad's absence, which is enough to prove the pipe.
const KICAD_URL = 'ipc://C:\\tracemaker-test\\kicad\\api.sock';
const KICAD_PIPE = '\\\\.\\pipe\\C:\\tracemaker-test\\kicad\\api.sock';
const IDLE_SECONDS = 10;

// A second Windows Node process built from the product's own modules: where the launcher puts the host
// (per-user folder, pipe name) as computed on win32 itself, and the launcher's ask() over that pipe.
const PROBE = `
import { writeFileSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import { resolveSocketPath } from './ipc/socket-path.ts';
import { ensureRuntimeDir, hostPaths, runtimeDir } from './plugin/kicad-host/host-channel.ts';
import { answers } from './plugin/kicad-host/host.ts';
import { ask } from './plugin/kicad-host/launcher.ts';
const [mode, out, arg] = process.argv.slice(2);
if (mode === 'where') {
  const kicadSocket = resolveSocketPath({ env: process.env, platform: process.platform, tmpdir: process.env.TEMP || tmpdir() });
  const dir = ensureRuntimeDir(runtimeDir(process.env));
  writeFileSync(out, JSON.stringify({ platform: process.platform, release: release(), execPath: process.execPath, dir, kicadSocket, ...hostPaths(dir, kicadSocket, arg) }));
} else {
  const live = await answers(arg);
  writeFileSync(out, JSON.stringify({ live, answer: await ask(arg, { action: 'check', token: '' }, 60_000) }));
}
`;

let work = '';
let prefix = '';
let zip: Buffer = Buffer.alloc(0);
let third = '';
let pluginDir = '';
let host: ChildProcess | null = null;
let runs = 0;

/** The path Wine's programs see for a host path (Wine maps the host's / to drive Z:). */
function winPath(p: string): string {
  return `Z:${p.replaceAll('/', '\\')}`;
}

/** The host path of a path on the prefix's drive C:. */
function fromDriveC(p: string): string {
  expect(p).toMatch(/^C:\\/i);
  return join(prefix, 'drive_c', ...p.slice(3).split('\\'));
}

/** Wine's environment, built from nothing: no display (no windows to draw), no TRACEMAKER_* of the test's. */
function wineEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // mscoree/mshtml off: a new prefix would otherwise look for Wine's Mono and Gecko installers.
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
    ...extra,
  };
}

/**
 * Runs a Windows program under Wine to completion. Its output goes to files: Node under Wine fails with
 * EBADF writing to a pipe, and a file is what the launcher gives the host anyway.
 */
function wine(args: string[], extra: Record<string, string> = {}, timeout = 90_000, input?: string): { code: number | null; stdout: string; stderr: string } {
  const n = ++runs;
  const out = join(work, `run-${n}.out`);
  const err = join(work, `run-${n}.err`);
  // Standard input, when given, comes from a file too.
  if (input !== undefined) writeFileSync(join(work, `run-${n}.in`), input);
  const fi = input !== undefined ? openSync(join(work, `run-${n}.in`), 'r') : 'ignore';
  const fo = openSync(out, 'w');
  const fe = openSync(err, 'w');
  let r;
  try {
    r = spawnSync(WINE, args, { stdio: [fi, fo, fe], env: wineEnv(extra), cwd: work, timeout });
  } finally {
    if (typeof fi === 'number') closeSync(fi);
    closeSync(fo);
    closeSync(fe);
  }
  if (r.error) throw new Error(`wine ${args.join(' ')}: ${r.error.message}`);
  return { code: r.status, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') };
}

async function waitFor<T>(what: string, probe: () => T, ok: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the Windows package runs the official Windows Node under Wine', () => {
  const nodeExe = () => join(pluginDir, 'runtime', 'win32-x64', 'node.exe');

  // Without a working Wine each test that needs it fails with why (a failing hook would only mark them skipped).
  let noWine = existsSync(WINE) ? null : `${WINE} is missing: the Windows smoke test needs Wine (run scripts/install-system.sh, or set TRACEMAKER_WINE)`;
  const needWine = () => {
    if (noWine) throw new Error(noWine);
  };

  beforeAll(async () => {
    work = mkdtempSync('/tmp/tmk-wine-');
    prefix = join(work, 'prefix');
    zip = await buildPlatformZip('windows');
    third = join(work, '3rdparty');
    pluginDir = installLikePcm(zip, third);
    if (noWine) return;
    // Node 22 refuses Windows older than 8.1, and a new Debian prefix says Windows 7: say Windows 10, as
    // users have, rather than waving Node's check through. This also makes the prefix (10–20 s).
    const cfg = wine(['winecfg', '/v', 'win10']);
    if (cfg.code !== 0) noWine = `making a Wine prefix with ${WINE} failed (${cfg.code}): ${cfg.stderr.slice(-600)}`;
  });

  afterAll(async () => {
    if (host && host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
    // Every Windows process of the prefix (services Wine started with it, a host left by a failure).
    if (prefix && existsSync(WINESERVER)) spawnSync(WINESERVER, ['-k'], { env: wineEnv(), timeout: 30_000 });
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("is laid out as KiCad's package manager installs it: metadata for Windows with true sizes, plugin, entrypoints, node.exe", () => {
    const entries = readZip(zip);
    const meta = JSON.parse(Buffer.from(entries.find((e) => e.path === 'metadata.json')!.data).toString('utf8'));
    const schema = join(SCHEMAS, 'pcm.v1.schema.json');
    if (!existsSync(schema)) throw new Error(`${schema} is missing: it comes with KiCad 9 (run scripts/install-system.sh, or set KICAD_SCHEMAS)`);
    const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(schema, 'utf8')));
    expect(validate(meta), JSON.stringify(validate.errors)).toBe(true);
    const v = meta.versions[0];
    expect(v.platforms).toEqual(['windows']);
    expect(v.download_size).toBe(zip.length);
    const id = meta.identifier.replaceAll('.', '_');
    const unpacked = [join(third, 'plugins', id), join(third, 'resources', id)].flatMap((d) => listFiles(d).map((f) => statSync(join(d, f)).size));
    expect(v.install_size).toBe(unpacked.reduce((a, b) => a + b, 0));

    const files = listFiles(pluginDir);
    const plugin = JSON.parse(readFileSync(join(pluginDir, 'plugin.json'), 'utf8'));
    expect(plugin.identifier).toBe(meta.identifier);
    for (const a of plugin.actions) expect(files).toContain(a.entrypoint);
    expect(files).toEqual(expect.arrayContaining(['tracemaker_launch.py', 'tracemaker.js', 'runtime/win32-x64/node.exe', 'runtime/NODE-LICENSE']));
    // Only the Windows runtime: the others would triple the download for nothing.
    expect(files.filter((f) => f.startsWith('runtime/'))).toEqual(['runtime/NODE-LICENSE', 'runtime/win32-x64/node.exe']);
    const exe = readFileSync(nodeExe());
    expect(exe.subarray(0, 2).toString('latin1')).toBe('MZ');
    expect(readFileSync(join(pluginDir, 'runtime', 'NODE-LICENSE'), 'utf8')).toMatch(/^Node\.js is licensed for use as follows:/);
  });

  it('routes the demo board under Windows Node (win32) to the same bytes as Linux Node', () => {
    needWine();
    const who = wine([
      nodeExe(),
      '-e',
      'console.log(JSON.stringify({ platform: process.platform, arch: process.arch, release: require("os").release(), version: process.version, execPath: process.execPath }))',
    ]);
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toEqual({
      platform: 'win32',
      arch: 'x64',
      release: expect.stringMatching(/^10\./),
      version: `v${NODE_VERSION}`,
      execPath: winPath(nodeExe()),
    });

    const board = join(work, 'board');
    mkdirSync(board);
    copyFileSync(DEMO, join(board, 'demo.kicad_pcb'));
    copyFileSync(DEMO.replace(/\.kicad_pcb$/, '.kicad_pro'), join(board, 'demo.kicad_pro'));
    const bundle = join(pluginDir, 'tracemaker.js');
    const winOut = join(work, 'routed-windows.kicad_pcb');
    const linuxOut = join(work, 'routed-linux.kicad_pcb');
    const t0 = Date.now();
    const onWin = wine([nodeExe(), winPath(bundle), 'route', winPath(join(board, 'demo.kicad_pcb')), '--out', winPath(winOut), '--json']);
    const winMs = Date.now() - t0;
    expect(onWin.code, onWin.stderr).toBe(0);
    const onLinux = spawnSync(process.execPath, [bundle, 'route', join(board, 'demo.kicad_pcb'), '--out', linuxOut, '--json'], {
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(onLinux.status, onLinux.stderr).toBe(0);
    const win = JSON.parse(onWin.stdout);
    const linux = JSON.parse(onLinux.stdout);
    // The Windows run took Windows paths: the board and project were read through drive Z:.
    expect(win.board).toBe(winPath(join(board, 'demo.kicad_pcb')));
    const gist = (s: Record<string, unknown>) => ({ ...s, board: undefined, out: undefined, seconds: undefined, rules_written: undefined });
    expect(gist(win)).toEqual(gist(linux));
    // Each wrote the board's project beside its output, named in its own platform's path.
    expect(win.rules_written).toEqual([winPath(join(work, 'routed-windows.kicad_pro'))]);
    expect(readFileSync(join(work, 'routed-windows.kicad_pro'), 'utf8')).toBe(readFileSync(join(board, 'demo.kicad_pro'), 'utf8'));
    expect(linux.open).toBe(0);
    expect(linux.tracks).toBeGreaterThan(50);
    const a = readFileSync(winOut);
    const b = readFileSync(linuxOut);
    expect(a.length).toBeGreaterThan(statSync(DEMO).size);
    expect(a.equals(b)).toBe(true);
    console.log(`windows-wine: route under Wine ${winMs} ms, Linux Node ${process.version} vs Windows Node v${NODE_VERSION}: ${a.length} bytes, equal`);
  });

  it('renders a PNG under Windows Node from the WebAssembly the package ships, the bytes Linux Node renders', () => {
    needWine();
    const bundle = join(pluginDir, 'tracemaker.js');
    expect(listFiles(pluginDir)).toContain('resvg.wasm');
    const calls = '{"tool":"render","args":{"format":"png"}}\n';
    const onWin = wine([nodeExe(), winPath(bundle), 'session', winPath(DEMO), '--out', winPath(join(work, 'png-win.kicad_pcb')), '--jsonl'], {}, 90_000, calls);
    expect(onWin.code, onWin.stderr).toBe(0);
    const onLinux = spawnSync(process.execPath, [bundle, 'session', DEMO, '--out', join(work, 'png-linux.kicad_pcb'), '--jsonl'], {
      input: calls,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(onLinux.status, onLinux.stderr).toBe(0);
    const win = JSON.parse(onWin.stdout);
    expect(win.mime).toBe('image/png');
    expect(Buffer.from(win.png_base64, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(win).toEqual(JSON.parse(onLinux.stdout));
  });

  it('starts the host on its named pipe, answers a second Windows Node over it, and ends itself when idle', async () => {
    needWine();
    const probe = join(work, 'probe.mjs');
    await build({
      stdin: { contents: PROBE, resolveDir: ROOT, loader: 'ts', sourcefile: 'probe.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: probe,
      logLevel: 'warning',
      banner: { js: "import { createRequire as __tmCreateRequire } from 'node:module'; const require = __tmCreateRequire(import.meta.url);" },
    });
    const whereOut = join(work, 'where.json');
    const where = wine([nodeExe(), winPath(probe), 'where', winPath(whereOut), 'demo.kicad_pcb'], { KICAD_API_SOCKET: KICAD_URL });
    expect(where.code, where.stderr).toBe(0);
    const at = JSON.parse(readFileSync(whereOut, 'utf8'));
    expect(at.platform).toBe('win32');
    expect(at.kicadSocket).toBe(KICAD_PIPE);
    // Per-user state in %LOCALAPPDATA%, made on disk; the channel a pipe named for the user and board,
    // as this (Linux) process computes for win32 (Wine's user is the Unix user).
    expect(at.dir).toMatch(/^C:\\users\\[^\\]+\\AppData\\Local\\tracemaker$/i);
    expect(statSync(fromDriveC(at.dir)).isDirectory()).toBe(true);
    expect(at.socket).toMatch(/^\\\\\.\\pipe\\tracemaker-[0-9a-f]{12}-[0-9a-f]{16}$/);
    expect(at.socket).toBe(hostPaths(at.dir, KICAD_PIPE, 'demo.kicad_pcb', 'win32').socket);
    expect(at.log).toBe(`${at.dir}\\host-${at.key}.log`);

    // Started as the launcher starts it: output into its log, the same file it logs to.
    const logPath = fromDriveC(at.log);
    const fd = openSync(logPath, 'a');
    host = spawn(
      WINE,
      [
        nodeExe(),
        winPath(join(pluginDir, 'tracemaker.js')),
        'kicad',
        'host',
        '--socket',
        at.socket,
        '--kicad-socket',
        at.kicadSocket,
        '--board',
        'demo.kicad_pcb',
        '--log',
        at.log,
        '--idle-seconds',
        String(IDLE_SECONDS),
      ],
      { stdio: ['ignore', fd, fd], env: wineEnv(), cwd: work },
    );
    closeSync(fd);
    const exited = new Promise<number | null>((resolve) => host!.once('exit', (code) => resolve(code)));
    const log = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '');
    await waitFor('the host to listen', log, (l) => / host \d+ listening for demo\.kicad_pcb /.test(l) || host!.exitCode !== null, 60_000);
    expect(log()).toContain(`listening for demo.kicad_pcb (KiCad ${KICAD_PIPE})`);

    const askOut = join(work, 'ask.json');
    const asked = wine([nodeExe(), winPath(probe), 'ask', winPath(askOut), at.socket]);
    expect(asked.code, asked.stderr).toBe(0);
    const { live, answer } = JSON.parse(readFileSync(askOut, 'utf8'));
    expect(live).toBe(true);
    // A well-formed result from the host (not the launcher's own "lost the host"): it ran the check and
    // found no KiCad on KiCad's pipe.
    expect(answer).toMatchObject({ ok: false, code: 'failed', timing: { total_ms: expect.any(Number) } });
    expect(answer.message).toContain(`No KiCad API socket at ${KICAD_PIPE}`);
    expect(log()).toMatch(/\n\S+ action check\n/);
    // The log holds each message as a JSON string (a message has lines).
    expect(log()).toContain(`→ failed: ${JSON.stringify(answer.message)}`);

    // Nothing more to do: the host stops itself once idle and takes its pipe with it.
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), (IDLE_SECONDS + 30) * 1000))]);
    expect(code).toBe(0);
    expect(log()).toMatch(/ host \d+ stopping: idle\n/);
    const after = join(work, 'ask-after.json');
    writeFileSync(after, '');
    const again = wine([nodeExe(), winPath(probe), 'ask', winPath(after), at.socket]);
    expect(again.code, again.stderr).toBe(0);
    const gone = JSON.parse(readFileSync(after, 'utf8'));
    expect(gone.live).toBe(false);
    expect(gone.answer.message).toMatch(/^TraceMaker lost its host\n/);
  });
});
