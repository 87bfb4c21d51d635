// The router's view of a session's board without session copper (its rules, pads and grid step),
// built once per design: the step tools ask it for via sizes and widths, render for the grid pitch.

import type { Design } from '../board/design.ts';
import { gridStep, hostFromDesign, type RouterHost } from '../route/index.ts';

const hosts = new WeakMap<Design, { host: RouterHost; step?: number }>();

function entry(design: Design): { host: RouterHost; step?: number } {
  let e = hosts.get(design);
  if (!e) hosts.set(design, (e = { host: hostFromDesign(design) }));
  return e;
}

export function routerHost(design: Design): RouterHost {
  return entry(design).host;
}

/** The grid step (nm) the router uses for the board as a whole. */
export function boardGridStep(design: Design): number {
  const e = entry(design);
  e.step ??= gridStep(e.host);
  return e.step;
}
