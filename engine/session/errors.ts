// Tool errors: inside the session a failed call throws a ToolError with one of six codes; the
// single `call` entry point turns it into the `{error: {code, message}}` value both transports
// send. Messages are fixed templates plus argument keys: names read from the board never go in.

/** not_supported: this session lacks what the call needs (a render to PNG without a rasteriser). */
export type ErrorCode = 'bad_argument' | 'unknown_name' | 'limit' | 'not_allowed' | 'not_supported' | 'failed';

export interface ErrorValue {
  error: { code: ErrorCode; message: string };
}

export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export function errorValue(code: ErrorCode, message: string): ErrorValue {
  return { error: { code, message } };
}

export function isErrorValue(v: unknown): v is ErrorValue {
  return typeof v === 'object' && v !== null && 'error' in v && typeof (v as ErrorValue).error?.code === 'string';
}

/** A key path as the caller wrote it (`hints.layers[2]`), clipped so a hostile key stays short. */
export function keyPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else s += s ? `.${String(p)}` : String(p);
  }
  const clean = s.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 64 ? clean.slice(0, 61) + '...' : clean;
}
