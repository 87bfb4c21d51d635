// A route port that runs the router on one long-lived worker thread, so the host's event loop
// stays free while a route runs: progress reaches the page live and Cancel reaches the router
// (a shared flag the worker's shouldStop reads between searches). The worker loads the design
// from the same file texts as the session, so its results are the same bytes as in-thread.
// Where the worker script is not built (running from source), routes run in this thread.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DesignFiles } from '../../engine/kicad/load.ts';
import { routeDesign, type RouteRequest, type RouteResult } from '../../engine/route/index.ts';
import type { RoutePort } from './route-monitor.ts';
import type { WorkerReply, WorkerJob, WorkerSetup } from './route-worker.ts';

/** The worker script beside the bundled CLI (scripts/build.mjs writes both into dist/). */
const SCRIPT = new URL('./panel-route-worker.js', import.meta.url);

/** How often the main thread passes a shouldStop answer on to the worker's flag. */
const STOP_POLL_MS = 50;

export class RouteThread {
  readonly #files: DesignFiles;
  readonly #script: URL;
  #worker: Worker | undefined;
  #next = 1;
  #pending = new Map<number, { resolve(r: RouteResult): void; reject(e: Error): void; request: RouteRequest }>();

  constructor(files: DesignFiles, script: URL = SCRIPT) {
    this.#files = files;
    this.#script = script;
  }

  /** Whether routes will run on the worker (its script exists). */
  get threaded(): boolean {
    return existsSync(fileURLToPath(this.#script));
  }

  port(): RoutePort {
    if (!this.threaded) return async (design, request) => routeDesign(design, request);
    return (_design, request) => this.#route(request);
  }

  close(): void {
    void this.#worker?.terminate();
    this.#worker = undefined;
  }

  #start(): Worker {
    const setup: WorkerSetup = { tracemakerPanelRoute: true, files: this.#files };
    const w = new Worker(this.#script, { workerData: setup, argv: [] });
    w.unref();
    w.on('message', (m: WorkerReply) => {
      const p = this.#pending.get(m.id);
      if (!p) return;
      if (m.kind === 'progress') p.request.onProgress?.(m.progress);
      else {
        this.#pending.delete(m.id);
        if (m.kind === 'result') p.resolve(m.result);
        else p.reject(new Error(`route worker: ${m.message}`));
      }
    });
    const fail = (e: Error) => {
      for (const p of this.#pending.values()) p.reject(e);
      this.#pending.clear();
      this.#worker = undefined;
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`route worker exited with code ${code}`)));
    return w;
  }

  #route(request: RouteRequest): Promise<RouteResult> {
    this.#worker ??= this.#start();
    const id = this.#next++;
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const plain: RouteRequest = { ...request };
    delete plain.shouldStop;
    delete plain.onProgress;
    const poll = setInterval(() => {
      if (request.shouldStop?.()) Atomics.store(flag, 0, 1);
    }, STOP_POLL_MS);
    return new Promise<RouteResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, request });
      const job: WorkerJob = { id, request: plain, stop: flag.buffer as SharedArrayBuffer };
      this.#worker!.postMessage(job);
    }).finally(() => clearInterval(poll));
  }
}
