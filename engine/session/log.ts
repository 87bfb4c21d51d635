// The session log as JSON lines, and its replay. A header names the board (by the digest of
// its text) and the work limit; each call line holds the tool, its arguments as sent, the
// digest of the result, the state id and the state's copper digest, and a chain digest over
// the previous line's chain and this line, so any edit to the file is caught even where the
// edited call would happen to give the same answer. Text only: the plugin owns the file.

import { fnv1a64 } from './digest.ts';
import type { CallRecord, Session } from './session.ts';

export const LOG_VERSION = 1;

export interface LogHeader {
  tracemaker_session_log: number;
  board: string;
  work_limit: number | null;
  chain: string;
}

export interface LogLine extends CallRecord {
  seq: number;
  chain: string;
}

function chained(prev: string, body: object): string {
  return fnv1a64(JSON.stringify(body), prev);
}

/** Builds the lines of a log, one call at a time. */
export class LogWriter {
  #chain: string;
  #seq = 0;

  constructor(boardText: string, workLimit: number | undefined) {
    const body = { tracemaker_session_log: LOG_VERSION, board: fnv1a64(boardText), work_limit: workLimit ?? null };
    this.#chain = chained('0000000000000000', body);
    this.header = JSON.stringify({ ...body, chain: this.#chain });
  }

  readonly header: string;

  line(r: CallRecord): string {
    const body = { seq: ++this.#seq, tool: r.tool, args: r.args, result: r.result, state: r.state, state_digest: r.state_digest };
    this.#chain = chained(this.#chain, body);
    return JSON.stringify({ ...body, chain: this.#chain });
  }
}

export type ReplayOutcome = { ok: true; calls: number } | { ok: false; line: number; seq?: number; tool?: string; message: string };

/** Reads the header; throws a plain Error (the CLI's usage error) when it is not a log. */
export function readLogHeader(text: string): LogHeader {
  const first = text.split('\n', 1)[0];
  let h: LogHeader;
  try {
    h = JSON.parse(first) as LogHeader;
  } catch {
    throw new Error('line 1: not a tracemaker session log (not JSON)');
  }
  if (h?.tracemaker_session_log !== LOG_VERSION) throw new Error('line 1: not a tracemaker session log of this version');
  return h;
}

/**
 * Runs a log's calls again on a fresh session over the same board and stops at the first line
 * whose chain, result digest or state digest differs, naming it. `boardText` is checked against
 * the header first.
 */
export async function replay(text: string, boardText: string, session: Session): Promise<ReplayOutcome> {
  const lines = text.split('\n').filter((l, i) => i === 0 || l.trim() !== '');
  const header = readLogHeader(text);
  const { chain: headChain, ...headBody } = header;
  let chain = chained('0000000000000000', headBody);
  if (chain !== headChain) return { ok: false, line: 1, message: 'the header was changed (chain digest differs)' };
  if (header.board !== fnv1a64(boardText)) return { ok: false, line: 1, message: 'the log was made on a different board' };
  if ((header.work_limit ?? undefined) !== session.options.workLimit) return { ok: false, line: 1, message: 'the log was made with a different work limit' };
  for (let i = 1; i < lines.length; i++) {
    let rec: LogLine;
    try {
      rec = JSON.parse(lines[i]) as LogLine;
    } catch {
      return { ok: false, line: i + 1, message: 'not JSON' };
    }
    const { chain: given, ...body } = rec;
    chain = chained(chain, body);
    const where = { line: i + 1, seq: rec.seq, tool: typeof rec.tool === 'string' ? rec.tool : undefined };
    if (given !== chain || rec.seq !== i) return { ok: false, ...where, message: 'the line was changed, removed or reordered (chain digest differs)' };
    await session.dispatch(rec.tool, rec.args);
    const got = session.lastRecord!;
    if (got.result !== rec.result) return { ok: false, ...where, message: `the result differs (digest ${got.result}, log ${rec.result})` };
    if (got.state !== rec.state || got.state_digest !== rec.state_digest)
      return { ok: false, ...where, message: `the state differs (digest ${got.state_digest}, log ${rec.state_digest})` };
  }
  return { ok: true, calls: lines.length - 1 };
}
