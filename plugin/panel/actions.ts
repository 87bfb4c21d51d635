// What the panel's buttons do, each through the session's own tools (`session.call`): a
// snapshot for the page, the picture of a connection's spot, route / rip / undo / restore as
// changes (one at a time; with an editor, each is written to it as one commit, and a refused
// commit puts the session back), check, save and cancel. The page's own looks are not logged
// (`record: false`): a session log holds what its driver did. Results are HTTP-shaped values.

import { type ErrorCode, isErrorValue } from '../../engine/session/errors.ts';
import type { InspectPadResult } from '../../engine/session/results.ts';
import type { CallOptions, Session } from '../../engine/session/session.ts';
import { type EditorBridge, padName } from './bridge.ts';
import type { RequestBody, HttpError } from './requests.ts';
import type { RouteMonitor } from './route-monitor.ts';

export type ActionResult = { ok: true; body: object } | { ok: false; error: HttpError };

export interface PanelContext {
  /** The session shown now (the KiCad host replaces its session when the board changes). */
  session(): Session;
  /** The live editor; absent when the host runs on a board file alone. */
  bridge?: EditorBridge;
  /** Watching a session someone else drives: look, never change. */
  readOnly?: boolean;
  /** `save` writes the file named on the command line; false where there is none. */
  canSave?: boolean;
  /** Progress and cancellation of the routes the panel starts or watches. */
  monitor: RouteMonitor;
}

/** What the page needs to know to enable its buttons. */
export interface PanelMode {
  editor: boolean;
  read_only: boolean;
  can_save: boolean;
  can_cancel: boolean;
}

/** Margin around a connection's ends in its picture, and the smallest height, mm. */
const FRAME_MARGIN_MM = 1.5;
const FRAME_MIN_MM = 6;
/** Width over height of the picture's frame: the page shows it landscape, so a tall or square
 *  region would leave bands that look like clipped copper. */
const FRAME_ASPECT = 4 / 3;

const STATUS: Record<ErrorCode, number> = { bad_argument: 400, unknown_name: 404, not_allowed: 409, limit: 409, not_supported: 501, failed: 500 };

function fail(status: number, code: HttpError['code'], message: string): ActionResult {
  return { ok: false, error: { status, code, message } };
}

/** A session result, or its error value as an HTTP error. */
function fromTool(r: object): ActionResult {
  if (isErrorValue(r)) return fail(STATUS[r.error.code], r.error.code, r.error.message);
  return { ok: true, body: r };
}

/** The panel's looks at the session: never in its log. */
const LOOK: CallOptions = { record: false };

export class PanelActions {
  readonly #cx: PanelContext;
  readonly #changed: (state: number) => void;
  readonly #busyChanged: (what: string | null) => void;
  #busy: string | null = null;

  /** `changed` is told the new state after every kept change; `busy` when one starts and ends. */
  constructor(cx: PanelContext, changed: (state: number) => void, busy: (what: string | null) => void) {
    this.#cx = cx;
    this.#changed = changed;
    this.#busyChanged = busy;
  }

  get mode(): PanelMode {
    const cx = this.#cx;
    return { editor: !!cx.bridge, read_only: !!cx.readOnly, can_save: !!cx.canSave && !cx.readOnly, can_cancel: !cx.readOnly };
  }

  get busy(): string | null {
    return this.#busy;
  }

  /**
   * Board, open connections (with reasons), the states and the mode, in one answer. With an
   * editor the session is first brought in step with it (the user may have pressed Ctrl+Z there);
   * when that moved it, every open page is told. If the editor cannot be read, the last known
   * state is shown with the reason.
   */
  async snapshot(): Promise<ActionResult> {
    let editor: { ok: boolean; message?: string } | null = null;
    if (this.#cx.bridge && this.#busy === null) {
      const before = { session: this.#cx.session(), state: this.#cx.session().states.current.id };
      const r = await this.#cx.bridge.sync();
      editor = r.ok ? { ok: true } : { ok: false, message: r.message };
      const now = this.#cx.session();
      if (now !== before.session || now.states.current.id !== before.state) this.#changed(now.states.current.id);
    }
    const s = this.#cx.session();
    const board = await s.call('board_info', {}, LOOK);
    if (isErrorValue(board)) return fromTool(board);
    const open = await s.call('open_connections', {}, LOOK);
    if (isErrorValue(open)) return fromTool(open);
    const history = await s.call('history', {}, LOOK);
    if (isErrorValue(history)) return fromTool(history);
    return { ok: true, body: { mode: this.mode, busy: this.#busy, board, open, history, session_nets: this.#sessionNets(), editor } };
  }

  /** Names of the nets the current state has session copper on (where Rip applies). */
  #sessionNets(): string[] {
    const s = this.#cx.session();
    const { copper } = s.states.current;
    const codes = new Set([...copper.tracks.map((t) => t.net), ...copper.vias.map((v) => v.net)]);
    return [...codes].map((n) => s.names.netName(n)).sort();
  }

  /**
   * A connection's spot: its pads' positions, a picture framing both ends (and where the router
   * saw the trouble) with the blockers outlined, and — with an editor — the pads selected there.
   */
  async focus(b: RequestBody<'focus'>): Promise<ActionResult> {
    const s = this.#cx.session();
    const ends = [b.a, b.b].filter((e) => e !== 'zone');
    const pads: Pick<InspectPadResult, 'pad' | 'position_mm' | 'layers'>[] = [];
    for (const e of [...new Set(ends)]) {
      const p = await s.call('inspect_pad', { pad: e, radius_mm: 0.01 }, LOOK);
      if (isErrorValue(p)) return fromTool(p);
      pads.push({ pad: p.pad, position_mm: p.position_mm, layers: p.layers });
    }
    const pts = pads.map((p) => p.position_mm);
    if (b.at_mm) pts.push(b.at_mm);
    const args: Record<string, unknown> = pads.length > 0 ? { pad: pads[0].pad } : { net: b.net };
    if (pts.length > 0) args.box_mm = frame(pts);
    const pic = await s.call('render', args, LOOK);
    if (isErrorValue(pic)) return fromTool(pic);
    let editor: { ok: boolean; message?: string } | null = null;
    if (this.#cx.bridge && b.select !== false) {
      const names = pads.map((p) => padName(p.pad)).filter((n) => n !== undefined);
      const r = await this.#cx.bridge.selectPads(names);
      editor = r.ok ? { ok: true } : { ok: false, message: r.message };
    }
    return { ok: true, body: { pads, picture: pic, editor } };
  }

  async render(b: RequestBody<'render'>): Promise<ActionResult> {
    return fromTool(await this.#cx.session().call('render', { box_mm: b.box_mm }, LOOK));
  }

  route(b: RequestBody<'route'>): Promise<ActionResult> {
    const what = b.nets ? `route ${b.nets.join(', ')}` : 'route all open connections';
    return this.#change(what, () => this.#cx.monitor.run((cx) => this.#cx.session().call('route', b.nets ? { nets: b.nets } : {}, cx)));
  }

  rip(b: RequestBody<'rip'>): Promise<ActionResult> {
    return this.#change(`rip ${b.net}`, () => this.#cx.session().call('rip_net', { net: b.net }));
  }

  restore(b: RequestBody<'restore'>): Promise<ActionResult> {
    return this.#change(`restore state ${b.state}`, () => this.#cx.session().call('restore', { state: b.state }));
  }

  undo(): Promise<ActionResult> {
    return this.#change('undo', () => this.#cx.session().call('undo', {}));
  }

  /** The editor routes its own selection through the same session and commits it itself. */
  async routeSelection(): Promise<ActionResult> {
    const bridge = this.#cx.bridge;
    if (!bridge) return fail(409, 'not_allowed', 'route selection needs KiCad: open the panel from the PCB editor');
    const refused = this.#refuseChange();
    if (refused) return refused;
    this.#setBusy('route the KiCad selection');
    try {
      const r = await bridge.routeSelection();
      if (!r.ok) return fail(502, 'failed', r.message);
      this.#changed(this.#cx.session().states.current.id);
      return { ok: true, body: r.value };
    } finally {
      this.#setBusy(null);
    }
  }

  /** What a commit of the current state would add to the board's DRC, before anything is written. */
  async check(): Promise<ActionResult> {
    return fromTool(await this.#cx.session().call('check', {}, LOOK));
  }

  async save(): Promise<ActionResult> {
    if (!this.mode.can_save) return fail(409, 'not_allowed', 'save: this panel has no output file (start it with --out FILE)');
    const refused = this.#refuseChange();
    if (refused) return refused;
    return fromTool(await this.#cx.session().call('save', {}));
  }

  cancel(): ActionResult {
    if (this.#cx.readOnly) return fail(403, 'not_allowed', 'read-only: this panel watches a session and cannot stop it');
    return { ok: true, body: { cancelling: this.#cx.monitor.cancel() } };
  }

  #refuseChange(): ActionResult | undefined {
    if (this.#cx.readOnly) return fail(403, 'not_allowed', 'read-only: this panel watches a session someone else drives');
    if (this.#busy) return fail(409, 'not_allowed', `busy: ${this.#busy} is still running`);
    return undefined;
  }

  #setBusy(what: string | null): void {
    this.#busy = what;
    this.#busyChanged(what);
  }

  /**
   * One change of state. With an editor, the new state's copper is written as one commit; if the
   * editor refuses it, the session goes back to where it was so the two never disagree.
   */
  async #change(what: string, run: () => Promise<object>): Promise<ActionResult> {
    const refused = this.#refuseChange();
    if (refused) return refused;
    const s = this.#cx.session();
    this.#setBusy(what);
    try {
      const from = s.states.current.id;
      const r = await run();
      if (isErrorValue(r)) return fromTool(r);
      const to = s.states.current.id;
      if (to !== from && this.#cx.bridge) {
        const w = await this.#cx.bridge.applyState({ from, to, message: `TraceMaker: ${what}` });
        if (!w.ok) {
          await s.call('restore', { state: from });
          return fail(502, 'failed', `KiCad did not take the change (${w.message}); the session is back at state ${from}`);
        }
      }
      if (to !== from) this.#changed(to);
      return { ok: true, body: r };
    } finally {
      this.#setBusy(null);
    }
  }
}

/** A landscape box around points, mm, with a margin and a smallest size so a lone pad is not a dot. */
function frame(pts: [number, number][]): [number, number, number, number] {
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of pts) {
    x1 = Math.min(x1, x);
    y1 = Math.min(y1, y);
    x2 = Math.max(x2, x);
    y2 = Math.max(y2, y);
  }
  let h = Math.max(y2 - y1 + 2 * FRAME_MARGIN_MM, FRAME_MIN_MM);
  const w = Math.max(x2 - x1 + 2 * FRAME_MARGIN_MM, h * FRAME_ASPECT);
  h = Math.max(h, w / FRAME_ASPECT);
  const [cx, cy] = [(x1 + x2) / 2, (y1 + y2) / 2];
  return [round(cx - w / 2), round(cy - h / 2), round(cx + w / 2), round(cy + h / 2)];
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
