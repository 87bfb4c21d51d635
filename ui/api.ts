// The page's side of the panel's HTTP API: the shapes the host sends (the session's own tool
// results), JSON requests whose errors come back as values, and the live event stream. Every
// URL is relative, so each request carries the token the page's address holds.

import type {
  BlockerJson,
  BoardInfoResult,
  CheckResult as CheckToolResult,
  ConnectionJson,
  HistoryResult,
  InspectPadResult,
  OpenConnectionsResult,
  RenderResult,
} from '../engine/session/results.ts';
import type { PanelMode } from '../plugin/panel/actions.ts';

// The host's answers are the session's own tool results: the same types, imported for their
// shapes only (nothing of the engine is bundled into the page).
export type Blocker = BlockerJson;
export type Connection = ConnectionJson;
export type BoardInfo = BoardInfoResult;
export type HistoryState = HistoryResult['states'][number];
/** One call that moved the session between states (history's `moves`). */
export type HistoryMove = HistoryResult['moves'][number];
export type CheckResult = CheckToolResult;
export type { RenderResult };
export type DrcExample = CheckToolResult['added']['errors'][number]['examples'][number];

export interface Snapshot {
  mode: PanelMode;
  busy: string | null;
  board: BoardInfoResult;
  open: OpenConnectionsResult;
  history: HistoryResult;
  session_nets: string[];
  /** With KiCad: whether the editor could be read just now (else the last known state is shown). */
  editor: { ok: boolean; message?: string } | null;
}

export interface FocusResult {
  pads: Pick<InspectPadResult, 'pad' | 'position_mm' | 'layers'>[];
  picture: RenderResult;
  editor: { ok: boolean; message?: string } | null;
}

export type Result<T> = { ok: true; value: T } | { ok: false; message: string };

async function answer<T>(r: Response): Promise<Result<T>> {
  let body: unknown;
  try {
    body = await r.json();
  } catch {
    return { ok: false, message: `the host answered ${r.status} without JSON` };
  }
  const err = (body as { error?: { message?: string } }).error;
  if (!r.ok || err) return { ok: false, message: err?.message ?? `the host answered ${r.status}` };
  return { ok: true, value: body as T };
}

export async function get<T>(path: string): Promise<Result<T>> {
  try {
    return await answer<T>(await fetch(path, { headers: { Accept: 'application/json' } }));
  } catch {
    return { ok: false, message: 'the host is not answering (was TraceMaker closed?)' };
  }
}

export async function post<T>(path: string, body: object = {}): Promise<Result<T>> {
  try {
    return await answer<T>(await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));
  } catch {
    return { ok: false, message: 'the host is not answering (was TraceMaker closed?)' };
  }
}

export type HostEvent =
  | { type: 'progress'; made: number; connections: number; work: number }
  | { type: 'busy'; busy: boolean; what: string; cancellable: boolean }
  | { type: 'changed'; state: number | null };

/** Listens to the host's events; the browser reconnects by itself after a drop. */
export function listen(onEvent: (e: HostEvent) => void, onLink: (up: boolean) => void): EventSource {
  const es = new EventSource('api/events');
  for (const type of ['progress', 'busy', 'changed']) {
    es.addEventListener(type, (m) => onEvent(JSON.parse((m as MessageEvent<string>).data) as HostEvent));
  }
  es.onopen = () => onLink(true);
  es.onerror = () => onLink(false);
  return es;
}
