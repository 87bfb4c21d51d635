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
import type { SessionPorts } from '../../engine/session/session.ts';
import { KicadBusyError, KicadApiError, type BoardItem, type KicadClient } from '../../ipc/index.ts';
import { sessionPorts } from '../session-host.ts';
import { BoardSync, type LiveBoard, type SyncReport } from './board-sync.ts';
import { TextGlyphCache } from './text-glyphs.ts';
import { commitMessage, copperDiff, writeBack, WriteBackError } from './write-back.ts';

export type ActionName = 'route-selected' | 'check' | 'open-panel';
export const ACTION_NAMES: readonly ActionName[] = ['route-selected', 'check', 'open-panel'];

export interface ActionRequest {
  action: ActionName;
  /** Nets by name instead of the editor's selection. */
  nets?: string[];
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
        message: 'KiCad is busy: close the open dialog or finish the current tool, then try again. Nothing was written.',
        timing: timer.done(),
      };
    }
    if (err instanceof WriteBackError) {
      return {
        ok: false,
        code: 'failed',
        message: `${err.message}. ${err.reverted ? 'The commit was undone: nothing was written.' : 'Undo it with Ctrl+Z.'}`,
        timing: timer.done(),
      };
    }
    ctx.log(`action ${req.action} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const what = err instanceof Error ? err.message : String(err);
    return { ok: false, code: 'failed', message: `The action failed: ${what}. Nothing was written.`, timing: timer.done() };
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

async function chosenNets(client: KicadClient, req: ActionRequest): Promise<string[]> {
  return req.nets ?? netsOfSelection(await client.selection());
}

const NOTHING_SELECTED =
  'Nothing is selected: select pads, tracks, footprints or zones of the nets to route, then press the button again. Nothing was written.';

async function routeSelected(ctx: ActionContext, req: ActionRequest, timer: Timer): Promise<ActionResult> {
  const client = await ctx.client();
  const chosen = await chosenNets(client, req);
  timer.lap('selection_ms');
  if (chosen.length === 0) return { ok: false, code: 'nothing_selected', message: NOTHING_SELECTED, timing: timer.done() };
  let { live, sync } = await syncNow(ctx, client, timer);
  const unknown = unknownNets(chosen, ctx.sync.session.design.board.netByName);
  if (unknown.length > 0) {
    return {
      ok: false,
      code: 'unknown_nets',
      message: `The board has no net named ${unknown.map((n) => JSON.stringify(n)).join(', ')}. Nothing was written.`,
      timing: timer.done(),
    };
  }
  // One net of a differential pair selected means the pair, as in KiCad's own pair router.
  const nets = withPartners(chosen, ctx.sync.session.design.board.netByName);
  for (let attempt = 0; ; attempt++) {
    const s = ctx.sync.session;
    const before = s.states.current;
    const r = await s.call('route', { nets, verify: 'refuse' });
    timer.lap('route_ms');
    if (isErrorValue(r)) return { ok: false, code: 'failed', message: `The router refused: ${r.error.message}. Nothing was written.`, timing: timer.done() };
    if (!r.committed) return refusal(r, nets, timer);
    const after = s.states.current;
    // The user may have edited the board while the router worked: look again before writing.
    const again = await readLive(client, ctx.log);
    timer.lap('recheck_ms');
    if (again.text !== live.text || again.project !== live.project || again.dru !== live.dru) {
      s.states.restore(before.id, { tool: 'sync', args: { reason: 'the board changed while routing: nothing was written' } });
      if (attempt > 0)
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
    const message = commitMessage(routedNets);
    let written;
    try {
      written = await writeBack(client, board, diff, removeIds, message);
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
    const open = r.open_after > 0 ? ` ${r.open_after} connection${r.open_after === 1 ? '' : 's'} of the selection stay open${firstReason(r)}.` : '';
    return {
      ok: true,
      code: 'routed',
      message: `${message}: ${tracks} track${tracks === 1 ? '' : 's'}, ${vias} via${vias === 1 ? '' : 's'}, locked. Ctrl+Z takes it back.${open}${r.pair_notes.map((n) => ` ${n}`).join('')}`,
      details: {
        commit: message,
        nets: routedNets,
        tracks,
        vias,
        removed: removeIds.length,
        routed: r.routed,
        open_after: r.open_after,
        open: r.open.slice(0, 10),
        state: r.state,
        sync: sync.why ?? sync.kind,
      },
      timing: timer.done(),
    };
  }
}

function orderedNets(selected: string[], got: string[]): string[] {
  const have = new Set(got);
  return selected.filter((n) => have.has(n));
}

function firstReason(r: RouteDoneResult): string {
  const c = r.open.find((o) => o.why);
  return c ? ` (${c.net} ${c.a}–${c.b}: ${c.why})` : '';
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

function refusal(r: RouteDoneResult, nets: string[], timer: Timer): ActionResult {
  const details = { reason: r.reason, connections: r.connections, open: r.open.slice(0, 10), added_errors: r.added_errors };
  if (r.reason === 'nothing_routed' && r.connections === 0) {
    return {
      ok: false,
      code: 'already_routed',
      message: `The selected net${nets.length === 1 ? ' has' : 's have'} no open connections: nothing to route.`,
      details,
      timing: timer.done(),
    };
  }
  if (r.reason === 'adds_drc_errors') {
    return {
      ok: false,
      code: 'refused',
      message: `The route would add DRC errors (${describeErrors(r.added_errors ?? [])}), so nothing was written.`,
      details,
      timing: timer.done(),
    };
  }
  return {
    ok: false,
    code: 'not_routed',
    message: `The router could not connect the ${r.connections} open connection${r.connections === 1 ? '' : 's'} of the selection${firstReason(r)}. Nothing was written.`,
    details,
    timing: timer.done(),
  };
}

async function checkBoard(ctx: ActionContext, req: ActionRequest, timer: Timer): Promise<ActionResult> {
  const client = await ctx.client();
  const nets = await chosenNets(client, req);
  timer.lap('selection_ms');
  await syncNow(ctx, client, timer);
  const s = ctx.sync.session;
  const now = s.ports.drc!(s.design, s.states.current.copper, { full: true });
  // Every error of the board now, in the shape a route reports the errors it would add.
  const errors = addedErrors({ errors: new Map(), unconnected: 0 }, now);
  timer.lap('drc_ms');
  const total = errors.reduce((n, e) => n + e.count, 0);
  let message = `DRC now: ${total} error${total === 1 ? '' : 's'}${total ? ` (${describeErrors(errors)})` : ''}, ${now.unconnected} unconnected.`;
  let dryRun: RouteDoneResult | ErrorValue | undefined;
  const unknown = unknownNets(nets, s.design.board.netByName);
  if (nets.length > 0 && unknown.length === 0) {
    const pairs = withPartners(nets, s.design.board.netByName);
    dryRun = await s.call('route', { nets: pairs, verify: 'report', commit: false });
    timer.lap('route_ms');
    if (!isErrorValue(dryRun)) {
      const added = dryRun.added_errors ?? [];
      const k = pairs.length - nets.length;
      const partners = k > 0 ? ` with ${k} pair partner${k === 1 ? '' : 's'}` : '';
      message += ` Routing the ${nets.length} selected net${nets.length === 1 ? '' : 's'}${partners} would connect ${dryRun.routed} of ${dryRun.connections} and add ${added.length ? describeErrors(added) : 'no DRC error'}.`;
    }
  } else if (unknown.length > 0) {
    message += ` The board has no net named ${unknown.map((n) => JSON.stringify(n)).join(', ')}.`;
  } else message += ' Select nets to see what a route would add.';
  return { ok: true, code: 'checked', message, details: { errors, unconnected: now.unconnected, dry_run: dryRun ?? null }, timing: timer.done() };
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
    .map((c) => `${c.net} ${c.a}–${c.b}${c.why ? ` (${c.why})` : ''}`)
    .join('; ');
  const message = `${info.open_connections} open connection${info.open_connections === 1 ? '' : 's'}${list ? `: ${list}${open.total > 5 ? '; …' : ''}` : ''}.`;
  return { ok: true, code: 'summary', message, details: { open, history }, timing: timer.done() };
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
