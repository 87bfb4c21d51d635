// The JSON-lines transport: one `{"tool", "args"}` object a line in, one result object a line
// out, in order. Framing and parsing are pure (bytes in, lines out); the stdio and socket
// adapters only move bytes. Bad requests get the same error values tool errors use.

import { type ErrorValue, errorValue } from '../engine/session/errors.ts';
import { MAX_LINE_BYTES } from '../engine/session/limits.ts';
import { LineFramer } from './line-framer.ts';

export type Call = (tool: string, args: unknown) => Promise<object>;

/** A request line → its tool and arguments, or the error to answer with. */
export function parseRequest(text: string): { tool: string; args: unknown } | ErrorValue {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return errorValue('bad_argument', 'request: not valid JSON (send one {"tool": ..., "args": {...}} object a line)');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return errorValue('bad_argument', 'request: expected a JSON object {"tool": ..., "args": {...}}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'tool' && k !== 'args') return errorValue('bad_argument', 'request: unknown key (only "tool" and "args")');
  if (typeof o.tool !== 'string') return errorValue('bad_argument', 'request: "tool" must be a string');
  return { tool: o.tool, args: o.args };
}

/** Serves one stream of request lines; `send` gets each answer line (with its newline). */
export class JsonLinesServer {
  readonly #framer = new LineFramer(MAX_LINE_BYTES);
  #queue: Promise<void> = Promise.resolve();

  constructor(
    readonly call: Call,
    readonly send: (line: string) => void,
    /** Told about each request and answer (the relay's transcript). */
    readonly onExchange?: (request: string, answer: string) => void,
  ) {}

  /** Feeds bytes; the returned promise settles when every line completed so far is answered. */
  push(chunk: Uint8Array): Promise<void> {
    for (const f of this.#framer.push(chunk)) this.#enqueue(f.kind === 'line' ? f.text : null, f.kind === 'too_long' ? f.bytes : 0);
    return this.#queue;
  }

  end(): Promise<void> {
    for (const f of this.#framer.end()) this.#enqueue(f.kind === 'line' ? f.text : null, f.kind === 'too_long' ? f.bytes : 0);
    return this.#queue;
  }

  #enqueue(text: string | null, bytes: number): void {
    if (text !== null && text.trim() === '') return;
    this.#queue = this.#queue.then(async () => {
      let answer: object;
      if (text === null) answer = errorValue('limit', `request: line of ${bytes} bytes is over the ${MAX_LINE_BYTES}-byte cap`);
      else {
        const req = parseRequest(text);
        answer = 'error' in req ? req : await this.call(req.tool, req.args);
      }
      const line = JSON.stringify(answer);
      this.onExchange?.(text ?? `<${bytes} bytes>`, line);
      this.send(line + '\n');
    });
  }
}
