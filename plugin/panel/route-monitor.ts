// Live progress and cancellation of the routes a panel watches. A route call is run through
// `run`, which hands the session call its onProgress (forwarded to listeners, at most ten a
// second) and shouldStop (true once the page pressed Cancel); the session passes both to its
// route port, which runs a watched route off the host's thread so both keep flowing.

import type { CallContext } from '../../engine/session/session.ts';

export type MonitorEvent = { type: 'start' } | { type: 'progress'; made: number; connections: number; work: number } | { type: 'end'; cancelled: boolean };

const PROGRESS_EVERY_MS = 100;

export class RouteMonitor {
  readonly #listeners = new Set<(e: MonitorEvent) => void>();
  #running = false;
  #cancel = false;

  get running(): boolean {
    return this.#running;
  }

  /** Listens to route starts, progress and ends; returns the unsubscribe function. */
  listen(f: (e: MonitorEvent) => void): () => void {
    this.#listeners.add(f);
    return () => this.#listeners.delete(f);
  }

  /** Asks the running route to stop after its current search; false when none runs. */
  cancel(): boolean {
    if (!this.#running) return false;
    this.#cancel = true;
    return true;
  }

  /** Runs one route call (`call` passes the context to `Session.call`), reporting its start, progress and end. */
  async run<T>(call: (cx: CallContext) => Promise<T>): Promise<T> {
    this.#cancel = false;
    this.#running = true;
    this.#emit({ type: 'start' });
    let last = 0;
    let cancelled = false;
    try {
      return await call({
        shouldStop: () => {
          cancelled ||= this.#cancel;
          return this.#cancel;
        },
        onProgress: (p) => {
          const now = Date.now();
          if (now - last < PROGRESS_EVERY_MS) return;
          last = now;
          this.#emit({ type: 'progress', made: p.made, connections: p.connections, work: p.work });
        },
      });
    } finally {
      this.#running = false;
      this.#cancel = false;
      this.#emit({ type: 'end', cancelled });
    }
  }

  #emit(e: MonitorEvent): void {
    for (const f of this.#listeners) f(e);
  }
}
