// The router's grid step: a third of the finest track pitch, shrunk to divide half the board's
// commonest pad pitch (chooseStep), and the step for a board as a whole (gridStep: every net with
// two or more pads asked for, one profile per net class) for pictures and agents that want to know
// how finely the router sees the board; a route of fewer nets may pick a coarser step.

import type { HostPad, RouterHost } from '../core/host.ts';
import type { Profile } from '../core/profile.ts';
import { classProfiles } from './profiles.ts';
import { byNetName } from '../core/net-rank.ts';

/** Grid step (nm) for routing `nets` of `host`; default every net with two or more pads. */
export function gridStep(host: RouterHost, nets?: readonly number[]): number {
  let asked = nets;
  if (!asked) {
    const pads = new Map<number, number>();
    for (const p of host.pads) if (p.net > 0) pads.set(p.net, (pads.get(p.net) ?? 0) + 1);
    asked = [...pads.entries()].filter(([, n]) => n >= 2).map(([net]) => net);
  }
  return chooseStep(classProfiles(host, [...asked].sort(byNetName(host))).profiles, host.pads);
}

/** The finest step a refined grid may have (Attempt.gridRefine), nm. */
export const MIN_GRID_STEP = 10_000;

/** Grid step for the routed profiles: a third of the finest track pitch, 50–200 µm, 1 µm steps;
 *  then shrunk to divide half the board's commonest pad pitch (see padPitch), so the lane midway
 *  between two neighbouring pads lies on the grid — a lane a third-pitch grid would straddle. */
export function chooseStep(profiles: Profile[], pads: readonly HostPad[] = []): number {
  let pitch = Infinity;
  for (const p of profiles) pitch = Math.min(pitch, Math.min(...p.width) + p.clearance);
  if (!Number.isFinite(pitch)) pitch = 450_000;
  const base = Math.min(200_000, Math.max(50_000, Math.round(pitch / 3 / 1000) * 1000));
  const half = padPitch(pads) / 2;
  if (!(half > 0)) return base;
  const step = Math.round(half / Math.ceil(half / base));
  return step >= 50_000 ? step : base;
}

/** The commonest centre distance (nm, to 1 µm) between pads of one part in one row or column
 *  that are neighbours; 0 when no part has two such pads. Ties go to the smaller pitch. */
function padPitch(pads: readonly HostPad[]): number {
  const byRef = new Map<string, HostPad[]>();
  for (const p of pads) {
    if (!p.ref) continue;
    let l = byRef.get(p.ref);
    if (!l) byRef.set(p.ref, (l = []));
    l.push(p);
  }
  const count = new Map<number, number>();
  for (const list of byRef.values()) {
    for (const axis of [0, 1] as const) {
      const rows = new Map<number, number[]>();
      for (const p of list) {
        const key = axis === 0 ? p.at.y : p.at.x;
        let r = rows.get(key);
        if (!r) rows.set(key, (r = []));
        r.push(axis === 0 ? p.at.x : p.at.y);
      }
      for (const r of rows.values()) {
        r.sort((a, b) => a - b);
        for (let i = 0; i + 1 < r.length; i++) {
          const d = Math.round((r[i + 1] - r[i]) / 1000) * 1000;
          if (d > 0) count.set(d, (count.get(d) ?? 0) + 1);
        }
      }
    }
  }
  let best = 0;
  let bestN = 0;
  for (const [d, n] of [...count.entries()].sort((a, b) => a[0] - b[0])) {
    if (n > bestN) {
      best = d;
      bestN = n;
    }
  }
  return best;
}
