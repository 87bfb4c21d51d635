// The panel's HTTP request bodies: one strict zod schema per action, and the reader that turns
// a request into a validated value or a 400/413/415 error value. Nothing here names a file:
// the page can ask for board items by name only, never for paths.

import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { ErrorCode } from '../../engine/session/errors.ts';

/** Bodies are small JSON objects; a megabyte is far past any real one. */
export const MAX_BODY_BYTES = 1 << 20;

const name = z.string().min(1).max(256);
const coord = z.number().min(-1500).max(1500);

export const REQUESTS = {
  focus: z
    .object({
      net: name,
      a: name.describe('REF.PIN or "zone"'),
      b: name,
      at_mm: z.tuple([coord, coord]).optional().describe('where the router located the trouble'),
      select: z.boolean().optional().describe('also select the pads in the editor (default true)'),
    })
    .strict(),
  render: z.object({ box_mm: z.tuple([coord, coord, coord, coord]) }).strict(),
  route: z.object({ nets: z.array(name).min(1).max(64).optional() }).strict(),
  route_selection: z.object({}).strict(),
  rip: z.object({ net: name }).strict(),
  check: z.object({}).strict(),
  restore: z.object({ state: z.number().int().min(0) }).strict(),
  undo: z.object({}).strict(),
  save: z.object({}).strict(),
  cancel: z.object({}).strict(),
} as const;

export type RequestName = keyof typeof REQUESTS;
export type RequestBody<N extends RequestName> = z.output<(typeof REQUESTS)[N]>;

export function isRequestName(s: string): s is RequestName {
  return Object.hasOwn(REQUESTS, s);
}

/** An HTTP error as a value: status and the `{error}` body the page shows. */
export interface HttpError {
  status: number;
  /** The session's error codes, which the panel's own checks reuse. */
  code: ErrorCode;
  message: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: HttpError };

function bad(status: number, code: HttpError['code'], message: string): { ok: false; error: HttpError } {
  return { ok: false, error: { status, code, message } };
}

/** Reads the body up to MAX_BODY_BYTES; a longer body is cut off and reported, not buffered. */
export function readBody(req: IncomingMessage): Promise<Parsed<string>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) over = true;
      else chunks.push(c);
    });
    req.on('end', () =>
      resolve(over ? bad(413, 'limit', `request body over ${MAX_BODY_BYTES} bytes`) : { ok: true, value: Buffer.concat(chunks).toString('utf8') }),
    );
    req.on('error', () => resolve(bad(400, 'bad_argument', 'request body could not be read')));
  });
}

/** Validates a request's JSON body against the action's schema; messages name the key. */
export function parseRequest<N extends RequestName>(action: N, text: string): Parsed<RequestBody<N>> {
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    return bad(400, 'bad_argument', `${action}: request body is not valid JSON (${e instanceof Error ? e.message : 'parse error'})`);
  }
  const r = REQUESTS[action].safeParse(json);
  if (r.success) return { ok: true, value: r.data as RequestBody<N> };
  const issue = r.error.issues[0];
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
  const key = path.map(String).join('.');
  const what = issue.code === 'unrecognized_keys' ? `unknown key "${key}"` : key ? `key "${key}": ${issue.message}` : issue.message;
  return bad(400, 'bad_argument', `${action}: ${what}`);
}
