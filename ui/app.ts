// The panel page: loads a snapshot of the session, draws the header, the counts, the open
// connections, the picture, the check and the states, and wires the buttons to the host's API.
// Live events (progress, busy, changed) keep it current while a route runs or an agent works.

import { get, listen, post, type CheckResult, type Connection, type FocusResult, type HostEvent, type RenderResult, type Snapshot } from './api.ts';
import { arrowKeys, drawList, keyOf, REASONS, reasonOf, type ListView, type SortKey } from './connections.ts';
import { drawCheck } from './drc.ts';
import { byId, fill, h, mmText } from './dom.ts';
import { drawHistory } from './history.ts';
import { showConnection, showLoading, showPlaceholder, showRegion } from './picture.ts';

const NEEDS_KICAD = 'needs KiCad: open the panel from the PCB editor';

let snap: Snapshot | undefined;
let busy: { what: string; cancellable: boolean } | null = null;
/** When the running change started (the page's clock): progress speaks seconds, not work units. */
let busySince = 0;
const view: ListView = { filter: '', reason: '', sort: 'net', selected: null };

const el = {
  board: byId('board-name'),
  counts: byId('board-counts'),
  mode: byId('mode'),
  stats: byId('stats'),
  list: byId('list'),
  listTitle: byId('list-title'),
  filter: byId<HTMLInputElement>('filter'),
  reason: byId<HTMLSelectElement>('reason'),
  sort: byId<HTMLSelectElement>('sort'),
  spot: byId('spot'),
  check: byId('check'),
  history: byId('history'),
  progress: byId('progress'),
  progressText: byId('progress-text'),
  progressBar: byId<HTMLProgressElement>('progress-bar'),
  cancel: byId<HTMLButtonElement>('cancel'),
  status: byId('status'),
  routeAll: byId<HTMLButtonElement>('route-all'),
  routeSel: byId<HTMLButtonElement>('route-selection'),
  checkBtn: byId<HTMLButtonElement>('check-drc'),
  undo: byId<HTMLButtonElement>('undo'),
  save: byId<HTMLButtonElement>('save'),
};

function say(text: string, kind: 'info' | 'ok' | 'error' = 'info'): void {
  el.status.className = `status ${kind}`;
  el.status.textContent = text;
}

/** Why a change cannot run now, or null when it can. */
function changeBlocked(): string | null {
  if (!snap) return 'loading';
  if (snap.mode.read_only) return 'read-only: this panel watches a session an agent drives';
  if (busy) return `busy: ${busy.what}`;
  return null;
}

async function refresh(): Promise<void> {
  const r = await get<Snapshot>('api/snapshot');
  if (!r.ok) return say(r.message, 'error');
  snap = r.value;
  draw();
  if (snap.editor && !snap.editor.ok) say(`Could not read the board in KiCad (${snap.editor.message ?? 'no answer'}); showing the last known state.`, 'error');
}

function draw(): void {
  if (!snap) return;
  const { board, open, history, mode } = snap;
  document.title = `${board.board} — TraceMaker`;
  el.board.textContent = board.board;
  el.counts.textContent = `${board.counts.parts} parts · ${board.counts.pads} pads · ${board.counts.nets} nets · ${board.copper_layers.length} copper layers`;
  el.mode.textContent = mode.read_only ? 'Watching a session · read-only' : mode.editor ? 'Connected to KiCad' : 'Board file · no KiCad';
  el.mode.className = `mode ${mode.read_only ? 'watch' : mode.editor ? 'live' : 'file'}`;

  const cur = history.states.find((s) => s.id === history.current);
  const routed = cur?.routed ?? 0;
  const total = open.total + routed;
  const stat = (label: string, value: string, extra?: HTMLElement) =>
    h('div', { class: 'stat' }, h('span', { class: 'stat-value' }, value), h('span', { class: 'stat-label' }, label), extra);
  const meter = h('progress', { max: Math.max(1, total), value: routed, 'aria-label': 'connections routed' });
  fill(
    el.stats,
    stat('connections routed', `${routed} of ${total}`, meter),
    stat('unrouted', String(open.total)),
    stat('vias added', String(cur?.vias ?? 0)),
    stat('copper added', mmText(cur?.length_mm ?? 0)),
    // The router's effort in its own units means nothing to a user; a share of a set limit does.
    ...(board.work.limit ? [stat('of the work limit used', `${Math.min(100, Math.round((100 * board.work.used) / board.work.limit))} %`)] : []),
  );

  const blocked = changeBlocked();
  const canChange = blocked === null;
  el.routeAll.disabled = !canChange || open.total === 0;
  el.routeAll.title = blocked ?? (open.total === 0 ? 'nothing is unrouted' : 'route every unrouted connection');
  el.routeSel.disabled = !canChange || !mode.editor;
  el.routeSel.title = !mode.editor ? NEEDS_KICAD : (blocked ?? 'route what is selected in KiCad');
  el.undo.disabled = !canChange || !cur || cur.parent === null;
  el.undo.title = blocked ?? 'back to the state this one was made from';
  el.save.disabled = !canChange || !mode.can_save;
  el.save.title = !mode.can_save
    ? mode.editor
      ? 'KiCad owns the file: save from the editor'
      : 'start the panel with --out FILE to save'
    : (blocked ?? 'write this state to the --out file');
  el.checkBtn.disabled = busy !== null;

  // Reasons present, for the filter.
  const present = [...new Set(open.connections.map(reasonOf))].sort();
  const keep = view.reason;
  fill(el.reason, h('option', { value: '' }, 'every reason'), ...present.map((r) => h('option', { value: r }, REASONS[r]?.label ?? r)));
  el.reason.value = present.includes(keep) ? keep : '';
  view.reason = el.reason.value;

  const shown = drawList(el.list, open.connections, view, {
    pick: (c) => void pick(c),
    routeNets: (nets) => void change('route', { nets }, `Routing ${nets.join(' and ')}…`),
    ripNet: (n) => void change('rip', { net: n }, `Ripping ${n}…`),
    changeBlocked,
    sessionNets: new Set(snap.session_nets),
  });
  el.listTitle.textContent = open.total === 0 ? 'Open connections' : `Open connections (${open.total})`;
  if (open.total === 0) fill(el.list, h('p', { class: 'done' }, '✓ Every connection is routed.'));
  else if (shown === 0) fill(el.list, h('p', { class: 'placeholder' }, 'No open connection matches the filter.'));
  if (open.listed < open.total) el.list.append(h('p', { class: 'muted small-text' }, `Showing the first ${open.listed} of ${open.total}.`));

  drawHistory(el.history, history.states, history.moves, history.current, blocked, (id) => void change('restore', { state: id }, `Restoring state #${id}…`));
}

async function pick(c: Connection): Promise<void> {
  view.selected = keyOf(c);
  draw();
  (el.list.querySelector(`button.conn[data-key="${CSS.escape(keyOf(c))}"]`) as HTMLElement | null)?.focus();
  showLoading(el.spot, c);
  const r = await post<FocusResult>('api/focus', { net: c.net, a: c.a_pad ?? c.a, b: c.b_pad ?? c.b, ...(c.at_mm ? { at_mm: c.at_mm } : {}) });
  if (!r.ok) {
    el.spot.removeAttribute('aria-busy');
    return say(r.message, 'error');
  }
  if (view.selected !== keyOf(c)) return;
  showConnection(el.spot, c, r.value, !!snap?.mode.editor);
}

interface ChangeAnswer {
  committed?: boolean;
  reason?: string;
  routed?: number;
  connections?: number;
  open_total?: number;
  state?: number;
  added_errors?: { type: string; count: number }[] | null;
  pair_notes?: string[];
}

const REFUSALS: Record<string, string> = {
  nothing_routed: 'Nothing was kept: the route connected nothing new.',
  adds_drc_errors: 'Nothing was kept: the route would add DRC errors',
  dry_run: 'A dry run: nothing was kept.',
};

async function change(action: 'route' | 'rip' | 'restore' | 'undo' | 'route_selection', body: object, doing: string): Promise<void> {
  const blocked = changeBlocked();
  if (blocked) return say(blocked, 'error');
  say(doing);
  const r = await post<ChangeAnswer>(`api/${action}`, body);
  if (!r.ok) {
    await refresh();
    return say(r.message, 'error');
  }
  const a = r.value;
  await refresh();
  if (action === 'route' || action === 'route_selection') {
    if (a.committed === false) {
      const extra = a.reason === 'adds_drc_errors' && a.added_errors ? ` (${a.added_errors.map((e) => `${e.type} ×${e.count}`).join(', ')}).` : '';
      return say((REFUSALS[a.reason ?? ''] ?? `Nothing was kept (${a.reason}).`) + extra, 'error');
    }
    const pairs = (a.pair_notes ?? []).map((n) => ` ${n}`).join('');
    return say(`Routed ${a.routed ?? 0} of ${a.connections ?? 0} connection(s); ${a.open_total ?? 0} open on the board. State #${a.state}.${pairs}`, 'ok');
  }
  if (action === 'rip') return say(`Ripped. ${a.open_total ?? 0} open. State #${a.state}.`, 'ok');
  say(`Now at state #${a.state}; ${a.open_total ?? 0} open.`, 'ok');
}

async function check(): Promise<void> {
  fill(el.check, h('p', { class: 'muted' }, 'Checking…'));
  el.check.setAttribute('aria-busy', 'true');
  const r = await post<CheckResult>('api/check');
  el.check.removeAttribute('aria-busy');
  if (!r.ok) {
    fill(el.check, h('p', { class: 'warn' }, r.message));
    return;
  }
  drawCheck(el.check, r.value, (title, ex) => void showSpot(title, ex.at_mm));
}

async function showSpot(title: string, at: [number, number]): Promise<void> {
  const d = 2.5;
  const r = await post<RenderResult>('api/render', { box_mm: [at[0] - d, at[1] - d, at[0] + d, at[1] + d] });
  if (!r.ok) return say(r.message, 'error');
  view.selected = null;
  draw();
  showRegion(el.spot, title, r.value);
}

function onEvent(e: HostEvent): void {
  if (e.type === 'busy') {
    busy = e.busy ? { what: e.what, cancellable: e.cancellable } : null;
    el.progress.hidden = !e.busy;
    if (e.busy) {
      busySince = Date.now();
      el.progressText.textContent = `${e.what.replace(/^./, (c) => c.toUpperCase())}…`;
      el.progressBar.removeAttribute('value');
      el.cancel.disabled = !e.cancellable;
      el.cancel.title = e.cancellable ? 'stop after the current search and keep what is clean' : 'this route cannot be cancelled from here';
      el.cancel.textContent = 'Cancel';
    }
    draw();
  } else if (e.type === 'progress') {
    el.progress.hidden = false;
    el.progressBar.max = Math.max(1, e.connections);
    el.progressBar.value = e.made;
    el.progressText.textContent = `Routing: ${e.made} of ${e.connections} connections made · ${Math.round((Date.now() - busySince) / 1000)} s`;
  } else if (e.type === 'changed') {
    void refresh();
  }
}

function wire(): void {
  el.filter.addEventListener('input', () => {
    view.filter = el.filter.value;
    draw();
  });
  el.reason.addEventListener('change', () => {
    view.reason = el.reason.value;
    draw();
  });
  el.sort.addEventListener('change', () => {
    view.sort = el.sort.value as SortKey;
    draw();
  });
  el.routeAll.addEventListener('click', () => void change('route', {}, 'Routing every open connection…'));
  el.routeSel.addEventListener('click', () => void change('route_selection', {}, 'Routing the KiCad selection…'));
  el.undo.addEventListener('click', () => void change('undo', {}, 'Undoing…'));
  el.checkBtn.addEventListener('click', () => void check());
  el.save.addEventListener('click', async () => {
    const r = await post<{ state: number; counts: { tracks: number; vias: number } }>('api/save');
    if (r.ok) say(`Saved state #${r.value.state}: ${r.value.counts.tracks} tracks, ${r.value.counts.vias} vias.`, 'ok');
    else say(r.message, 'error');
  });
  el.cancel.addEventListener('click', async () => {
    el.cancel.disabled = true;
    el.cancel.textContent = 'Stopping…';
    const r = await post<{ cancelling: boolean }>('api/cancel');
    if (!r.ok) say(r.message, 'error');
  });
  arrowKeys(el.list);
  document.addEventListener('keydown', (e) => {
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
    if (e.key === '/' && !typing) {
      el.filter.focus();
      e.preventDefault();
    } else if (e.key === 'Escape' && typing) (e.target as HTMLElement).blur();
  });
  // Coming back to the page after working in KiCad (a Ctrl+Z there, say): the host reads the
  // editor's board on every snapshot, so look again.
  window.addEventListener('focus', () => void refresh());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refresh();
  });
  showPlaceholder(
    el.spot,
    'Choose an open connection to see its spot: pads, copper per layer, the open connection as a thin line and the copper that blocks it.',
  );
  fill(el.check, h('p', { class: 'muted' }, 'Check what writing this state would add to the board’s DRC, before anything is written.'));
}

wire();
listen(onEvent, (up) => {
  if (!up) say('Lost the link to the host; retrying…', 'error');
  else if (el.status.textContent?.startsWith('Lost the link')) say('Connected again.', 'ok');
});
void refresh();
