// The host: one long-lived process per KiCad instance and board that keeps the parsed board, the
// session and its history between clicks. It listens on a per-user channel (host-channel.ts) for one
// JSON line per action from the launcher, runs actions one at a time against KiCad, answers with one
// JSON line, logs to a file (a plugin's stdout goes nowhere), and exits when idle or when KiCad is gone.
// "Open panel" starts the panel's server on the host's session, with the live editor as its bridge; a
// route that leaves connections open opens it too, unless the user's settings say not to.
import { appendFileSync, existsSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { KicadApiError, KicadClient, KicadConnectionError, KicadTimeoutError } from '../../ipc/index.ts';
import { LineFramer } from '../line-framer.ts';
import { openBrowser, type OpenResult } from '../panel/open-browser.ts';
import { startPanelServer, type PanelServer } from '../panel/server.ts';
import { hostPorts, runAction, type ActionContext, type ActionName, type ActionResult } from './actions.ts';
import { BoardSync } from './board-sync.ts';
import { MAX_REQUEST_LINE, parseRequest, type HostRequest } from './host-request.ts';
import { isPipe, listenOn, removeChannel } from './host-channel.ts';
import { KicadEditorBridge } from './editor-bridge.ts';
import { message, seconds } from './outcomes.ts';
import { readSettings, type SettingsRead } from './settings.ts';
import type { RouteProgress } from '../../engine/route/index.ts';

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

/** A progress line the host sends a launcher that asked for them, before its answer line. */
export interface ProgressLine {
  progress: { phase: 'starting' | 'routing'; made: number; connections: number; elapsed_ms: number };
}

/** The launcher's route the host is running (or has queued): one at a time. */
interface RunningRoute {
  started: number;
  /** Connections the route holds made, of how many (its latest progress). */
  made: number;
  connections: number;
  stop: boolean;
}

export class Host {
  readonly #opts: HostOptions;
  readonly #sync: BoardSync;
  #server: Server | null = null;
  #client: KicadClient | null = null;
  /** The token of the KiCad instance to talk to ('' = learn it from KiCad's first reply). */
  #token = '';
  /** The token of the instance the session was read from: another instance is another board's history. */
  #attached = '';
  #route: RunningRoute | null = null;
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
    const framer = new LineFramer(MAX_REQUEST_LINE);
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
      if (req.action === 'cancel') {
        sock.end(JSON.stringify(this.#logged(this.#cancel())) + '\n');
        return;
      }
      // A second click while a route runs is answered at once (the launcher offers Cancel or Wait),
      // never queued behind the first.
      if (this.#route) {
        sock.end(JSON.stringify(this.#logged(this.#runningAnswer(this.#route))) + '\n');
        return;
      }
      const route = req.action === 'route-selected' ? (this.#route = { started: Date.now(), made: 0, connections: 0, stop: false }) : null;
      const send = (p: ProgressLine['progress']) => {
        if (req.progress && !sock.destroyed) sock.write(JSON.stringify({ progress: p } satisfies ProgressLine) + '\n');
      };
      if (route) send({ phase: 'starting', made: 0, connections: 0, elapsed_ms: 0 });
      const action = req.action;
      void this.enqueue(() => this.#run({ ...req, action }, route, send))
        .finally(() => {
          if (route && this.#route === route) this.#route = null;
        })
        .then((result) => {
          this.#touch();
          if (!sock.destroyed) sock.end(JSON.stringify(result) + '\n');
        });
    });
  }

  // Asks the running route to stop after its current search; the route then keeps what it completed.
  #cancel(): ActionResult {
    const r = this.#route;
    if (!r) return { ok: true, code: 'nothing_running', message: 'No route is running: nothing to cancel.', timing: {} };
    r.stop = true;
    this.log('cancel asked');
    return {
      ok: true,
      code: 'cancel_asked',
      message: message('Stopping the route', 'The router stops after its current search and writes the best complete result it has, or nothing.'),
      timing: {},
    };
  }

  #runningAnswer(r: RunningRoute): ActionResult {
    const elapsed = Date.now() - r.started;
    const at = r.connections > 0 ? `, ${r.made} of ${r.connections} connections made` : '';
    return {
      ok: false,
      code: 'route_running',
      message: message(
        `A route is already running (${seconds(elapsed)}${at})`,
        r.stop ? 'It is stopping: you pressed Cancel.' : 'Cancel it to keep what it has completed, or wait for it to finish.',
      ),
      details: { elapsed_ms: elapsed, made: r.made, connections: r.connections, stopping: r.stop },
      timing: {},
    };
  }

  /** Runs `fn` after every earlier action (launcher requests and panel clicks share one queue). */
  enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  context(): ActionContext {
    return { client: () => this.#kicad(), sync: this.#sync, log: (l) => this.log(l), settings: () => this.#settings().settings };
  }

  #settings(): SettingsRead {
    const read = (this.#opts.settings ?? (() => readSettings(process.env)))();
    if (!read.ok) this.log(read.message);
    return read;
  }

  async #run(req: HostRequest & { action: ActionName }, route: RunningRoute | null, send: (p: ProgressLine['progress']) => void): Promise<ActionResult> {
    this.log(`action ${req.action}${req.nets ? ` nets=${JSON.stringify(req.nets)}` : ''}`);
    if (req.token && req.token !== this.#token) {
      this.#client?.close();
      this.#client = null;
      this.#token = req.token;
    }
    const watch = route
      ? {
          onProgress: (p: RouteProgress) => {
            route.made = p.made;
            route.connections = p.connections;
            send({ phase: 'routing', made: p.made, connections: p.connections, elapsed_ms: Date.now() - route.started });
          },
          shouldStop: () => route.stop,
          cancelled: () => route.stop,
        }
      : undefined;
    let result = await runAction(this.context(), { action: req.action, ...(req.nets ? { nets: req.nets } : {}), ...(watch ? { watch } : {}) });
    // Every action reconciled the session with the editor (an undo there included): show it.
    this.#panel?.notify();
    if (req.action === 'open-panel' && result.ok) result = await this.#openPanel(result);
    else if (leavesOpen(result)) result = await this.#panelAfterRoute(result);
    // A broken connection is not reused: the next action connects afresh.
    if (result.code === 'failed') {
      this.#client?.close();
      this.#client = null;
    }
    return this.#logged(result);
  }

  /** Every answer goes to the host's log as it is sent, so a person (and a test) can read it again. */
  #logged(result: ActionResult): ActionResult {
    this.log(`→ ${result.code}: ${JSON.stringify(result.message)} ${JSON.stringify(result.timing)}`);
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
    return { ...summary, code: 'panel', message: `${how}\n${summary.message}`, details: { ...summary.details, url } };
  }

  // After a route that left connections open the panel says why; not when the user turned that off,
  // and no second tab when a page is already showing it (it was just told of the change).
  async #panelAfterRoute(result: ActionResult): Promise<ActionResult> {
    const read = this.#settings();
    if (!read.settings.openPanelAfterRoute || (this.#panel && this.#panel.pages > 0)) return result;
    const { url } = await this.#ensurePanel();
    const opened = await this.#show(url);
    const how = opened.ok
      ? 'The panel in your browser shows why each connection stayed unrouted.'
      : `The panel at ${url} shows why each connection stayed unrouted.`;
    return { ...result, message: `${result.message}\n${how}`, details: { ...result.details, url } };
  }

  // A connection to KiCad, checked with a ping. KiCad's token names its instance: a KiCad started
  // again on the same socket path (after a crash) answers the old token with AS_TOKEN_MISMATCH, so
  // the host drops the connection, learns the new token from the new instance's first reply and
  // re-attaches: the session it kept belongs to the old instance's board and undo history, so the
  // next sync reads the board afresh.
  async #kicad(): Promise<KicadClient> {
    if (this.#client) {
      try {
        await this.#client.ping();
        return this.#client;
      } catch (err) {
        const mismatch = err instanceof KicadApiError && err.code === 'AS_TOKEN_MISMATCH';
        if (!(mismatch || err instanceof KicadConnectionError || err instanceof KicadTimeoutError)) throw err;
        this.log(`KiCad connection dropped: ${(err as Error).message}`);
        this.#client.close();
        this.#client = null;
        if (mismatch) this.#token = '';
      }
    }
    let client: KicadClient;
    try {
      client = await this.#connect();
    } catch (err) {
      if (!(err instanceof KicadApiError && err.code === 'AS_TOKEN_MISMATCH')) throw err;
      // The launcher's token is not this instance's either (a stale launch): learn the instance's own.
      this.#token = '';
      client = await this.#connect();
    }
    await client.ping();
    if (this.#attached !== '' && client.token !== this.#attached) {
      this.log(`KiCad instance changed (token ${this.#attached.slice(0, 8)}… → ${client.token.slice(0, 8)}…): re-attaching and reading the board afresh`);
      this.#sync.detach();
    }
    this.#attached = client.token;
    this.#token = client.token;
    this.#client = client;
    return client;
  }

  #connect(): Promise<KicadClient> {
    return KicadClient.connect({
      socket: this.#opts.kicadSocket,
      token: this.#token,
      clientName: 'tracemaker',
      boardFilename: this.#opts.boardFilename,
      busyTimeoutMs: 2_000,
    });
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
