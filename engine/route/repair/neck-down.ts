// Neck-down: a net still apart after rip-up is routed again at the narrowest width and with the
// smallest via its rules allow, then every stretch of the new copper that fits at the class width
// and every via that fits at the class size is widened back, so the copper is narrow only where it
// must be — as a designer necks a track between fine-pitch pads or drops a small via between BGA
// balls. Kept only when it joins more; checked exactly like all copper.

import type { Pt } from '../../board/model.ts';
import type { ConnItem } from '../negotiate/connectivity.ts';
import type { RouterHost } from '../core/host.ts';
import { planNet, type NetPlan } from '../negotiate/net-plan.ts';
import { obstacleMapWork, type MapOptions } from '../core/obstacle-map.ts';
import type { Profile } from '../core/profile.ts';
import type { Leg, PathCopper } from '../core/path-geometry.ts';
import type { WorldSource } from '../core/world-source.ts';
import { viaOf } from '../core/via-span.ts';
import type { Join, Router } from '../negotiate/router.ts';

/** Bisection steps are at least this long (nm): finer buys nothing a person would see. */
const WIDEN_RESOLUTION = 10_000;

export interface NeckWorld {
  host: RouterHost;
  world: WorldSource;
  opt: MapOptions;
  items: readonly ConnItem[];
  /** Connectivity groups (item indices) per net, as the nets were planned from. */
  pieces: Map<number, number[][]>;
  /** Class profile index → its narrow twin's, made on first need and kept for later calls;
   *  -1 where making the twin would have passed the work budget when first needed (not tried again). */
  twins: Map<number, number>;
}

/** Routes the nets of `order` still apart again with a narrow twin of their class; keeps each
 *  net's attempt only when fewer of its pieces stay apart. */
export function neckDown(router: Router, order: readonly NetPlan[], w: NeckWorld): void {
  const twins = w.twins;
  for (const plan of order) {
    const missing = router.missing(plan);
    if (missing <= 0) continue;
    const prof = router.profiles[plan.profile];
    const narrow = prof.width.map((x, l) => Math.min(x, Math.max(1, w.host.rules.minTrackWidth(plan.net, l))));
    const least = w.host.rules.minVia?.(plan.net);
    const via = { diameter: Math.min(prof.viaDiameter, least?.diameter ?? Infinity), drill: Math.min(prof.viaDrill, least?.drill ?? Infinity) };
    if (narrow.every((x, l) => x === prof.width[l]) && via.diameter === prof.viaDiameter && via.drill === prof.viaDrill) continue;
    if (!router.mayStart()) return;
    let k = twins.get(plan.profile);
    if (k === undefined) {
      // The twin is set-up work: its map (counted before it is built) and the stamps of every net
      // placed now into its view (no more than they hold in all views), begun only within budget.
      const twin: Profile = { ...prof, key: `${prof.key}/neck`, width: narrow, viaDiameter: via.diameter, viaDrill: via.drill };
      const cost = obstacleMapWork(w.host, router.grid, twin, w.opt) + router.occ.stamped;
      k = cost < router.room ? addTwin(router, order, w, twin) : -1;
      twins.set(plan.profile, k);
    }
    if (k < 0) continue;
    const twinIndex = k;
    const planned = planNet(
      w.host,
      router.grid,
      router.maps[k],
      router.checker,
      w.items,
      w.pieces.get(plan.net)!,
      plan.net,
      k,
      (l) => router.profiles[twinIndex].width[l],
    );
    // A route through waypoints keeps them, in order, between its two ends' narrow access.
    const twin = plan.sequence
      ? { ...planned, pieces: [planned.pieces[0], ...plan.pieces.slice(1, -1), planned.pieces[planned.pieces.length - 1]], sequence: true }
      : planned;
    const saved = router.routes.get(plan.net)?.joins ?? [];
    const prior = saved.map((j) => fixWidths(j, prof));
    router.unplace(plan);
    const got = router.commitNet(twin, prior);
    router.unplace(twin);
    if (router.missing(plan) >= missing) {
      router.place(plan, saved);
      continue;
    }
    // The net stays placed as its twin: its grid stamps are the narrow ones its paths were
    // searched against, so nets placed beside it stay legal on the grid as well.
    const narrowProfile = router.profiles[k];
    router.place(
      twin,
      got.map((j) => (prior.includes(j) ? j : { ...j, copper: widen(router, plan.net, fixWidths(j, narrowProfile).copper, prof) })),
    );
  }
}

/** A class's narrow twin profile in the router: its obstacle map and its view in the occupancy,
 *  holding every net placed now. Returns its index. */
function addTwin(router: Router, order: readonly NetPlan[], w: NeckWorld, twin: Profile): number {
  const map = w.world.map(w.host, router.grid, twin, w.opt);
  router.work += map.work;
  const placed = order.filter((p) => router.occ.has(p.net)).map((p) => router.copperOf(p, router.routes.get(p.net)!));
  const { index, work } = router.occ.addProfile(twin, placed);
  router.work += work;
  router.maps.push(map);
  if (router.maps.length !== index + 1) throw new Error(`neckDown: profile ${index} and map ${router.maps.length - 1} disagree`);
  return index;
}

/** The join with every leg's width and every via's size written out, so it keeps them under
 *  another profile. */
function fixWidths(j: Join, prof: Profile): Join {
  const size = { diameter: prof.viaDiameter, drill: prof.viaDrill };
  return {
    ...j,
    copper: {
      vias: j.copper.vias.map((v) => (v.size === undefined ? { ...v, size } : v)),
      legs: j.copper.legs.map((l) => (l.width === undefined ? { ...l, width: prof.width[l.layer] } : l)),
    },
  };
}

/** Copper routed narrow, widened to the class's width and via wherever the exact checker
 *  allows: each via whole, each segment whole, else the longest stretch from each end (the
 *  middle stays narrow). */
function widen(router: Router, net: number, c: PathCopper, prof: Profile): PathCopper {
  const classWidth = prof.width;
  const vias = c.vias.map((v) => {
    const wide = { ...v, size: { diameter: prof.viaDiameter, drill: prof.viaDrill } };
    if (v.size === undefined || (v.size.diameter >= prof.viaDiameter && v.size.drill >= prof.viaDrill)) return v;
    router.work++;
    return router.checker.via(net, v.at.x, v.at.y, viaOf(prof, wide, router.grid.layers)) ? v : wide;
  });
  const legs: Leg[] = [];
  for (const leg of c.legs) {
    const wide = classWidth[leg.layer];
    const narrow = leg.width ?? wide;
    if (narrow >= wide) {
      legs.push(leg);
      continue;
    }
    const fits = (a: Pt, b: Pt) => {
      router.work++;
      return !router.checker.track(net, leg.layer, a.x, a.y, b.x, b.y, wide);
    };
    const runs: Leg[] = [];
    const push = (a: Pt, b: Pt, width: number) => {
      if (a.x === b.x && a.y === b.y) return;
      const last = runs[runs.length - 1];
      const end = last?.pts[last.pts.length - 1];
      if (last && last.width === width && end!.x === a.x && end!.y === a.y) last.pts.push(b);
      else runs.push({ layer: leg.layer, pts: [a, b], width });
    };
    for (let i = 0; i + 1 < leg.pts.length; i++) {
      const a = leg.pts[i];
      const b = leg.pts[i + 1];
      if (fits(a, b)) {
        push(a, b, wide);
        continue;
      }
      const n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / WIDEN_RESOLUTION));
      const at = (from: Pt, to: Pt, k: number): Pt => ({
        x: from.x + Math.round(((to.x - from.x) * k) / n),
        y: from.y + Math.round(((to.y - from.y) * k) / n),
      });
      const ka = reach(n, (k) => fits(a, at(a, b, k)));
      const kb = reach(n, (k) => fits(at(b, a, k), b));
      // Stretches shorter than a few widths would only add corners.
      const least = Math.ceil((2 * wide) / WIDEN_RESOLUTION);
      const pa = ka >= least ? ka : 0;
      const pb = kb >= least ? kb : 0;
      if (pa + pb >= n) {
        push(a, b, narrow);
        continue;
      }
      const p = at(a, b, pa);
      const q = at(b, a, pb);
      push(a, p, wide);
      push(p, q, narrow);
      push(q, b, wide);
    }
    legs.push(...runs);
  }
  return { legs: legs.map((l) => (l.width === undefined ? { ...l, width: classWidth[l.layer] } : l)), vias };
}

/** The largest k in [0, n] with ok(k) (ok is monotone: true up to some k, false after). */
function reach(n: number, ok: (k: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
