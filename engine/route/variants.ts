// Variants: the same request routed with different seeds (net orders), the best kept by a fixed
// order — most connections routed, then fewest vias, then shortest length, then lowest variant
// index — so the choice never depends on which thread finished first.

import type { Design } from '../kicad/load.ts';
import { hostFromDesign } from './host-from-design.ts';
import type { RouterHost } from './host.ts';
import { routeHost } from './route-design.ts';
import { MAX_VARIANTS, type RouteRequest, type RouteResult } from './types.ts';

/** The router's host for a design, with the session's locked copper as fixed copper. */
export function sessionHost(design: Design, req: RouteRequest): RouterHost {
  const s = req.session;
  return hostFromDesign(design, s ? { tracks: s.tracks, vias: s.vias } : undefined);
}

/** Routes variant `index` (0-based) of a request. */
export function routeVariant(design: Design, req: RouteRequest, index: number): RouteResult {
  return routeHost(sessionHost(design, req), req, index);
}

/** Number of variants a request asks for, clamped to 1..MAX_VARIANTS. */
export function variantCount(req: RouteRequest): number {
  return Math.min(MAX_VARIANTS, Math.max(1, Math.floor(req.variants ?? 1)));
}

/** The best result by the fixed order; work is summed over all of them. */
export function pickBest(results: RouteResult[]): RouteResult {
  if (results.length === 0) throw new Error('pickBest: expected at least one result');
  let best = results[0];
  for (const r of results.slice(1)) {
    const a = r.summary;
    const b = best.summary;
    const better = a.routed !== b.routed ? a.routed > b.routed : a.vias !== b.vias ? a.vias < b.vias : a.length !== b.length ? a.length < b.length : r.variant < best.variant;
    if (better) best = r;
  }
  const work = results.reduce((s, r) => s + r.work, 0);
  const stopped = results.some((r) => r.stopped === 'cancelled') ? 'cancelled' : best.stopped;
  return { ...best, work, stopped };
}

/** Routes every variant in turn on one thread and keeps the best. */
export function routeDesign(design: Design, req: RouteRequest = {}): RouteResult {
  const host = sessionHost(design, req);
  const results: RouteResult[] = [];
  const n = variantCount(req);
  for (let i = 0; i < n; i++) {
    results.push(routeHost(host, req, i));
    if (req.shouldStop?.()) break;
  }
  return pickBest(results);
}
