// Server-sent events to every open page: live route progress, busy/idle, and "the state
// changed" (after the panel's own actions, an agent's calls in --view, or the editor host).
// Events carry small JSON objects; a page that falls behind is simply dropped by its socket.

import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './security.ts';

export type PanelEvent =
  | { type: 'progress'; made: number; connections: number; work: number }
  | { type: 'busy'; busy: boolean; what: string; cancellable: boolean }
  | { type: 'changed'; state: number | null };

/** A comment line now and then keeps proxies and idle timers from closing the stream. */
const HEARTBEAT_MS = 15_000;

export class EventHub {
  readonly #clients = new Set<ServerResponse>();
  #timer: NodeJS.Timeout | undefined;

  /** Turns the response into an event stream and keeps it until the page goes away. */
  attach(res: ServerResponse, first: PanelEvent[]): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    for (const e of first) res.write(frame(e));
    this.#clients.add(res);
    res.on('close', () => this.#clients.delete(res));
    this.#timer ??= setInterval(() => {
      for (const c of this.#clients) c.write(': keep-alive\n\n');
    }, HEARTBEAT_MS).unref();
  }

  send(e: PanelEvent): void {
    const text = frame(e);
    for (const c of this.#clients) c.write(text);
  }

  get clients(): number {
    return this.#clients.size;
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    for (const c of this.#clients) c.end();
    this.#clients.clear();
  }
}

function frame(e: PanelEvent): string {
  return `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}
