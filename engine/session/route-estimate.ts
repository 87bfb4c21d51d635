// What a route call may spend, said before and after: `route` with `estimate: true` answers the
// work bound the call would run under (its `work` split over its variants, or the board's default
// budget per variant with the further rounds connections left open may take) without routing or
// changing anything; a route whose variants' shares could not hold their set-up says so, with
// what would.

import {
  DEFAULT_PAIR_WORK,
  DEFAULT_WORK,
  DEFAULT_WORK_CAP,
  ESCALATION,
  FOOTPRINT_ESCALATION,
  FOOTPRINT_VARIANTS,
  MAX_VARIANT_WORK,
  WORK_PER_CONNECTION,
  callBound,
  thousands as n,
} from '../route/index.ts';
import type { RouteEstimateResult } from './results.ts';
import type { SessionState } from './session-state.ts';

/** The bound a route call would run under (callBound, plan/budget.ts), and what it is based on:
 *  `connections` is the session's count of the call's open connections, `pairs` the pairs both of
 *  whose nets are among them. */
export function routeEstimate(s: SessionState, o: { work: number | undefined; variants: number; connections: number; pairs: number }): RouteEstimateResult {
  // The variants escalation adds (footprintVias) are in the bound where the session limit leaves room.
  const { perVariant, extra, bound } = callBound(o);
  const basedOn =
    o.work !== undefined
      ? `the call's work (${n(o.work)}${s.workLeft !== null ? ', at most what the session limit leaves' : ''}) split evenly over its ${o.variants} variant${o.variants > 1 ? 's' : ''}`
      : `the board's default budget for each of the ${o.variants} variant${o.variants > 1 ? 's' : ''}: ${n(DEFAULT_WORK)} + ${n(WORK_PER_CONNECTION)} per connection the router is asked to make, at most ${n(DEFAULT_WORK_CAP)}, from the session's ${o.connections} open connection${o.connections === 1 ? '' : 's'} in the call, and ${n(DEFAULT_PAIR_WORK)} more for each of the ${o.pairs} differential pair${o.pairs === 1 ? '' : 's'} both of whose nets are among them, to lay it as a pair (the router counts a zone net's pads joined only by its plane as connections too, so its default may be a little larger); ${ESCALATION} times that where connections stay open, at most ${n(DEFAULT_WORK_CAP)} (or that where it is more), as the call then routes further rounds of variants in other net orders, and ${FOOTPRINT_VARIANTS} variants more, each of which may spend ${FOOTPRINT_ESCALATION} times the default budget, at most ${n(MAX_VARIANT_WORK)}, and at least a variant's place's bound (${n(extra)} in all), where the session limit leaves room`;
  return {
    estimate: true,
    connections: o.connections,
    variants: o.variants,
    work: { per_variant: perVariant, bound, used: 0, total_used: s.workUsed, left: s.workLeft },
    based_on: basedOn,
    note: "A bound, not a forecast: a route stops once every connection is made, so it often spends much less. Each variant pays for its set-up (the board's obstacle maps) out of its share first; a share that cannot hold it searches nothing, and the route's answer then gives the set-up's cost.",
  };
}

/** The note of a route whose variants' shares could not hold their set-up (sums over variants). */
export function setupNote(budget: number, setup: number, variants: number): string {
  return `Nothing was searched: the call's work (${n(budget)} over ${variants} variant${variants > 1 ? 's' : ''}) is less than its set-up (${n(setup)}: the obstacle maps each variant builds first). Ask for at least ${n(setup)}, or fewer variants.`;
}
