// The host: one long-lived process per KiCad instance and board that keeps the parsed board, the
// session and its history between clicks. It listens on a per-user Unix socket (mode 0600) for one
// JSON line per action from the launcher, runs actions one at a time against KiCad, answers with one
// JSON line, logs to a file (a plugin's stdout goes nowhere), and exits when idle or when KiCad is gone.
// "Open panel" starts the panel's server on the host's session, with the live editor as its bridge.
import { appendFileSync, chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { KicadClient, KicadConnectionError, KicadTimeoutError } from '../../ipc/index.ts';
import { LineFramer } from '../line-framer.ts';
import type { Session } from '../../engine/session/session.ts';
import { openBrowser } from '../panel/open-browser.ts';
import { startPanelServer, type PanelServer } from '../panel/server.ts';
import { ACTION_NAMES, hostPorts, runAction, type ActionContext, type ActionName, type ActionResult } from './actions.ts';
import { BoardSync } from './board-sync.ts';
import { KicadEditorBridge } from './editor-bridge.ts';

export interface HostOptions {
  /** The host's own socket. */
  socket: string;
  /** KiCad's API socket (a path or ipc:// URL). */
  kicadSocket: string;
  /** The board file KiCad has open (as GetOpenDocuments names it). */
  boardFilename: string;
  log: string;
  /** Exit after this long without a request, ms. */
  idleMs: number;
}

/** What the launcher sends: the action, optional nets, and KiCad's token from its environment. */
export interface HostRequest {
  action: ActionName;
  nets?: string[];
  token: string;
}

const MAX_LINE = 1 << 20;

/** Checks a request line from the socket; a bad one is answered with an error, never run. */
export function parseRequest(line: string): HostRequest | string {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return 'the request is not JSON';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'the request must be a JSON object';
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !['action', 'nets', 'token'].includes(k));
  if (extra.length) return `unknown key "${extra[0].slice(0, 40)}"`;
  if (typeof o.action !== 'string' || !(ACTION_NAMES as readonly string[]).includes(o.action)) return `"action" must be one of ${ACTION_NAMES.join(', ')}`;
  if (typeof o.token !== 'string') return '"token" must be a string';
  if (o.nets !== undefined && (!Array.isArray(o.nets) || o.nets.length > 64 || o.nets.some((n) => typeof n !== 'string' || n.length === 0 || n.length > 256))) {
    return '"nets" must be a list of at most 64 net names';
  }
  return { action: o.action as ActionName, token: o.token, ...(o.nets ? { nets: o.nets as string[] } : {}) };
}

export class Host {
  readonly #opts: HostOptions;
  readonly #sync: BoardSync;
  #server: Server | null = null;
  #client: KicadClient | null = null;
  #token = '';
  #queue: Promise<unknown> = Promise.resolve();
  #idle: NodeJS.Timeout | null = null;
  #watch: NodeJS.Timeout | null = null;
  #closed: () => void = () => undefined;
  #panel: { server: PanelServer; session: Session } | null = null;
  readonly closed: Promise<void>;

  constructor(opts: HostOptions) {
    this.#opts = opts;
    this.#sync = new BoardSync(() => hostPorts((l) => this.log(l)));
    this.closed = new Promise((resolve) => {
      this.#closed = resolve;
    });
  }

  log(line: string): void {
    try {
      appendFileSync(this.#opts.log, `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
    } catch {
      // The log is a convenience; a full disk must not stop a route.
    }
  }

  /** Listens; resolves false when another live host already answers on the socket. */
  async start(): Promise<boolean> {
    if (existsSync(this.#opts.socket)) {
      if (await answers(this.#opts.socket)) return false;
      unlinkSync(this.#opts.socket);
    }
    const server = createServer((sock) => this.#serve(sock));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#opts.socket, () => resolve());
    });
    chmodSync(this.#opts.socket, 0o600);
    this.#server = server;
    this.log(`host ${process.pid} listening for ${this.#opts.boardFilename} (KiCad ${this.#opts.kicadSocket})`);
    this.#touch();
    // KiCad closed (its socket gone): nothing left to serve.
    this.#watch = setInterval(() => {
      if (!existsSync(this.#opts.kicadSocket.replace(/^ipc:\/\//, ''))) void this.stop('KiCad is gone');
    }, 5_000);
    this.#watch.unref();
    return true;
  }

  async stop(why: string): Promise<void> {
    if (!this.#server) return;
    this.log(`host ${process.pid} stopping: ${why}`);
    const server = this.#server;
    this.#server = null;
    if (this.#idle) clearTimeout(this.#idle);
    if (this.#watch) clearInterval(this.#watch);
    this.#client?.close();
    await this.#panel?.server.close();
    this.#panel = null;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    try {
      unlinkSync(this.#opts.socket);
    } catch {
      // Already gone.
    }
    this.#closed();
  }

  #touch(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => void this.stop('idle'), this.#opts.idleMs);
  }

  #serve(sock: Socket): void {
    const framer = new LineFramer(MAX_LINE);
    let handled = false;
    sock.on('error', () => sock.destroy());
    sock.on('data', (chunk: Buffer) => {
      if (handled) return;
      const frame = framer.push(chunk)[0];
      if (!frame) return;
      handled = true;
      if (frame.kind === 'too_long') {
        sock.end(JSON.stringify(failure('the request line is too long')) + '\n');
        return;
      }
      const req = parseRequest(frame.text);
      if (typeof req === 'string') {
        sock.end(JSON.stringify(failure(req)) + '\n');
        return;
      }
      this.#touch();
      void this.enqueue(() => this.#run(req)).then((result) => {
        this.#touch();
        if (!sock.destroyed) sock.end(JSON.stringify(result) + '\n');
      });
    });
  }

  /** Runs `fn` after every earlier action (launcher requests and panel clicks share one queue). */
  enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  context(): ActionContext {
    return { client: () => this.#kicad(), sync: this.#sync, log: (l) => this.log(l) };
  }

  async #run(req: HostRequest): Promise<ActionResult> {
    this.log(`action ${req.action}${req.nets ? ` nets=${JSON.stringify(req.nets)}` : ''}`);
    if (req.token && req.token !== this.#token) {
      this.#client?.close();
      this.#client = null;
      this.#token = req.token;
    }
    let result = await runAction(this.context(), req);
    if (req.action === 'open-panel' && result.ok) result = await this.#openPanel(result);
    else this.#panel?.server.notify();
    // A broken connection is not reused: the next action connects afresh.
    if (result.code === 'failed') {
      this.#client?.close();
      this.#client = null;
    }
    this.log(`→ ${result.code}: ${result.message} ${JSON.stringify(result.timing)}`);
    return result;
  }

  // The panel shows one session; when a rebuild replaced it, the old panel is closed and a new one
  // (new address) opened, so a page never shows a session the host no longer keeps.
  async #openPanel(summary: ActionResult): Promise<ActionResult> {
    const session = this.#sync.session;
    if (this.#panel && this.#panel.session !== session) {
      await this.#panel.server.close();
      this.#panel = null;
    }
    if (!this.#panel) {
      const server = await startPanelServer({ session, bridge: new KicadEditorBridge(this) });
      this.#panel = { server, session };
      this.log(`panel at ${server.url.replace(/\/[^/]+\/$/, '/…/')}`);
    }
    const url = this.#panel.server.url;
    const opened = await openBrowser(url);
    const how = opened.ok ? 'The panel is open in your browser' : `Open the panel at ${url}`;
    return { ...summary, code: 'panel', message: `${how}. ${summary.message}`, details: { ...summary.details, url } };
  }

  async #kicad(): Promise<KicadClient> {
    if (this.#client) {
      try {
        await this.#client.ping();
        return this.#client;
      } catch (err) {
        if (!(err instanceof KicadConnectionError || err instanceof KicadTimeoutError)) throw err;
        this.#client.close();
        this.#client = null;
      }
    }
    this.#client = await KicadClient.connect({
      socket: this.#opts.kicadSocket, token: this.#token, clientName: 'tracemaker',
      boardFilename: this.#opts.boardFilename, busyTimeoutMs: 2_000,
    });
    return this.#client;
  }
}

function failure(message: string): ActionResult {
  return { ok: false, code: 'failed', message: `bad request: ${message}`, timing: {} };
}

/** Whether something answers on a Unix socket (a live host), within 500 ms. */
export function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ path });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    setTimeout(() => done(false), 500).unref();
  });
}
