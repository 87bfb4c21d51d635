// The router options a session caller may set: the router's own whitelist (RouteOptions), in
// the tools' snake_case, so an agent reaches nothing the command line does not expose either.

import { z } from 'zod';
import type { RouteOptions } from '../route/types.ts';

export const RouteOptionsSchema = z
  .object({
    soft_zones: z.boolean().optional().describe("other nets' zone fills are no walls (KiCad refills them); default true"),
    via_in_pad: z.boolean().optional().describe('vias may sit inside SMD pads of their own net; default false'),
    vias_off_pads: z.boolean().optional().describe('vias keep clear of every pad, own net included; default false'),
    escape_plan: z.boolean().optional().describe('fan out fine-pitch parts before the main search; default false'),
  })
  .strict();

/** The tool's options in the router's names; keys left out stay at the router's defaults. */
export function toRouteOptions(o: z.output<typeof RouteOptionsSchema> | undefined): RouteOptions | undefined {
  if (!o) return undefined;
  const r: RouteOptions = {};
  if (o.soft_zones !== undefined) r.softZones = o.soft_zones;
  if (o.via_in_pad !== undefined) r.viaInPad = o.via_in_pad;
  if (o.vias_off_pads !== undefined) r.viasOffPads = o.vias_off_pads;
  if (o.escape_plan !== undefined) r.escapePlan = o.escape_plan;
  return r;
}
