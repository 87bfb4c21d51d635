// The three toolbar actions as the host runs them: route the selected nets (route through the session
// with verify "refuse", detect a board edited meanwhile, write back in one commit), check before commit
// (the board's DRC now and what a route of the selection would add), and the panel summary. Each returns
// a result value with a sentence for the user; KiCad being busy or refusing is a result, not a crash.
// Also which nets a selection means (the nets of pads, copper, zones, and every pad of a footprint).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesignFiles } from '../../engine/kicad/load.ts';
import type { Design } from '../../engine/board/design.ts';
import { withPartners } from '../../engine/board/diff-pairs.ts';
import { type ErrorValue, isErrorValue } from '../../engine/session/errors.ts';
import type { RouteDoneResult } from '../../engine/session/results.ts';
import { addedErrors } from '../../engine/session/transaction.ts';
import type { CallContext, Session, SessionPorts } from '../../engine/session/session.ts';
import { KicadBusyError, KicadApiError, type BoardItem, type KicadClient } from '../../ipc/index.ts';
import { sessionPorts } from '../session-host.ts';
import { BoardSync, type LiveBoard, type SyncReport } from './board-sync.ts';
import { TextGlyphCache } from './text-glyphs.ts';
import { count, message, sentence, lockedFootprintsNote, lockedNote } from './outcomes.ts';
import { DEFAULT_SETTINGS, settingsPath, type HostSettings } from './settings.ts';
import { commitMessage, copperDiff, writeBack, WriteBackError } from './write-back.ts';

export type ActionName = 'route-selected' | 'check' | 'open-panel';
export const ACTION_NAMES: readonly ActionName[] = ['route-selected', 'check', 'open-panel'];

export interface ActionRequest {
  action: ActionName;
  /** Nets by name instead of the editor's selection. */
  nets?: string[];
  /** A route's progress and stop callbacks (the launcher's progress window and its Cancel), and
   *  whether a stop was asked for (the result then says what was kept). */
  watch?: CallContext & { cancelled?: () => boolean };
}

export interface ActionResult {
  ok: boolean;
  /** Machine-readable outcome: routed, nothing_selected, unknown_nets, already_routed, not_routed, refused, board_changed, busy, failed, checked, summary. */
  code: string;
  /** One or two sentences for the user. */
  message: string;
  details?: Record<string, unknown>;
  /** Milliseconds per phase, and how the board was synced. */
  timing: Record<string, number | string>;
}

export interface ActionContext {
  client(): Promise<KicadClient>;
  sync: BoardSync;
  log(line: string): void;
  /** The user's settings, read on each action (default: DEFAULT_SETTINGS). */
  settings?: () => HostSettings;
}

/**
 * The session's ports inside the host: those of `tracemaker session` (the router on the same
 * worker pool, the DRC, the writer) over the live board's texts the session was built from,
 * without a file to save to.
 */
export function hostPorts(design: Design, files: DesignFiles, log: (line: string) => void): SessionPorts {
  return sessionPorts(design, files, {
    save: () => {
      throw new Error('the KiCad host writes into the editor, not to a file');
    },
    internalError: (tool, e) => log(`session ${tool}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  });
}

const glyphCaches = new WeakMap<KicadClient, TextGlyphCache>();

/**
 * The live board: KiCad's text of it (unsaved edits included), the project files beside it, and the
 * glyphs of its copper texts as the editor draws them (asked again only when the text changed).
 */
export async function readLive(client: KicadClient, log?: (line: string) => void): Promise<LiveBoard> {
  const doc = await client.board();
  const text = await client.boardText();
  const stem = join(doc.projectPath, doc.boardFilename.replace(/\.kicad_pcb$/, ''));
  const read = (ext: string) => (existsSync(stem + ext) ? readFileSync(stem + ext, 'utf8') : undefined);
  let cache = glyphCaches.get(client);
  if (!cache) glyphCaches.set(client, (cache = new TextGlyphCache()));
  const textGlyphs = await cache.read(client, text, log);
  return { text, path: join(doc.projectPath, doc.boardFilename), project: read('.kicad_pro'), dru: read('.kicad_dru'), textGlyphs };
}

class Timer {
  readonly t0 = performance.now();
  readonly marks: Record<string, number | string> = {};
  #last = this.t0;
  lap(name: string): void {
    const now = performance.now();
    this.marks[name] = Math.round(((this.marks[name] as number | undefined) ?? 0) + now - this.#last);
    this.#last = now;
  }
  done(): Record<string, number | string> {
    return { ...this.marks, total_ms: Math.round(performance.now() - this.t0) };
  }
}

/** Runs one action; every expected failure comes back as a result. */
export async function runAction(ctx: ActionContext, req: ActionRequest): Promise<ActionResult> {
  const timer = new Timer();
  try {
    if (req.action === 'route-selected') return await routeSelected(ctx, req, timer);
    if (req.action === 'check') return await checkBoard(ctx, req, timer);
    return await panelSummary(ctx, timer);
  } catch (err) {
    if (err instanceof KicadBusyError || (err instanceof KicadApiError && (err.code === 'AS_BUSY' || err.code === 'AS_NOT_READY'))) {
      return {
        ok: false,
        code: 'busy',
        message: message('KiCad is busy: nothing was written', 'Close the open dialog or finish the current tool (press Esc), then press the button again.'),
        timing: timer.done(),
      };
    }
    if (err instanceof WriteBackError) {
      return {
        ok: false,
        code: 'failed',
        message: message(
          `KiCad did not keep the route${err.reverted ? ': nothing was written' : ''}`,
          sentence(err.message),
          err.reverted ? 'The commit was undone.' : 'Undo it with Ctrl+Z.',
        ),
        timing: timer.done(),
      };
    }
    ctx.log(`action ${req.action} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const what = err instanceof Error ? err.message : String(err);
    return { ok: false, code: 'failed', message: message('TraceMaker failed: nothing was written', sentence(what)), timing: timer.done() };
  }
}

async function syncNow(ctx: ActionContext, client: KicadClient, timer: Timer): Promise<{ live: LiveBoard; sync: SyncReport }> {
  const live = await readLive(client, ctx.log);
  timer.lap('read_ms');
  const sync = ctx.sync.sync(live);
  timer.lap('sync_ms');
  timer.marks.sync = sync.kind;
  return { live, sync };
}

const NOTHING_SELECTED =
  'Nothing is selected: select pads, tracks, footprints or zones of the nets to route, then press the button again. Nothing was written.';
const NO_NETS = 'The selection has no nets: the selected pads or copper belong to no net, so there is nothing to connect. Nothing was written.';

/** What the user chose: nets by name (--nets), or the editor's selection and the nets it holds. */
interface Chosen {
  nets: string[];
  /** The editor's selection, when the nets came from it. */
  selection: BoardItem[] | null;
}

async function choose(client: KicadClient, req: ActionRequest): Promise<Chosen> {
  if (req.nets) return { nets: req.nets, selection: null };
  const selection = await client.selection();
  return { nets: netsOfSelection(selection), selection };
}

/** Nothing to route in what was chosen: an empty selection, or one whose items have no net. */
function nothingChosen(chosen: Chosen, timer: Timer): ActionResult | null {
  if (chosen.nets.length > 0) return null;
  if (chosen.selection && chosen.selection.length > 0) return { ok: false, code: 'no_nets', message: NO_NETS, timing: timer.done() };
  return { ok: false, code: 'nothing_selected', message: NOTHING_SELECTED, timing: timer.done() };
}

/**
 * The route's nets in one order whatever order the editor listed the selection in (KiCad's
 * selection order depends on how it was made): by net code, as the board's net table has them.
 */
export function canonicalNets(nets: readonly string[], netByName: ReadonlyMap<string, number>): string[] {
  return [...new Set(nets)].sort((a, b) => (netByName.get(a) ?? 0) - (netByName.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Nets with unrouted connections whose pads all sit on locked footprints and that the user did not
 * choose: KiCad's default selection filter leaves locked footprints out of a Ctrl+A or a drag, so a
 * selection of footprints silently misses them. Asked only when the selection holds footprints.
 */
async function lockedOut(client: KicadClient, s: Session, chosen: Chosen, routing: ReadonlySet<string>): Promise<string[]> {
  if (!chosen.selection?.some((i) => i.kind === 'footprint')) return [];
  const locked = new Map<string, boolean>();
  for (const fp of await client.footprints()) {
    for (const pad of fp.pads) if (pad.net !== '') locked.set(pad.net, (locked.get(pad.net) ?? true) && fp.locked);
  }
  const st = s.states.current;
  const open = new Set(s.open(st.copper, st.digest, true).map((c) => s.design.board.nets[c.net]?.name ?? ''));
  return [...locked]
    .filter(([net, all]) => all && open.has(net) && !routing.has(net))
    .map(([net]) => net)
    .sort();
}

async function routeSelected(ctx: ActionContext, req: ActionRequest, timer: Timer): Promise<ActionResult> {
  const client = await ctx.client();
  const chosen = await choose(client, req);
  timer.lap('selection_ms');
  const none = nothingChosen(chosen, timer);
  if (none) return none;
  let { live, sync } = await syncNow(ctx, client, timer);
  const byName = ctx.sync.session.design.board.netByName;
  const unknown = unknownNets(chosen.nets, byName);
  if (unknown.length > 0) {
    return {
      ok: false,
      code: 'unknown_nets',
      message: `The board has no net named ${unknown.map((n) => JSON.stringify(n)).join(', ')}. Nothing was written.`,
      timing: timer.done(),
    };
  }
  // One net of a differential pair selected means the pair, as in KiCad's own pair router.
  const nets = canonicalNets(withPartners(chosen.nets, byName), byName);
  const skipped = await lockedOut(client, ctx.sync.session, chosen, new Set(nets));
  const settings = ctx.settings?.() ?? DEFAULT_SETTINGS;
  for (let attempt = 0; ; attempt++) {
    const s = ctx.sync.session;
    const before = s.states.current;
    const r = await s.call('route', { nets, verify: 'refuse' }, req.watch ?? {});
    timer.lap('route_ms');
    if (isErrorValue(r)) return { ok: false, code: 'failed', message: `The router refused: ${r.error.message}. Nothing was written.`, timing: timer.done() };
    if (!r.committed) return refusal(r, nets, timer, skipped, req.watch?.cancelled?.() === true);
    const after = s.states.current;
    // The user may have edited the board while the router worked: look again before writing.
    const again = await readLive(client, ctx.log);
    timer.lap('recheck_ms');
    if (again.text !== live.text || again.project !== live.project || again.dru !== live.dru) {
      s.states.restore(before.id, { tool: 'sync', args: { reason: 'the board changed while routing: nothing was written' } });
      if (attempt > 0 || req.watch?.cancelled?.() === true)
        return {
          ok: false,
          code: 'board_changed',
          message: 'The board kept changing while routing: nothing was written. Try again when the editor is idle.',
          timing: timer.done(),
        };
      ctx.log('board changed while routing: re-reading and routing once more');
      live = again;
      sync = ctx.sync.sync(live);
      timer.lap('sync_ms');
      timer.marks.resynced = sync.kind;
      continue;
    }
    const board = s.design.board;
    const diff = copperDiff(board, before.copper, after.copper);
    const removeIds = ctx.sync.uuidsOf(board, diff.removed).filter((u): u is string => u !== undefined);
    const routedNets = orderedNets(
      nets,
      diff.added.map((i) => board.nets['track' in i ? i.track.net : i.via.net]?.name ?? ''),
    );
    const label = commitMessage(routedNets);
    let written;
    try {
      written = await writeBack(client, board, diff, removeIds, label, { locked: settings.lockNewCopper });
    } catch (err) {
      s.states.restore(before.id, { tool: 'sync', args: { reason: 'KiCad did not take the commit: nothing was written' } });
      throw err;
    }
    timer.lap('write_ms');
    ctx.sync.forget(removeIds);
    ctx.sync.recordWritten(
      board,
      written.uuids.map((uuid, i) => ({ uuid, item: diff.added[i] })),
    );
    const tracks = diff.added.filter((i) => 'track' in i).length;
    const vias = diff.added.length - tracks;
    const cancelled = req.watch?.cancelled?.() === true;
    const unrouted = r.open_after > 0 ? `, ${count(r.open_after, 'connection')} still unrouted` : '';
    const first = `${cancelled ? 'Stopped; kept' : 'Routed'} ${count(routedNets.length, 'net')}: ${count(tracks, 'track')}, ${count(vias, 'via')}${unrouted}`;
    return {
      ok: true,
      code: cancelled ? 'cancelled' : 'routed',
      message: message(
        first,
        `One Ctrl+Z takes it back ("${label}" in Edit ▸ Undo).`,
        cancelled && 'You pressed Cancel: the best complete result found until then was written.',
        // After a Cancel the router's reason for an unrouted connection is the stop (it reads as a
        // spent budget), so the message says so instead.
        r.open_after > 0 &&
          (cancelled
            ? `The ${count(r.open_after, 'connection')} still unrouted ${r.open_after === 1 ? 'was' : 'were'} left when you pressed Cancel.`
            : firstReason(r)),
        ...r.pair_notes.map(sentence),
        skipped.length > 0 && sentence(lockedFootprintsNote(skipped)),
        settings.lockNewCopper && sentence(lockedNote(settingsPath(process.env))),
      ),
      details: {
        commit: label,
        nets: routedNets,
        tracks,
        vias,
        removed: removeIds.length,
        routed: r.routed,
        open_after: r.open_after,
        open: r.open.slice(0, 10),
        state: r.state,
        sync: sync.why ?? sync.kind,
        locked: settings.lockNewCopper,
        skipped_locked: skipped,
      },
      timing: timer.done(),
    };
  }
}

function orderedNets(selected: string[], got: string[]): string[] {
  const have = new Set(got);
  return selected.filter((n) => have.has(n));
}

/** The first unrouted connection with a reason, as a line of the message ('' when none has one). */
function firstReason(r: RouteDoneResult): string {
  const c = r.open.find((o) => o.why);
  return c ? sentence(`Unrouted: ${c.net} ${c.a}–${c.b}: ${c.why}`) : '';
}

function describeErrors(errors: NonNullable<RouteDoneResult['added_errors']>): string {
  return errors
    .slice(0, 3)
    .map((e) => {
      const ex = e.examples[0];
      const at = ex ? ` at (${ex.at_mm[0]}, ${ex.at_mm[1]}) mm${ex.nets.length ? ` between ${ex.nets.join(' and ')}` : ''}` : '';
      return `${e.count} × ${e.type}${at}`;
    })
    .join('; ');
}

function refusal(r: RouteDoneResult, nets: string[], timer: Timer, skipped: string[], cancelled: boolean): ActionResult {
  const details = { reason: r.reason, connections: r.connections, open: r.open.slice(0, 10), added_errors: r.added_errors, skipped_locked: skipped };
  const lockedLine = skipped.length > 0 && sentence(lockedFootprintsNote(skipped));
  if (r.reason === 'nothing_routed' && r.connections === 0) {
    return {
      ok: false,
      code: 'already_routed',
      message: message(
        `Nothing to route: the selected ${nets.length === 1 ? 'net has' : 'nets have'} no unrouted connections (no ratsnest lines).`,
        lockedLine,
      ),
      details,
      timing: timer.done(),
    };
  }
  if (cancelled) {
    return {
      ok: false,
      code: 'cancelled',
      message: message('Stopped: nothing was written', 'You pressed Cancel before the router had a complete result to keep.', lockedLine),
      details,
      timing: timer.done(),
    };
  }
  if (r.reason === 'adds_drc_errors') {
    return {
      ok: false,
      code: 'refused',
      message: message(
        'Not written: the route would add DRC errors',
        sentence(`It would add ${describeErrors(r.added_errors ?? [])}`),
        'Nothing was written.',
        lockedLine,
      ),
      details,
      timing: timer.done(),
    };
  }
  return {
    ok: false,
    code: 'not_routed',
    message: message(
      `Not routed: the router could not connect the ${count(r.connections, 'unrouted connection')} of the selection`,
      firstReason(r),
      'Nothing was written.',
      lockedLine,
    ),
    details,
    timing: timer.done(),
  };
}

async function checkBoard(ctx: ActionContext, req: ActionRequest, timer: Timer): Promise<ActionResult> {
  const client = await ctx.client();
  const { nets } = await choose(client, req);
  timer.lap('selection_ms');
  await syncNow(ctx, client, timer);
  const s = ctx.sync.session;
  const now = s.ports.drc!(s.design, s.states.current.copper, { full: true });
  // Every error of the board now, in the shape a route reports the errors it would add.
  const errors = addedErrors({ errors: new Map(), unconnected: 0 }, now);
  timer.lap('drc_ms');
  const total = errors.reduce((n, e) => n + e.count, 0);
  const first = `TraceMaker's DRC of the board: ${count(total, 'error')}, ${count(now.unconnected, 'unrouted connection')}`;
  const found = total ? sentence(`Errors: ${describeErrors(errors)}`) : '';
  let dryRun: RouteDoneResult | ErrorValue | undefined;
  let selected = 'Select nets to see what routing them would add.';
  const unknown = unknownNets(nets, s.design.board.netByName);
  if (nets.length > 0 && unknown.length === 0) {
    const pairs = withPartners(nets, s.design.board.netByName);
    dryRun = await s.call('route', { nets: canonicalNets(pairs, s.design.board.netByName), verify: 'report', commit: false });
    timer.lap('route_ms');
    if (!isErrorValue(dryRun)) {
      const added = dryRun.added_errors ?? [];
      const k = pairs.length - nets.length;
      const partners = k > 0 ? ` with ${count(k, 'pair partner')}` : '';
      selected =
        dryRun.connections === 0
          ? `The ${count(nets.length, 'selected net')}${partners} ${nets.length + k === 1 ? 'has' : 'have'} no unrouted connections: nothing to route.`
          : `Routing the ${count(nets.length, 'selected net')}${partners} would connect ${dryRun.routed} of ${count(dryRun.connections, 'unrouted connection')} and add ${added.length ? describeErrors(added) : 'no DRC error'}. Nothing was written.`;
    }
  } else if (unknown.length > 0) {
    selected = `The board has no net named ${unknown.map((n) => JSON.stringify(n)).join(', ')}.`;
  }
  return {
    ok: true,
    code: 'checked',
    message: message(first, found, selected),
    details: { errors, unconnected: now.unconnected, dry_run: dryRun ?? null },
    timing: timer.done(),
  };
}

async function panelSummary(ctx: ActionContext, timer: Timer): Promise<ActionResult> {
  const client = await ctx.client();
  await syncNow(ctx, client, timer);
  const s = ctx.sync.session;
  const info = await s.call('board_info', {});
  const open = await s.call('open_connections', { limit: 10 });
  const history = await s.call('history', {});
  if (isErrorValue(info)) return { ok: false, code: 'failed', message: info.error.message, timing: timer.done() };
  if (isErrorValue(open)) return { ok: false, code: 'failed', message: open.error.message, timing: timer.done() };
  const list = open.connections
    .slice(0, 5)
    .map((c) => `${c.net} ${c.a}–${c.b}`)
    .join('; ');
  const text = message(`${count(info.open_connections, 'unrouted connection')} on the board`, list && `${list}${open.total > 5 ? '; and more' : ''}.`);
  return { ok: true, code: 'summary', message: text, details: { open, history }, timing: timer.done() };
}

// Which nets the user means: the nets of everything selected in the editor, or the names given with
// --nets. Names are data: they are checked against the board's net table, never interpreted.

/** The selected nets, in first-seen order, without the unconnected net "". */
export function netsOfSelection(items: readonly BoardItem[]): string[] {
  const seen = new Set<string>();
  const add = (net: string) => {
    if (net !== '') seen.add(net);
  };
  for (const item of items) {
    switch (item.kind) {
      case 'pad':
      case 'track':
      case 'arc':
      case 'via':
      case 'zone':
      case 'shape':
        add(item.net);
        break;
      case 'footprint':
        for (const pad of item.pads) add(pad.net);
        break;
      case 'other':
        break;
    }
  }
  return [...seen];
}

/** Splits a --nets value ("SDA,SCL" — commas separate, spaces around names are dropped). */
export function parseNetList(value: string): string[] {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  return [...new Set(names)];
}

/** The names in `wanted` that the board does not have (sorted), for a clear error. */
export function unknownNets(wanted: readonly string[], known: ReadonlyMap<string, number>): string[] {
  return wanted.filter((n) => !known.has(n) || known.get(n) === 0).sort();
}
