// The session's route port: the router's own entry point and defaults (the ones `tracemaker
// route` uses), so a session's `route` over all nets with the defaults gives the same copper.
// Variants run in this thread; the router's worker pool gives identical bytes when it is wired.

import type { DesignFiles, Design } from '../engine/kicad/load.ts';
import { DEFAULT_WORK, routeDesign, variantCount, type RouteRequest, type RouteResult } from '../engine/route/index.ts';

export const ROUTE_DEFAULTS = { work: DEFAULT_WORK, variants: variantCount({}) };

export function routePort(_files: DesignFiles, _diagnostics: (text: string) => void): (design: Design, request: RouteRequest) => Promise<RouteResult> {
  return async (design, request) => routeDesign(design, request);
}
