// A variant's work bound: its budget covers set-up, searches and the finishing steps alike, so a
// caller's `work` means what the call may spend. Set-up (the obstacle maps) is counted before it
// is built and starts only when all of it fits; the searches keep a share back for the finishing
// steps (clean-up, explanations); an explanation gets only what is left, and its class's proof
// map is built first, only when it fits. So a variant passes its budget by at most what the one
// step under way when the budget ran out adds (a search's last probe, a test, a few probes).

import { relaxedMapWork } from '../explain/fence-proof.ts';
import type { Grid } from '../core/grid.ts';
import type { RouterHost } from '../core/host.ts';
import type { NetPlan } from '../negotiate/net-plan.ts';
import { obstacleMapWork, type MapOptions } from '../core/obstacle-map.ts';
import type { Profile } from '../core/profile.ts';
import type { Router } from '../negotiate/router.ts';
import { Explainer, explainStuck } from '../explain/stuck.ts';
import type { ConnectionResult, StuckReason } from '../types.ts';

/** Share of what set-up leaves that the searches keep back for clean-up and explanations: on a
 *  route the budget stops, the copper found is still pulled tight and some ends are explained. */
export const FINISH_RESERVE = 0.05;

/** stuck.ts floods nothing with less than a tenth of its flood limit left: a proof map built for
 *  less would be work for nothing. */
const MIN_PROOF = 20_000;

/** The work the obstacle maps of `profiles` cost to build (the maps routeHost builds first). */
export function setupWork(host: RouterHost, grid: Grid, profiles: readonly Profile[], opt: MapOptions): number {
  let work = 0;
  for (const p of profiles) work += obstacleMapWork(host, grid, p, opt);
  return work;
}

/** The searches' share of what set-up left (`room`, work units). */
export function searchBudget(room: number): number {
  return Math.max(0, Math.floor(room * (1 - FINISH_RESERVE)));
}

/**
 * Explains open connections (stuck.ts) while router.work stays within `limit`: each explanation
 * floods at most what is left, and a class's relaxed proof map is built before its first
 * explanation, only when it fits with room to flood; a connection without one is explained from
 * the searches' own record (no floods). Call in a fixed order: the reasons depend on it.
 */
export function boundedExplainer(host: RouterHost, grid: Grid, router: Router, limit: number): (plan: NetPlan, conn: ConnectionResult) => StuckReason {
  const ex = new Explainer();
  let left = ex.left;
  const proofCost = new Map<number, number>();
  const proofMap = new Set<number>();
  const room = () => Math.max(0, limit - router.work);
  return (plan, conn) => {
    const k = plan.profile;
    // stuck.ts proves only connections a search tried (or all, when the route ran to its end).
    const proves = router.stats.get(plan.net)?.tried === true || router.stopped === 'done';
    if (!proofMap.has(k) && proves && left >= MIN_PROOF) {
      let cost = proofCost.get(k);
      if (cost === undefined) proofCost.set(k, (cost = relaxedMapWork(host, grid, router.profiles[k])));
      if (room() >= cost + MIN_PROOF) {
        ex.relaxed(host, grid, router, plan);
        proofMap.add(k);
      }
    }
    ex.left = proofMap.has(k) ? Math.min(left, room()) : 0;
    const given = ex.left;
    const reason = explainStuck(host, grid, router, plan, conn, router.stopped, ex);
    left -= given - ex.left;
    return reason;
  };
}
