// Runs a route's variants on worker threads: each worker loads the design from the call's file
// texts and routes the variant indices it is given; the main thread keeps the best by the
// engine's fixed order, so the bytes do not depend on the thread count. One thread routes every
// variant in this thread with the same result, unless the caller wants its event loop free.
// Workers stay up between routes on the same texts, keeping their design and obstacle maps (as
// the in-thread path keeps its RouteCache). Progress comes back as messages and a stop reaches the
// workers through a shared flag.

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { loadDesign, type DesignFiles } from '../engine/kicad/load.ts';
import type { Design } from '../engine/board/design.ts';
import {
  callResult,
  routeVariant,
  variantCount,
  variantRequest,
  variantRounds,
  RouteCache,
  type RouteProgress,
  type RouteRequest,
  type RouteResult,
  type RoundVariant,
} from '../engine/route/index.ts';

/** The serializable part of a request (callbacks stay on the main thread). */
export type PlainRequest = Omit<RouteRequest, 'shouldStop' | 'onProgress'>;

/** What a worker is started with: the texts its design is loaded from, once. */
interface Setup {
  tracemakerRouteWorker: true;
  files: DesignFiles;
}

/** One route's share for a worker, posted to it. */
interface Job {
  id: number;
  /** The variants this worker routes in turn, each with its request. */
  variants: { index: number; request: PlainRequest }[];
  /** Int32 flag set by the main thread: 1 = stop after the current search. */
  stop: SharedArrayBuffer;
  /** Whether the main thread listens to progress (posting it costs a message each time). */
  progress: boolean;
}

type Reply = { id: number; kind: 'progress'; progress: RouteProgress } | { id: number; kind: 'result'; results: RouteResult[] };

/** A worker posts progress at most this often; the router reports far more often than anyone reads. */
const PROGRESS_EVERY_MS = 50;
/** How often the main thread passes the caller's shouldStop answer on to the workers' flag. */
const STOP_POLL_MS = 50;

export interface PoolOptions {
  /** Threads for the variants (at most one per variant). */
  threads: number;
  /** The module that calls runRouteWorker() when isRouteWorker() (the bundled CLI); undefined
   *  where there is none (running from the TypeScript sources): then all runs in this thread. */
  script: URL | undefined;
  /** The design loaded from `files`, when the caller holds it: the in-thread path uses it
   *  instead of loading the texts again. */
  design?: Design;
  /** Route on a worker even with one thread, so this thread's event loop stays free (progress
   *  events, a Cancel request). */
  offThread?: boolean;
  /** Kept by the caller across routes on `design`: used by the in-thread path only (a worker
   *  keeps its own copy of the design and its cache while the texts stay the same). */
  cache?: RouteCache;
}

/** True in a worker started by routeWithWorkers; the CLI then does not run its main. */
export function isRouteWorker(): boolean {
  return !isMainThread && (workerData as Setup | undefined)?.tracemakerRouteWorker === true;
}

/** The worker's body: for each job, route the assigned variants on the design loaded once,
 *  posting progress, and post the results. */
export function runRouteWorker(): void {
  const { files } = workerData as Setup;
  let design: Design | undefined;
  const cache = new RouteCache();
  parentPort!.on('message', (job: Job) => {
    const flag = new Int32Array(job.stop);
    let last = 0;
    const live: Pick<RouteRequest, 'shouldStop' | 'onProgress'> = {
      shouldStop: () => Atomics.load(flag, 0) === 1,
      ...(job.progress
        ? {
            onProgress: (progress: RouteProgress) => {
              const now = Date.now();
              if (now - last < PROGRESS_EVERY_MS) return;
              last = now;
              parentPort!.postMessage({ id: job.id, kind: 'progress', progress } satisfies Reply);
            },
          }
        : {}),
    };
    const variants = job.variants.map((v) => ({ index: v.index, request: { ...v.request, ...live } }));
    design ??= loadDesign(files);
    parentPort!.postMessage({ id: job.id, kind: 'result', results: routeInTurn(design, variants, cache) } satisfies Reply);
  });
}

/** Variants in turn on this thread; after a stop no further variant starts (as routeDesign).
 *  They share one world (host, grid, obstacle maps), kept in `cache`: the same bytes, built once. */
function routeInTurn(design: Design, variants: readonly RoundVariant[], cache: RouteCache): RouteResult[] {
  const results: RouteResult[] = [];
  for (const v of variants) {
    results.push(routeVariant(design, v.request, v.index, cache));
    if (v.request.shouldStop?.()) break;
  }
  return results;
}

/**
 * The route workers of the texts last routed, slot k for a round's k-th share. A worker routes its
 * jobs in turn and is held by the event loop only while one is pending, so an idle pool never
 * keeps a process alive. New texts retire the old workers once their jobs are done.
 */
class WarmWorkers {
  #files: DesignFiles | undefined;
  #script: URL | undefined;
  #slots: (Worker | undefined)[] = [];
  #pending = new Map<Worker, number>();
  #nextId = 0;

  run(script: URL, files: DesignFiles, slot: number, job: Omit<Job, 'id'>, onProgress: (p: RouteProgress) => void): Promise<RouteResult[]> {
    if (files !== this.#files || script.href !== this.#script?.href) {
      for (const w of this.#slots) if (w && !this.#pending.has(w)) void w.terminate();
      this.#slots = [];
      this.#files = files;
      this.#script = script;
    }
    let w = this.#slots[slot];
    if (!w) {
      w = new Worker(script, { workerData: { tracemakerRouteWorker: true, files } satisfies Setup, argv: [] });
      w.unref();
      this.#slots[slot] = w;
    }
    return this.#post(w, { ...job, id: ++this.#nextId }, onProgress);
  }

  #post(w: Worker, job: Job, onProgress: (p: RouteProgress) => void): Promise<RouteResult[]> {
    return new Promise((resolve, reject) => {
      const done = () => {
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        const left = this.#pending.get(w)! - 1;
        if (left > 0) {
          this.#pending.set(w, left);
          return;
        }
        this.#pending.delete(w);
        w.unref();
        if (!this.#slots.includes(w)) void w.terminate();
      };
      const onMessage = (m: Reply) => {
        if (m.id !== job.id) return;
        if (m.kind === 'progress') return onProgress(m.progress);
        done();
        resolve(m.results);
      };
      // A worker that failed is not used again: the next route starts a fresh one in its slot.
      const drop = () => {
        this.#slots = this.#slots.map((x) => (x === w ? undefined : x));
      };
      const onError = (err: Error) => {
        drop();
        done();
        reject(err);
      };
      const onExit = (code: number) => {
        drop();
        done();
        reject(new Error(`route worker exited with code ${code}`));
      };
      w.on('message', onMessage);
      w.once('error', onError);
      w.once('exit', onExit);
      this.#pending.set(w, (this.#pending.get(w) ?? 0) + 1);
      w.ref();
      w.postMessage(job);
    });
  }
}

const warm = new WarmWorkers();

/**
 * Routes `call.variants` variants over up to `threads` threads, each within its share of the
 * call's work (variantRequest). Variant i always runs with the same seed, so the kept result is
 * identical for any thread count (unless stopped early). Progress from parallel workers is
 * reported as the most connections any holds made and the summed work.
 */
export async function routeWithWorkers(files: DesignFiles, call: RouteRequest, o: PoolOptions): Promise<RouteResult> {
  const request = variantRequest(call);
  const t = o.script === undefined ? 1 : Math.max(1, Math.min(o.threads, variantCount(request)));
  if (o.script === undefined || (t <= 1 && !o.offThread)) {
    // The caller's cache goes with the caller's design only; rounds share one either way.
    const design = o.design ?? loadDesign(files);
    const cache = (o.design && o.cache) || new RouteCache();
    return routeRounds(request, async (round) => routeInTurn(design, round, cache));
  }

  const stop = new SharedArrayBuffer(4);
  const flag = new Int32Array(stop);
  const poll = request.shouldStop
    ? setInterval(() => {
        if (request.shouldStop!()) Atomics.store(flag, 0, 1);
      }, STOP_POLL_MS)
    : undefined;
  const latest: (RouteProgress | undefined)[] = Array.from({ length: t }, () => undefined);
  const report = (k: number, p: RouteProgress) => {
    latest[k] = p;
    const seen = latest.filter((x): x is RouteProgress => x !== undefined);
    request.onProgress!({
      made: Math.max(...seen.map((x) => x.made)),
      connections: Math.max(...seen.map((x) => x.connections)),
      work: seen.reduce((s, x) => s + x.work, 0),
    });
  };
  // A round's k-th variant goes to thread k mod t; the main thread waits (it loads no board of its own).
  const round = async (variants: RoundVariant[]) => {
    const groups: Job['variants'][] = Array.from({ length: t }, () => []);
    variants.forEach((v, k) => groups[k % t].push({ index: v.index, request: plainOf(v.request) }));
    const parts = await Promise.all(
      groups.map((mine, k) => warm.run(o.script!, files, k, { variants: mine, stop, progress: !!request.onProgress }, (p) => report(k, p))),
    );
    return parts.flat().sort((a, b) => a.variant - b.variant);
  };
  try {
    return await routeRounds(request, round);
  } finally {
    if (poll) clearInterval(poll);
  }
}

/** A request without its callbacks, which stay on the main thread. */
function plainOf(request: RouteRequest): PlainRequest {
  const { shouldStop: _stop, onProgress: _progress, ...plain } = request;
  return plain;
}

/** Each round of the call's variants (variantRounds) until none is left or a stop; the best of all. */
async function routeRounds(request: RouteRequest, run: (round: RoundVariant[]) => Promise<RouteResult[]>): Promise<RouteResult> {
  const results: RouteResult[] = [];
  for (const round of variantRounds(request, results)) {
    results.push(...(await run(round)));
    if (request.shouldStop?.()) break;
  }
  return callResult(request, results);
}
