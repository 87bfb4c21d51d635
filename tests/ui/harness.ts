// What the browser tests share: a panel host started from the built command on a bench board
// (`node dist/tracemaker.js panel BOARD`, engine only), and Debian's Chromium driven headless
// by playwright-core with a throwaway profile. Both are stopped by pid / close, never by name.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'tracemaker.js');
export const ARTIFACTS = join(ROOT, 'tests', 'artifacts', 'ui');
export const CHROMIUM = process.env.TRACEMAKER_CHROMIUM ?? '/usr/bin/chromium';

export interface PanelHost {
  url: string;
  /** Everything the host wrote to stderr so far (for failure messages). */
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `tracemaker panel BOARD …` and waits for the URL on its first line of stdout. */
export async function startPanelHost(board: string, extra: string[] = []): Promise<PanelHost> {
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'dist', 'ui', 'app.js'))) throw new Error('build first: npm run build');
  const child: ChildProcess = spawn(process.execPath, [CLI, 'panel', board, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`panel host printed no URL in 30 s; stderr: ${err}`)), 30_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        res(out.slice(0, nl));
      }
    });
    child.once('exit', (code) => rej(new Error(`panel host exited (${code}) before printing its URL; stderr: ${err}`)));
  });
  return {
    url,
    stderr: () => err,
    stop: () =>
      new Promise<void>((res) => {
        if (child.exitCode !== null) return res();
        child.once('exit', () => res());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}

export interface Chrome {
  browser: Browser;
  context(opts?: { dark?: boolean }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * Debian's Chromium, headless. playwright-core gives launch() a fresh temporary profile of its
 * own (it refuses a --user-data-dir argument), and its TMPDIR is ours so it goes with close().
 */
export async function startChrome(): Promise<Chrome> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: run scripts/install-system.sh`);
  const profile = mkdtempSync(join(tmpdir(), 'tm-chrome-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, TMPDIR: profile },
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    browser,
    context: (opts = {}) => browser.newContext({ viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1, colorScheme: opts.dark ? 'dark' : 'light' }),
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
