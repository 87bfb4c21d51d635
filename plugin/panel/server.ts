// The panel's HTTP host: node:http on 127.0.0.1 (a random port unless told), every path under
// a random token, the page's files, a JSON API over the panel's actions and an event stream.
// `startPanelServer` is what `tracemaker panel`, `tracemaker session --view` and the KiCad host
// call; it owns no session, only a view of one.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallContext, Session } from '../../engine/session/session.ts';
import { type ActionResult, PanelActions } from './actions.ts';
import type { EditorBridge } from './bridge.ts';
import { EventHub } from './events.ts';
import { isRequestName, parseRequest, readBody, type HttpError, type RequestName } from './requests.ts';
import { RouteMonitor } from './route-monitor.ts';
import { Gate, newToken, refuse, SECURITY_HEADERS } from './security.ts';
import { DEFAULT_UI_DIR, StaticFiles } from './static-files.ts';

export interface PanelServerOptions {
  /** The session to show; asked on every request, so a host that rebuilds its session keeps its panel. */
  session(): Session;
  /** The live editor (KiCad host); absent for a board file alone. */
  bridge?: EditorBridge;
  /** Watch only: every change, save and cancel is refused. */
  readOnly?: boolean;
  /** True when `save` has a file to write (named on the command line). */
  canSave?: boolean;
  /** 0 or absent: a random free port. */
  port?: number;
  /** Where index.html, app.js and app.css are (default: dist/ui beside the bundle). */
  uiDir?: string;
}

export interface PanelServer {
  /** http://127.0.0.1:PORT/TOKEN/ — the only address that opens the panel. */
  url: string;
  /** Tells open pages the session changed (call after changes made elsewhere: editor, agent). */
  notify(): void;
  /** Pages connected now (their event streams). */
  readonly pages: number;
  /** Runs a route call made elsewhere (an agent, the editor's button) so open pages see its
   *  progress and, unless read-only, can cancel it: `call` passes the context to Session.call. */
  watch<T>(call: (cx: CallContext) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, e: HttpError): void {
  sendJson(res, e.status, { error: { code: e.code, message: e.message } });
}

function sendResult(res: ServerResponse, r: ActionResult): void {
  if (r.ok) sendJson(res, 200, r.body);
  else sendError(res, r.error);
}

export async function startPanelServer(opts: PanelServerOptions): Promise<PanelServer> {
  const token = newToken();
  const files = new StaticFiles(opts.uiDir ?? DEFAULT_UI_DIR);
  const hub = new EventHub();
  const monitor = new RouteMonitor();
  const cancellable = !opts.readOnly;
  let last = { session: opts.session(), state: opts.session().states.current.id };
  const changed = (state: number) => {
    last = { session: opts.session(), state };
    hub.send({ type: 'changed', state });
  };
  const actions = new PanelActions({ session: opts.session, bridge: opts.bridge, readOnly: opts.readOnly, canSave: opts.canSave, monitor }, changed, (what) =>
    hub.send({ type: 'busy', busy: what !== null, what: what ?? '', cancellable }),
  );
  // Routes started elsewhere (an agent in --view, the editor's own button) show progress too.
  const unlisten = monitor.listen((e) => {
    if (e.type === 'progress') hub.send(e);
    else if (actions.busy === null) hub.send({ type: 'busy', busy: e.type === 'start', what: e.type === 'start' ? 'route' : '', cancellable });
  });

  async function post(action: RequestName, req: IncomingMessage): Promise<ActionResult> {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return { ok: false, error: { status: 415, code: 'bad_argument', message: `${action}: send the body as application/json` } };
    }
    const body = await readBody(req);
    if (!body.ok) return { ok: false, error: body.error };
    const parsed = parseRequest(action, body.value);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const v = parsed.value as never;
    switch (action) {
      case 'focus':
        return actions.focus(v);
      case 'render':
        return actions.render(v);
      case 'route':
        return actions.route(v);
      case 'route_selection':
        return actions.routeSelection();
      case 'rip':
        return actions.rip(v);
      case 'check':
        return actions.check();
      case 'restore':
        return actions.restore(v);
      case 'undo':
        return actions.undo();
      case 'save':
        return actions.save();
      case 'cancel':
        return actions.cancel();
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, gate: Gate): Promise<void> {
    const g = gate.check(req);
    if (!g.ok) return refuse(res, g.status, g.message);
    const path = g.path;
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (path === '/api/snapshot') return sendResult(res, await actions.snapshot());
      if (path === '/api/events') {
        const busy = actions.busy ?? (monitor.running ? 'route' : null);
        return hub.attach(res, [{ type: 'busy', busy: busy !== null, what: busy ?? '', cancellable }]);
      }
      if (files.missing) return refuse(res, 500, files.missing);
      const f = files.get(path);
      if (!f) return refuse(res, 404, 'not found');
      res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': f.type, 'Content-Length': f.body.length });
      res.end(req.method === 'HEAD' ? undefined : f.body);
      return;
    }
    if (req.method === 'POST' && path.startsWith('/api/')) {
      const action = path.slice(5);
      if (!isRequestName(action)) return refuse(res, 404, 'not found');
      return sendResult(res, await post(action, req));
    }
    res.setHeader('Allow', 'GET, HEAD, POST');
    refuse(res, 405, 'method not allowed');
  }

  let gate: Gate | undefined;
  const server = createServer((req, res) => {
    handle(req, res, gate!).catch(() => {
      // A bug, not a caller's mistake: answer plainly without the text (it may quote board data).
      if (!res.headersSent) sendError(res, { status: 500, code: 'failed', message: 'internal error; the session is unchanged' });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  gate = new Gate(token, port);
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    notify() {
      const state = opts.session().states.current.id;
      if (state !== last.state || opts.session() !== last.session) changed(state);
    },
    watch: (call) => monitor.run(call),
    get pages() {
      return hub.clients;
    },
    close() {
      unlisten();
      hub.close();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
