// Runs a route's variants on worker threads: each worker loads the design from the same file
// texts and routes the variant indices it is given; the main thread keeps the best by the
// engine's fixed order, so the bytes do not depend on the thread count. One thread (or a
// failure to start workers) routes every variant in this thread with the same result.

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { loadDesign, type DesignFiles } from '../engine/kicad/load.ts';
import { pickBest, routeVariant, variantCount, type RouteRequest, type RouteResult } from '../engine/route/index.ts';

/** The serializable part of a request (callbacks stay on the main thread). */
export type PlainRequest = Omit<RouteRequest, 'shouldStop' | 'onProgress'>;

interface Job {
  tracemakerRouteWorker: true;
  files: DesignFiles;
  request: PlainRequest;
  indices: number[];
}

/** True in a worker started by routeWithWorkers; the CLI then does not run its main. */
export function isRouteWorker(): boolean {
  return !isMainThread && (workerData as Job | undefined)?.tracemakerRouteWorker === true;
}

/** The worker's body: route the assigned variants and post the results. */
export function runRouteWorker(): void {
  const job = workerData as Job;
  const design = loadDesign(job.files);
  const results = job.indices.map((i) => routeVariant(design, job.request, i));
  parentPort!.postMessage(results);
}

function runWorker(script: URL, job: Job): Promise<RouteResult[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData: job, argv: [] });
    w.once('message', (m: RouteResult[]) => resolve(m));
    w.once('error', reject);
    w.once('exit', (code) => {
      if (code !== 0) reject(new Error(`route worker exited with code ${code}`));
    });
  });
}

/**
 * Routes `request.variants` variants over up to `threads` threads. `script` is the module that
 * calls runRouteWorker() when isRouteWorker() (the bundled CLI). Variant i always runs with the
 * same seed, so the kept result is identical for any thread count.
 */
export async function routeWithWorkers(files: DesignFiles, request: RouteRequest, threads: number, script: URL): Promise<RouteResult> {
  const n = variantCount(request);
  const t = Math.max(1, Math.min(threads, n));
  const plain: PlainRequest = { ...request };
  delete (plain as RouteRequest).shouldStop;
  delete (plain as RouteRequest).onProgress;
  if (t <= 1) {
    const design = loadDesign(files);
    const results: RouteResult[] = [];
    for (let i = 0; i < n; i++) results.push(routeVariant(design, request, i));
    return pickBest(results);
  }
  // Variant i goes to thread i mod t; the main thread waits (it has no board of its own).
  const groups: number[][] = Array.from({ length: t }, () => []);
  for (let i = 0; i < n; i++) groups[i % t].push(i);
  const parts = await Promise.all(groups.map((indices) => runWorker(script, { tracemakerRouteWorker: true, files, request: plain, indices })));
  const all = parts.flat().sort((a, b) => a.variant - b.variant);
  return pickBest(all);
}
