// The one way a route runs from the plugin: the defaults (variants, seed, threads) and the
// worker pool (route-workers.ts) that `tracemaker route` and a session's `route` port both use,
// so a session's `route` over all nets with the defaults writes the bytes the CLI writes.
// It owns no routing: the router is engine/route; it only picks the defaults and the threads.

import { availableParallelism } from 'node:os';
import type { Board } from '../engine/board/model.ts';
import type { DesignFiles } from '../engine/kicad/load.ts';
import type { Design } from '../engine/board/design.ts';
import { RouteCache, type RouteRequest, type RouteResult } from '../engine/route/index.ts';
import { routeWithWorkers } from './route-workers.ts';

/** Variants when none are asked for: two, so one runs on each of two cores. */
export const DEFAULT_VARIANTS = 2;

/** Above this many pads a call that names its nets routes one variant by default: there the
 *  set-up, not the search, is most of its time, and on the bench's 2,118-pad board a second
 *  variant made three selected nets in a warm host take 5.7 s where one took 3.7 s. A call over
 *  the whole board keeps two, on two cores at nearly the same wall time (there: 271 connections
 *  left open with one, 240 with two; peak memory 1.0 → 1.9 GB). */
export const LARGE_BOARD_PADS = 1500;
/** Starting a worker costs a fraction of a second: up to this many pads the variants run in
 *  turn on the calling thread (the bytes are the same either way). */
const THREADED_BOARD_PADS = 150;

/** A call's defaults; its work has none to give: the router sizes each variant's budget by the
 *  connections it is asked to make (engine/route/plan/budget.ts). */
export interface RouteDefaults {
  variants: number;
  seed: number;
  threads: number;
}

const SEED = 1;

/** The defaults for a call on a board: what `tracemaker route` and a session use when not told.
 *  `whole`: the call names no nets, so routes every open connection. */
export function routeDefaults(board: Board, o: { whole: boolean }): RouteDefaults {
  const pads = board.pads.length;
  return {
    variants: pads > LARGE_BOARD_PADS && !o.whole ? 1 : DEFAULT_VARIANTS,
    seed: SEED,
    threads: pads > THREADED_BOARD_PADS ? Math.min(2, availableParallelism()) : 1,
  };
}

// The worker script is the bundled CLI (every module of the bundle shares its URL). Run from
// the TypeScript sources (the tests), a worker could not load this file, so variants then run
// on the calling thread, which gives the same bytes.
const BUNDLE = new URL(import.meta.url);
const FROM_SOURCE = BUNDLE.pathname.endsWith('.ts');

export interface RunOptions {
  /** The worker script (the built CLI), for callers running from the sources. */
  script?: URL;
  /** The design already loaded from the same texts, so a route on this thread need not load it. */
  design?: Design;
  /** The board's world kept from earlier routes on `design` (in-thread routes only). */
  cache?: RouteCache;
}

/**
 * Routes a request over the worker pool: `files` are the texts the design was loaded from (each
 * worker loads its own copy). Variant i always runs with the same seed, so the result does not
 * depend on `threads`. A request with progress or stop callbacks is being watched: it runs off
 * this thread even on one thread, so the progress and a Cancel can reach it.
 */
export function runRoute(files: DesignFiles, request: RouteRequest, threads: number, o: RunOptions = {}): Promise<RouteResult> {
  const script = o.script ?? (FROM_SOURCE ? undefined : BUNDLE);
  const watched = request.onProgress !== undefined || request.shouldStop !== undefined;
  return routeWithWorkers(files, request, { threads, script, design: o.design, offThread: watched, cache: o.cache });
}

export interface RoutePortOptions {
  /** Threads for the variants; default by the board's size, as `tracemaker route` picks. */
  threads?: number;
  /** The worker script (the built CLI), for callers running from the sources. */
  script?: URL;
}

/**
 * A session's route port over the texts its design was loaded from (a board file, or the KiCad
 * host's live board when it last rebuilt): missing variants and seed take the board's defaults
 * (missing work is the router's own, sized by the call's connections), and the variants run on the worker pool, as `tracemaker route` runs them. The port
 * keeps one RouteCache: a route on this thread after the first reuses the board's shapes, grid
 * and obstacle maps (a host that rebuilds its session makes a new port, and so a new cache).
 */
export function routePort(files: DesignFiles, o: RoutePortOptions = {}): (design: Design, request: RouteRequest) => Promise<RouteResult> {
  const cache = new RouteCache();
  return (design, request) => {
    const d = routeDefaults(design.board, { whole: request.nets === undefined });
    return runRoute(files, { ...request, variants: request.variants ?? d.variants, seed: request.seed ?? d.seed }, o.threads ?? d.threads, {
      script: o.script,
      design,
      cache,
    });
  };
}
