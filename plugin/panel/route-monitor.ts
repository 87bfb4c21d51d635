// Live progress and cancellation for the session's route port. The session's `route` tool takes
// no callbacks, so the panel wraps the port the session was built with: the wrapper adds
// onProgress (forwarded to listeners, at most ten a second) and shouldStop (true once the
// page pressed Cancel), which the router polls between searches.

import type { SessionPorts } from '../../engine/session/session.ts';

export type RoutePort = SessionPorts['route'];

export type MonitorEvent =
  | { type: 'start' }
  | { type: 'progress'; done: number; total: number; work: number }
  | { type: 'end'; cancelled: boolean };

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

  /** The port with progress and cancellation added; the caller's own callbacks still run. */
  wrap(port: RoutePort): RoutePort {
    return async (design, request) => {
      this.#cancel = false;
      this.#running = true;
      this.#emit({ type: 'start' });
      let last = 0;
      let cancelled = false;
      try {
        return await port(design, {
          ...request,
          shouldStop: () => {
            cancelled ||= this.#cancel;
            return this.#cancel || (request.shouldStop?.() ?? false);
          },
          onProgress: (p) => {
            request.onProgress?.(p);
            const now = Date.now();
            if (now - last < PROGRESS_EVERY_MS && p.done < p.total) return;
            last = now;
            this.#emit({ type: 'progress', done: p.done, total: p.total, work: p.work });
          },
        });
      } finally {
        this.#running = false;
        this.#cancel = false;
        this.#emit({ type: 'end', cancelled });
      }
    };
  }

  #emit(e: MonitorEvent): void {
    for (const f of this.#listeners) f(e);
  }
}
