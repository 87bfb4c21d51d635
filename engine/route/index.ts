// The one public face of engine/route, the router: the session, the plugin and the benchmarks
// import it from here only (an ESLint rule says so). routeDesign routes a loaded design (variants
// one after another); plugin/route-workers.ts runs a call's rounds of variants (variantRounds,
// routeVariant) on threads with identical bytes, pickBest choosing by the fixed order. The
// request and result types are in types.ts, the work budget in plan/budget.ts.

export * from './types.ts';
export * from './plan/budget.ts';
export { routeDesign, routeVariant, pickBest, callResult, sessionHost, variantRounds, type RoundVariant } from './plan/variants.ts';
export type { RouterHost, HostPad, HostObstacle, HostHole, HostRules } from './core/host.ts';
export type { ViaSpan } from './core/via-span.ts';
export { hostFromDesign } from './design/host-from-design.ts';
export { routeHost } from './plan/variant-run.ts';
export { gridStep } from './plan/grid-step.ts';
export { classVia, viaHit } from './plan/step-vias.ts';
export { RouteCache } from './design/route-cache.ts';
