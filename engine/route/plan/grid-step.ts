// The router's grid step for a board as a whole: the step routeHost picks when every net with two
// or more pads is asked for (one profile per net class, each from its lowest-coded net, then
// chooseStep over them and the board's pads). For pictures and agents that want to know how
// finely the router sees the board; a route of fewer nets may pick a coarser step.

import type { RouterHost } from '../core/host.ts';
import { chooseStep, classProfiles } from './route-design.ts';

/** Grid step (nm) for routing `nets` of `host`; default every net with two or more pads. */
export function gridStep(host: RouterHost, nets?: readonly number[]): number {
  let asked = nets;
  if (!asked) {
    const pads = new Map<number, number>();
    for (const p of host.pads) if (p.net > 0) pads.set(p.net, (pads.get(p.net) ?? 0) + 1);
    asked = [...pads.entries()].filter(([, n]) => n >= 2).map(([net]) => net);
  }
  return chooseStep(
    classProfiles(
      host,
      [...asked].sort((a, b) => a - b),
    ).profiles,
    host.pads,
  );
}
