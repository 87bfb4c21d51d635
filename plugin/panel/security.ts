// The panel's front door: the random token every path carries, the Host and Origin checks that
// keep other web pages (and DNS-rebinding tricks) out, and the headers every answer gets.
// A request either passes with the path after the token, or gets a refusal as a value.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A fresh URL-safe token of 192 random bits. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export type GateResult = { ok: true; path: string } | { ok: false; status: 403; message: string };

/** The page loads only its own files, talks only to this host, and may not be framed. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Gate {
  readonly #token: string;
  readonly #hosts: Set<string>;
  readonly #origins: Set<string>;

  /** `port` is the port actually bound (after listening on port 0). */
  constructor(token: string, port: number) {
    this.#token = token;
    this.#hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.#origins = new Set([...this.#hosts].map((h) => `http://${h}`));
  }

  /**
   * Checks one request. The URL path must start with /TOKEN/; the Host header must name this
   * listener (a rebinding page's Host is its own name); an Origin, when the browser sends one,
   * must be this page's; a browser's cross-site fetch metadata is refused outright.
   */
  check(req: IncomingMessage): GateResult {
    const host = req.headers.host ?? '';
    if (!this.#hosts.has(host)) return { ok: false, status: 403, message: 'forbidden: unexpected Host' };
    const origin = req.headers.origin;
    if (origin !== undefined && !this.#origins.has(origin)) return { ok: false, status: 403, message: 'forbidden: foreign Origin' };
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') return { ok: false, status: 403, message: 'forbidden: cross-site request' };
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = q >= 0 ? raw.slice(0, q) : raw;
    const slash = path.indexOf('/', 1);
    const first = slash > 0 ? path.slice(1, slash) : path.slice(1);
    if (!sameText(first, this.#token))
      return { ok: false, status: 403, message: 'forbidden: open the panel with the address TraceMaker printed (it carries a token)' };
    return { ok: true, path: slash > 0 ? path.slice(slash) : '/' };
  }
}

export function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(message + '\n');
}
