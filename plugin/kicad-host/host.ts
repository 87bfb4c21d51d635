// The host: one long-lived process per KiCad instance and board that keeps the parsed board, the
// session and its history between clicks. It listens on a per-user channel (host-channel.ts) for one
// JSON line per action from the launcher, runs actions one at a time against KiCad, answers with one
// JSON line, logs to a file (a plugin's stdout goes nowhere), and exits when idle or when KiCad is gone.
// "Open panel" starts the panel's server on the host's session, with the live editor as its bridge; a
// route that leaves connections open opens it too, unless the user's settings say not to.
import { appendFileSync, existsSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { KicadClient, KicadConnectionError, KicadTimeoutError } from '../../ipc/index.ts';
import { LineFramer } from '../line-framer.ts';
import { openBrowser, type OpenResult } from '../panel/open-browser.ts';
import { startPanelServer, type PanelServer } from '../panel/server.ts';
import { ACTION_NAMES, hostPorts, runAction, type ActionContext, type ActionName, type ActionResult } from './actions.ts';
import { BoardSync } from './board-sync.ts';
import { isPipe, listenOn, removeChannel } from './host-channel.ts';
import { KicadEditorBridge } from './editor-bridge.ts';
import { readSettings, type SettingsRead } from './settings.ts';

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
  /** Opens the panel's URL for the user (default: the desktop's browser, see open-browser.ts). */
  openBrowser?: (url: string) => Promise<OpenResult>;
  /** The user's settings, read on each use (default: the settings file of this environment). */
  settings?: () => SettingsRead;
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
  #panel: PanelServer | null = null;
  readonly closed: Promise<void>;

  constructor(opts: HostOptions) {
    this.#opts = opts;
    this.#sync = new BoardSync((design, files) => hostPorts(design, files, (l) => this.log(l)));
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
    if (await answers(this.#opts.socket)) return false;
    const server = createServer((sock) => this.#serve(sock));
    await listenOn(server, this.#opts.socket);
    this.#server = server;
    this.log(`host ${process.pid} listening for ${this.#opts.boardFilename} (KiCad ${this.#opts.kicadSocket})`);
    this.#touch();
    // KiCad closed (its socket file gone): nothing left to serve. KiCad's Windows pipe has no file to
    // watch; there the idle timeout ends the host.
    const kicadSocket = this.#opts.kicadSocket.replace(/^ipc:\/\//, '');
    if (!isPipe(kicadSocket)) {
      this.#watch = setInterval(() => {
        if (!existsSync(kicadSocket)) void this.stop('KiCad is gone');
      }, 5_000);
      this.#watch.unref();
    }
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
    await this.#panel?.close();
    this.#panel = null;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    removeChannel(this.#opts.socket);
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
    // Every action reconciled the session with the editor (an undo there included): show it.
    this.#panel?.notify();
    if (req.action === 'open-panel' && result.ok) result = await this.#openPanel(result);
    else if (leavesOpen(result)) result = await this.#panelAfterRoute(result);
    // A broken connection is not reused: the next action connects afresh.
    if (result.code === 'failed') {
      this.#client?.close();
      this.#client = null;
    }
    this.log(`→ ${result.code}: ${result.message} ${JSON.stringify(result.timing)}`);
    return result;
  }

  // One panel per host, following whatever session the host keeps (a rebuild replaces it).
  async #ensurePanel(): Promise<PanelServer> {
    if (!this.#panel) {
      this.#panel = await startPanelServer({ session: () => this.#sync.session, bridge: new KicadEditorBridge(this) });
      this.log(`panel at ${this.#panel.url.replace(/\/[^/]+\/$/, '/…/')}`);
    }
    return this.#panel;
  }

  async #show(url: string): Promise<OpenResult> {
    return (this.#opts.openBrowser ?? ((u) => openBrowser(u)))(url);
  }

  async #openPanel(summary: ActionResult): Promise<ActionResult> {
    const { url } = await this.#ensurePanel();
    const opened = await this.#show(url);
    const how = opened.ok ? 'The panel is open in your browser' : `Open the panel at ${url}`;
    return { ...summary, code: 'panel', message: `${how}. ${summary.message}`, details: { ...summary.details, url } };
  }

  // After a route that left connections open the panel says why; not when the user turned that off,
  // and no second tab when a page is already showing it (it was just told of the change).
  async #panelAfterRoute(result: ActionResult): Promise<ActionResult> {
    const read = (this.#opts.settings ?? (() => readSettings(process.env)))();
    if (!read.ok) this.log(read.message);
    if (!read.settings.openPanelAfterRoute || (this.#panel && this.#panel.pages > 0)) return result;
    const { url } = await this.#ensurePanel();
    const opened = await this.#show(url);
    const how = opened.ok ? 'The panel in your browser shows why.' : `The panel at ${url} shows why.`;
    return { ...result, message: `${result.message} ${how}`, details: { ...result.details, url } };
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
      socket: this.#opts.kicadSocket,
      token: this.#token,
      clientName: 'tracemaker',
      boardFilename: this.#opts.boardFilename,
      busyTimeoutMs: 2_000,
    });
    return this.#client;
  }
}

/** A route that ran and left connections of the selection open (a refused one leaves them all). */
function leavesOpen(r: ActionResult): boolean {
  if (r.code === 'not_routed' || r.code === 'refused') return true;
  return r.code === 'routed' && typeof r.details?.open_after === 'number' && r.details.open_after > 0;
}

function failure(message: string): ActionResult {
  return { ok: false, code: 'failed', message: `bad request: ${message}`, timing: {} };
}

/** Whether something answers on a Unix socket or named pipe (a live host), within 500 ms. */
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
