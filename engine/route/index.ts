// Public API of engine/route, the router: routeDesign routes a loaded design (variants run one
// after another here; plugin/route-workers.ts runs them on threads with identical bytes),
// routeVariant runs one variant, pickBest chooses by the fixed order. Types in types.ts.

export * from './types.ts';
export { routeDesign, routeVariant, pickBest, sessionHost, variantCount, variantRequest, variantRounds, type RoundVariant } from './plan/variants.ts';
export type { RouterHost, HostPad, HostObstacle, HostHole, HostRules } from './core/host.ts';
export { hostFromDesign } from './design/host-from-design.ts';
export { routeHost } from './plan/variant-run.ts';
export { RouteCache } from './design/route-cache.ts';
