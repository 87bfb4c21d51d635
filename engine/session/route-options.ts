// The router options a session caller may set: the router's own whitelist (RouteOptions), in
// the tools' snake_case, so an agent reaches nothing the command line does not expose either.

import { z } from 'zod';
import type { RouteOptions } from '../route/index.ts';

export const RouteOptionsSchema = z
  .object({
    soft_zones: z
      .boolean()
      .optional()
      .describe(
        "true (default): other nets' zone fills are no walls, since KiCad refills them around new copper (a route still may not starve a thermal relief or cut a zone's pads off its plane); false: fills are walls as the file has them",
      ),
    via_in_pad: z.boolean().optional().describe('true: vias may sit inside SMD pads of their own net; default false: vias keep off pads'),
    vias_off_pads: z
      .boolean()
      .optional()
      .describe(
        "true: vias keep the clearance from every pad, their own net's too (overrides via_in_pad); default false: a via keeps out of its own net's pads but may abut them",
      ),
    escape_plan: z
      .boolean()
      .optional()
      .describe('true: nets with a pad smaller than 0.4 mm (fine-pitch parts) route before the rest, after first_nets and priority; default false'),
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
