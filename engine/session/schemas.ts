// One zod schema per tool, with the tool's description: the single table from which MCP's
// tools/list, the JSON-lines transport and argument validation are all generated. Every object
// is strict, so an unknown key is an error naming the tool and the key. Descriptions are fixed
// text: nothing read from a board ever goes into them.

import { z } from 'zod';
import { ToolError, keyPath } from './errors.ts';
import { MAX_COORD_MM, MAX_LISTED, MAX_NAME, MAX_ROUTE_NETS, MAX_VARIANTS, MAX_WORK } from './limits.ts';
import { RouteOptionsSchema } from './route-options.ts';

const name = z.string().min(1).max(MAX_NAME);
const coord = z.number().min(-MAX_COORD_MM).max(MAX_COORD_MM);
const box = z.tuple([coord, coord, coord, coord]).describe('[x1, y1, x2, y2] in mm, board axes (y down)');
const layerNames = z.array(name).min(1).max(32);

const Empty = z.object({}).strict();

const Hints = z
  .object({
    first_nets: z.array(name).max(MAX_ROUTE_NETS).optional().describe('nets to route before the others, in this order'),
    priority: z.record(name, z.number().int().min(-1000).max(1000)).optional().describe('net → priority: higher routes earlier and is ripped later (default 0)'),
    layers: z
      .array(
        z
          .object({
            net: name.optional().describe('default: every routed net'),
            layer: name,
            cost: z.number().min(0.25).max(100).describe('1 neutral, larger discourages the layer'),
          })
          .strict(),
      )
      .max(256)
      .optional()
      .describe('layer cost factors'),
    regions: z
      .array(
        z
          .object({
            box_mm: box,
            nets: z.array(name).max(MAX_ROUTE_NETS).optional().describe('nets the region applies to (default: all routed nets)'),
            mode: z.enum(['avoid', 'prefer']).default('avoid'),
            layers: layerNames.optional(),
          })
          .strict(),
      )
      .max(32)
      .optional(),
  })
  .strict();

export const TOOL_SCHEMAS = {
  board_info: Empty,
  open_connections: z
    .object({
      net: name.optional().describe('only this net'),
      limit: z.number().int().min(1).max(MAX_LISTED).optional().describe(`at most this many (default and cap ${MAX_LISTED})`),
      soft_zones: z.boolean().optional().describe('list connections a copper zone of the net would carry too (zone fills as not yet made)'),
    })
    .strict(),
  route: z
    .object({
      nets: z.array(name).min(1).max(MAX_ROUTE_NETS).optional().describe('nets to route (default: every net with open connections)'),
      work: z.number().int().min(1).max(MAX_WORK).optional().describe('work budget per variant (search expansions)'),
      variants: z.number().int().min(1).max(MAX_VARIANTS).optional().describe('independent tries with different orders; the best is kept'),
      seed: z.number().int().min(0).max(0x7fffffff).optional(),
      hints: Hints.optional(),
      options: RouteOptionsSchema.optional(),
      verify: z.enum(['refuse', 'report', 'off']).optional().describe('refuse (default): keep only a result that routes something and adds no DRC error'),
      commit: z.boolean().optional().describe('false: a dry run, nothing is kept'),
    })
    .strict(),
  rip_net: z.object({ net: name }).strict(),
  check: z
    .object({
      full: z.boolean().optional().describe('check the whole board, not only what the session added'),
      refill: z.boolean().optional().describe('refill copper zones before checking'),
    })
    .strict(),
  stuck_report: z.object({ redact: z.boolean().optional().describe('leave out net names and references') }).strict(),
  inspect_pad: z
    .object({
      pad: name.describe('REF.PIN'),
      radius_mm: z.number().gt(0).max(50).optional().describe('neighbourhood radius (default 2 mm)'),
    })
    .strict(),
  inspect_net: z.object({ net: name }).strict(),
  render: z
    .object({
      box_mm: box.optional(),
      net: name.optional().describe('frame this net and highlight it'),
      pad: name.optional().describe('frame this pad (REF.PIN) and its open connections'),
      layers: layerNames.optional(),
    })
    .strict(),
  history: Empty,
  undo: Empty,
  restore: z.object({ state: z.number().int().min(0) }).strict(),
  save: z.object({ refill: z.boolean().optional().describe('refill copper zones in the written board') }).strict(),
} as const;

export type ToolName = keyof typeof TOOL_SCHEMAS;
export type ToolArgs<N extends ToolName> = z.output<(typeof TOOL_SCHEMAS)[N]>;

export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  board_info: 'Board name, copper layers, counts (board and session), open connections, state id, work used and left, rules summary and rule warnings.',
  open_connections: 'Connections still open in the current state: net, a, b (REF.PIN or zone), length_mm, and after a route reason, why, rips, fails, blockers.',
  route: 'Route nets (default: all open). A transaction: kept only if verify allows it and commit is not false. Reports new copper per net, added DRC errors and the connections left open with reasons.',
  rip_net: "Remove one net's session copper (a new state). The board's own copper is never removed.",
  check: 'DRC and unconnected items by type, and what the session added relative to the input board, with up to five examples each.',
  stuck_report: 'For the last route: why connections stayed open, crowding, and the parts at the open ends.',
  inspect_pad: 'A pad (REF.PIN): net, position, layers, size, open connections ending on it, nearby pads and copper.',
  inspect_net: "A net's pads, board and session copper, length per layer, open connections, bounding box and class rules.",
  render: 'An SVG picture of a region: pads, tracks per layer, open connections as ratsnest lines, blockers highlighted.',
  history: 'The kept states (id, the call that made it, routed connections, vias, copper length) and the moves between them, oldest first: each change, undo and restore with its call and the states it went from and to.',
  undo: 'Back to the state the current one was made from.',
  restore: 'Go to any kept state; a change after it starts a new branch.',
  save: 'Write the current state to the output board named when the session started. Returns counts and the DRC types added.',
};

export const TOOL_NAMES = Object.keys(TOOL_SCHEMAS) as ToolName[];

export function isToolName(tool: string): tool is ToolName {
  return Object.hasOwn(TOOL_SCHEMAS, tool);
}

/**
 * Validates a call's arguments. `undefined`/`null` arguments mean `{}`. Throws a ToolError
 * (bad_argument) naming the tool and the first offending key.
 */
export function parseArgs<N extends ToolName>(tool: N, args: unknown): ToolArgs<N> {
  const r = TOOL_SCHEMAS[tool].safeParse(args ?? {});
  if (r.success) return r.data as ToolArgs<N>;
  const issue = r.error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const where = keyPath([...issue.path, issue.keys[0]]);
    throw new ToolError('bad_argument', `${tool}: unknown key "${where}"`);
  }
  const where = keyPath(issue.path);
  const what = where ? `key "${where}"` : 'arguments';
  throw new ToolError('bad_argument', `${tool}: ${what}: ${issue.message}`);
}

/** JSON Schema of a tool's arguments (MCP's inputSchema). */
export function inputSchema(tool: ToolName): Record<string, unknown> {
  const s = z.toJSONSchema(TOOL_SCHEMAS[tool], { io: 'input' }) as Record<string, unknown>;
  delete s.$schema;
  return s;
}
