// The body of the panel's route thread (bundled on its own as dist/panel-route-worker.js): loads
// the design once, then routes each job it is sent, posting progress and the result, and
// stopping between searches once the job's shared stop flag is set.

import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { loadDesign, type Design, type DesignFiles } from '../../engine/kicad/load.ts';
import { routeDesign, type RouteProgress, type RouteRequest, type RouteResult } from '../../engine/route/index.ts';

export interface WorkerSetup {
  tracemakerPanelRoute: true;
  files: DesignFiles;
}

export interface WorkerJob {
  id: number;
  request: RouteRequest;
  /** Int32 flag: 1 = stop after the current search. */
  stop: SharedArrayBuffer;
}

export type WorkerReply =
  | { id: number; kind: 'progress'; progress: RouteProgress }
  | { id: number; kind: 'result'; result: RouteResult }
  | { id: number; kind: 'error'; message: string };

/** Progress is posted at most this often; the router reports far more often than a page needs. */
const PROGRESS_EVERY_MS = 50;

function serve(setup: WorkerSetup): void {
  let design: Design | undefined;
  parentPort!.on('message', (job: WorkerJob) => {
    const flag = new Int32Array(job.stop);
    const post = (m: WorkerReply) => parentPort!.postMessage(m);
    let last = 0;
    try {
      design ??= loadDesign(setup.files);
      const result = routeDesign(design, {
        ...job.request,
        shouldStop: () => Atomics.load(flag, 0) === 1,
        onProgress: (progress) => {
          const now = Date.now();
          if (now - last < PROGRESS_EVERY_MS && progress.done < progress.total) return;
          last = now;
          post({ id: job.id, kind: 'progress', progress });
        },
      });
      post({ id: job.id, kind: 'result', result });
    } catch (e) {
      // The name only: a message could quote board text, and the page shows this.
      post({ id: job.id, kind: 'error', message: e instanceof Error ? e.name : 'error' });
    }
  });
}

if (!isMainThread && (workerData as WorkerSetup | undefined)?.tracemakerPanelRoute === true) serve(workerData as WorkerSetup);
