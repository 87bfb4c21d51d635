// The page's side of the panel's HTTP API: the shapes the host sends (the session's own tool
// results), JSON requests whose errors come back as values, and the live event stream. Every
// URL is relative, so each request carries the token the page's address holds.

export interface Blocker {
  net: string;
  /** Grid sites of the boundary around the stuck end that this net's copper holds. */
  boundary_sites: number;
}

export interface Connection {
  net: string;
  a: string;
  b: string;
  /** For an end on a zone ("zone"): the pad of the zone's piece nearest the other end. */
  a_pad?: string;
  b_pad?: string;
  length_mm: number;
  reason?: 'boxed_in' | 'blocked' | 'no_via_site' | 'budget' | 'unreachable' | 'rule_not_supported';
  why?: string;
  tried?: boolean;
  rips?: number;
  fails?: number;
  blockers?: Blocker[];
  at_mm?: [number, number];
  layer?: string;
}

export interface BoardInfo {
  board: string;
  copper_layers: string[];
  counts: { parts: number; pads: number; nets: number; board: { tracks: number; vias: number }; session: { tracks: number; vias: number } };
  open_connections: number;
  state: number;
  work: { used: number; left: number | null; limit: number | null };
  warnings: string[];
}

export interface HistoryState {
  id: number;
  parent: number | null;
  call: { tool: string; args: Record<string, unknown> } | null;
  routed: number;
  vias: number;
  length_mm: number;
}

/** One call that moved the session between states (history's `moves`). */
export interface HistoryMove {
  n: number;
  tool: string;
  args: Record<string, unknown>;
  from: number;
  to: number;
}

export interface Snapshot {
  mode: { editor: boolean; read_only: boolean; can_save: boolean; can_cancel: boolean };
  busy: string | null;
  board: BoardInfo;
  open: { state: number; total: number; listed: number; connections: Connection[] };
  history: { current: number; states: HistoryState[]; moves: HistoryMove[]; moves_made: number };
  session_nets: string[];
  /** With KiCad: whether the editor could be read just now (else the last known state is shown). */
  editor: { ok: boolean; message?: string } | null;
}

export interface FocusResult {
  pads: { pad: string; position_mm: [number, number]; layers: string[] }[];
  picture: { svg: string; box_mm: [number, number, number, number] };
  editor: { ok: boolean; message?: string } | null;
}

export interface DrcExample {
  nets: string[];
  at_mm: [number, number];
}

export interface CheckResult {
  state: number;
  unconnected: number;
  errors_by_type: Record<string, number>;
  added: { unconnected: number; errors: { type: string; count: number; examples: DrcExample[] }[] };
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
  | { type: 'progress'; done: number; total: number; work: number }
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
