// One zod schema per tool, with the tool's description: the single table from which MCP's
// tools/list, the JSON-lines transport and argument validation are all generated. Every object
// is strict, so an unknown key is an error naming the tool and the key. Descriptions are fixed
// text: nothing read from a board ever goes into them.

import { z } from 'zod';
import { ToolError, keyPath } from './errors.ts';
import { MAX_COORD_MM, MAX_LISTED, MAX_NAME, MAX_ROUTE_NETS, MAX_VARIANTS, MAX_CALL_WORK } from './limits.ts';
import { RouteOptionsSchema } from './route-options.ts';
import { budgetFacts } from '../route/index.ts';

const name = z.string().min(1).max(MAX_NAME);
const coord = z.number().min(-MAX_COORD_MM).max(MAX_COORD_MM);
const box = z.tuple([coord, coord, coord, coord]).describe('[x1, y1, x2, y2] in mm, board axes (y down)');
const layerNames = z.array(name).min(1).max(32);

const Empty = z.object({}).strict();
const point = z.tuple([coord, coord]);
const Verify = z
  .enum(['refuse', 'report', 'off'])
  .optional()
  .describe("refuse (default): keep only a result that adds no DRC error and enters no other net's reservation; report: keep it and list them; off: no check");
const Commit = z.boolean().optional().describe('false: a dry run, nothing is kept (default true)');

/** What a route call's `work` means, said once for the schema; the defaults in plan/budget.ts's words. */
const BUDGET = budgetFacts();
const WORK_BOUND = `the most this call may spend, all its variants together (work counts search expansions, flood cells and the grid sites set-up tests; never time). Each variant gets an equal share (work / variants, rounded down) and pays from it first for its set-up, the obstacle maps of the call's net classes (a share that cannot hold them builds and searches nothing, and the answer's note says what they cost), then for its searches, then for clean-up and explanations. work.used passes this by at most, for each variant, what the step under way when its share ran out adds: the last search's least (1,000; a few thousand with retries at a pad entry) and the grid sites the route it found marks in the router's occupancy, counted when found and again when committed (on the bench boards at most about 25,000 a variant). Default: ${BUDGET.perVariant}, and ${BUDGET.pairs}; where every variant leaves connections open that another try could make (not a pad proven boxed in or out of reach, nor a net held for a rule the router does not model), the call routes a further round of variants in other net orders (in half of them the nets left open first), ${BUDGET.rounds}, and, after them and only while connections stay open, ${BUDGET.footprint} (estimate: true tells the bound). Within a session work limit, at most what is left`;

const Hints = z
  .object({
    first_nets: z
      .array(name)
      .max(MAX_ROUTE_NETS)
      .optional()
      .describe('nets to route before all others, in this order (default: none; the router orders by size and span)'),
    priority: z
      .record(name, z.number().int().min(-1000).max(1000))
      .optional()
      .describe('net name → -1000..1000: a higher priority routes earlier, after first_nets (default 0)'),
    layers: z
      .array(
        z
          .object({
            net: name.optional().describe('the net the factor applies to (default: every routed net)'),
            layer: name.describe('copper layer name, e.g. "B.Cu"'),
            cost: z
              .number()
              .min(0.25)
              .max(100)
              .describe('0.25..100, multiplies the cost of each step on the layer: 1 neutral, 2 twice as dear, below 1 favours it'),
          })
          .strict(),
      )
      .max(256)
      .optional()
      .describe("layer cost factors (default: 1 on every layer, 0.6 on the layers of a zone net's own thermally joined plane)"),
    regions: z
      .array(
        z
          .object({
            box_mm: box,
            nets: z.array(name).max(MAX_ROUTE_NETS).optional().describe('nets the region applies to (default: all routed nets)'),
            mode: z.enum(['avoid', 'prefer']).default('avoid').describe('avoid (default): a step inside the box costs 4 times as much; prefer: 0.7 times'),
            layers: layerNames.optional().describe('copper layers the region covers (default: all)'),
          })
          .strict(),
      )
      .max(32)
      .optional()
      .describe('boxes the routes should avoid or prefer: costs, never walls (default: none)'),
  })
  .strict();

export const TOOL_SCHEMAS = {
  board_info: Empty,
  open_connections: z
    .object({
      net: name.optional().describe('only connections of this net (default: every net)'),
      limit: z.number().int().min(1).max(MAX_LISTED).optional().describe(`at most this many (default and cap ${MAX_LISTED})`),
      soft_zones: z
        .boolean()
        .optional()
        .describe(
          "true: also list connections only a copper zone of the net joins, as if zone fills were not yet made (the router's soft-zone view); default false: a zone fill connects, as KiCad counts",
        ),
    })
    .strict(),
  route: z
    .object({
      nets: z
        .array(name)
        .min(1)
        .max(MAX_ROUTE_NETS)
        .optional()
        .describe('nets to route (default: every net with open connections); session copper of these nets may be ripped and redone, all other copper stays'),
      work: z.number().int().min(1).max(MAX_CALL_WORK).optional().describe(WORK_BOUND),
      variants: z
        .number()
        .int()
        .min(1)
        .max(MAX_VARIANTS)
        .optional()
        .describe(
          'independent tries, each with its own net order; the one leaving fewest connections open (then fewest vias, shortest) is kept (default 2; 1 on boards of more than 1,500 pads)',
        ),
      seed: z
        .number()
        .int()
        .min(0)
        .max(0x7fffffff)
        .optional()
        .describe("seed of the variants' net orders (default 1): the same state, arguments and seed give the same result"),
      hints: Hints.optional().describe('how to order and steer the routes (default: none)'),
      options: RouteOptionsSchema.optional().describe("router options (default: each one's own default)"),
      verify: z
        .enum(['refuse', 'report', 'off'])
        .optional()
        .describe(
          'refuse (default): keep the result only if it routes something and adds no DRC error; report: keep it whatever it routes, with the DRC errors it adds listed; off: keep it without a DRC check (added_errors null)',
        ),
      commit: z.boolean().optional().describe('false: a dry run that reports and keeps nothing (default true)'),
      estimate: z
        .boolean()
        .optional()
        .describe(
          'true: route nothing and change nothing; answer the work bound the call would run under (per variant and in all) and what it is based on (default false)',
        ),
    })
    .strict(),
  rip_net: z.object({ net: name.describe('the net whose session copper goes') }).strict(),
  check: z
    .object({
      full: z.boolean().optional().describe("true: also the input board's own counts by type (default false: the current state and what the session added)"),
      refill: z
        .boolean()
        .optional()
        .describe('refill copper zones first: not available, only false (the default) is accepted; fills are checked as the file has them'),
    })
    .strict(),
  stuck_report: z
    .object({ redact: z.boolean().optional().describe('true: net names and references become net1, part1, … and the sentences are left out (default false)') })
    .strict(),
  inspect_pad: z
    .object({
      pad: name.describe('REF.PIN, e.g. "U1.3"'),
      radius_mm: z.number().gt(0).max(50).optional().describe('neighbourhood radius (default 2 mm)'),
    })
    .strict(),
  inspect_net: z.object({ net: name.describe('net name as the board has it') }).strict(),
  render: z
    .object({
      box_mm: box
        .optional()
        .describe("[x1, y1, x2, y2] in mm, board axes (y down): the region drawn (default: the pad's or net's frame when one is named, else the whole board)"),
      net: name.optional().describe('frame this net and highlight it (default: none)'),
      pad: name.optional().describe('frame this pad (REF.PIN) and its open connections (default: none)'),
      layers: layerNames.optional().describe('copper layers drawn (default: all)'),
      format: z
        .enum(['svg', 'png'])
        .optional()
        .describe('svg (default): the picture as SVG text; png: as a PNG image (png_base64; over MCP an image content block), to look at'),
      labels: z.boolean().optional().describe('false: no net labels on the tracks (default true)'),
    })
    .strict(),
  history: Empty,
  undo: Empty,
  restore: z.object({ state: z.number().int().min(0).describe('a state id from history') }).strict(),
  save: z
    .object({
      refill: z
        .boolean()
        .optional()
        .describe('refill copper zones in the written board: not available, only false (the default) is accepted; KiCad refills them when it opens the board'),
    })
    .strict(),
  place_via: z
    .object({
      net: name.describe('the net the via belongs to'),
      at_mm: point.describe('the via centre [x, y] in mm, board axes (y down)'),
      layers: z
        .tuple([name, name])
        .optional()
        .describe('[from, to] copper layers (default: the outer ones, a through via); a blind, buried or micro-via only where the project allows it'),
      verify: Verify,
      commit: Commit,
    })
    .strict(),
  route_connection: z
    .object({
      net: name.describe('the net of the connection'),
      a: name.optional().describe("REF.PIN of one end (with b; default: the net's only open connection between pads)"),
      b: name.optional().describe('REF.PIN of the other end (with a; default as for a)'),
      waypoints: z
        .array(
          z
            .object({ at_mm: point.describe('[x, y] in mm; snapped to the router grid'), layer: name.describe('copper layer the route passes the point on') })
            .strict(),
        )
        .max(16)
        .optional()
        .describe('points the route passes in this order, a via where consecutive layers differ (default: none)'),
      corridor_mm: box
        .optional()
        .describe('a box the track centres stay inside (a few grid steps round the ends and waypoints are always allowed; default: none)'),
      width_mm: z.number().gt(0).max(10).optional().describe("track width, at least the rules' minimum for the net (default: its class width)"),
      off_grid: z
        .enum(['layer', 'via'])
        .optional()
        .describe(
          "route off the router's grid: the shortest path between the exact obstacles, bending at their corners, for a lane no grid site lies in; 'layer' on a copper layer both pads share (at the class width, then the narrowest the rules allow), 'via' across the layers through the class's through vias; not with waypoints (default: on a grid)",
        ),
      options: RouteOptionsSchema.optional().describe(
        "router options, as route's (e.g. via_in_pad where the ends share no layer and a via fits only in a pad of the net; default: each one's own default)",
      ),
      work: z
        .number()
        .int()
        .min(1)
        .max(MAX_CALL_WORK)
        .optional()
        .describe(
          "the most this call may spend (it routes one variant, on a grid of its own), bounded as route's work is (default: the board's budget for one connection, 40.1 M; within a session limit, at most what is left)",
        ),
      verify: Verify,
      commit: Commit,
    })
    .strict(),
  rip: z
    .object({
      box_mm: box,
      nets: z.array(name).min(1).max(MAX_ROUTE_NETS).optional().describe('only these nets (default: every net)'),
      layers: layerNames.optional().describe('only on these copper layers (default: all)'),
      commit: Commit,
    })
    .strict(),
  reserve: z
    .object({
      net: name.describe('the net the box or via site is kept for'),
      box_mm: box.optional().describe("a box other nets' new copper stays out of (default: none)"),
      via_at_mm: point.optional().describe("a via site [x, y] in mm kept clear for the net's via (default: none)"),
      layers: layerNames.optional().describe('only on these copper layers (default: all)'),
      release: z.boolean().optional().describe("true: drop the net's reservations instead (default false)"),
      commit: Commit,
    })
    .strict(),
} as const;

export type ToolName = keyof typeof TOOL_SCHEMAS;
export type ToolArgs<N extends ToolName> = z.output<(typeof TOOL_SCHEMAS)[N]>;
/** What a caller may send tool N (before defaults). */
export type ToolInput<N extends ToolName> = z.input<(typeof TOOL_SCHEMAS)[N]>;

export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  board_info: 'Board name, copper layers, counts (board and session), open connections, state id, work used and left, rules summary and rule warnings.',
  open_connections:
    "Connections still open in the current state: net, a, b (REF.PIN or zone; for a zone end, a_pad or b_pad: the pad of the piece of the zone nearest the other end, which route_connection takes), length_mm, and after a route reason, why, rips, fails, blockers, and fixed_walls where the fixed copper alone walls it in on the router's grid (route_connection off_grid may still find it).",
  route:
    'Route nets (default: all open). A transaction: kept only if verify allows it and commit is not false. Reports new copper per net, each differential pair it touched (lengths, difference, coupling), added DRC errors and the connections left open with reasons.',
  rip_net: "Remove one net's session copper (a new state). The board's own copper is never removed.",
  check: 'DRC and unconnected items by type, and what the session added relative to the input board, with up to five examples each.',
  stuck_report:
    "For the last route: the connections it left open (the set route's open_total, open_connections and board_info count: the copper it left, zone fills connecting), each with the router's reason (no_reason, with a sentence, where the router gave none), the reasons by count, crowding, and the parts at the open ends.",
  inspect_pad: 'A pad (REF.PIN): net, position, layers, size, open connections ending on it, nearby pads and copper.',
  inspect_net:
    "A net's pads, board and session copper, length per layer and in all, its length as KiCad measures it for length rules (vias through the stack-up counted) with the custom length, skew and via-count rules that govern it, open connections, bounding box and class rules; for one net of a differential pair (KiCad's naming rule: a final +/- or P/N), the partner, its length, the difference, and how much of the pair runs coupled at the class's pair gap (as KiCad's coupling check pairs parallel tracks).",
  render:
    "A picture of a region (default the board; net: that net, highlighted; pad: around it, the blockers of its stuck connections outlined in orange): pads, tracks and vias in KiCad's layer colours, open connections as dashed lines, a label per net on its longest track, a layer legend and a scale bar. format svg (default) or png. Returns box_mm (the region drawn), width_px, height_px, px_per_mm, scale_bar_mm, grid_pitch_mm (the router's grid step) and the legend's colours.",
  history:
    'The kept states (id, the call that made it, routed connections, vias, copper length) and the moves between them, oldest first: each change, undo and restore with its call and the states it went from and to.',
  undo: 'Back to the state the current one was made from.',
  restore: 'Go to any kept state; a change after it starts a new branch.',
  save: "Write the current state to the output board named when the session started, and the input's .kicad_pro and .kicad_dru beside it where none is there (never over one). Returns counts, the DRC types added and rules_written (the base names of the rule files it wrote).",
  place_via: "Place one via of a net's class at a point (a new state when kept). Checked at exact geometry; it need not connect anything yet.",
  route_connection:
    'Route one connection (two pads of a net), optionally through waypoints in order, inside a corridor box, at a given width, or off the grid. A transaction like route; says why when it cannot.',
  rip: "Remove the session copper of some nets (default all) that lies in a box, on some layers (a new state). The board's own copper is never removed.",
  reserve: 'Keep a box or a via site for one net: later routes of other nets stay out of it (until released or undone). A new state; copper is unchanged.',
};

export const TOOL_NAMES = Object.keys(TOOL_SCHEMAS) as ToolName[];

export function isToolName(tool: string): tool is ToolName {
  return Object.hasOwn(TOOL_SCHEMAS, tool);
}

/** The error for a tool name not in the table: it names every tool and where their arguments are listed. */
export function unknownTool(tool: string): ToolError {
  return new ToolError(
    'unknown_name',
    `unknown tool "${keyPath([tool])}"; the tools are ${TOOL_NAMES.join(', ')} (each with its arguments: MCP tools/list, \`tracemaker relay tools NAME\` or \`tracemaker session --tools\`)`,
  );
}

/** The schema that validates the value at `path` inside `schema` (optional and default unwrapped), if any. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; ; i++) {
    while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
    if (i === path.length || !s) return s;
    const k = path[i];
    if (s instanceof z.ZodObject) s = typeof k === 'string' && Object.hasOwn(s.shape, k) ? (s.shape[k] as z.ZodType) : undefined;
    else if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else if (s instanceof z.ZodRecord) s = s.valueType as z.ZodType;
    else return undefined;
  }
}

/**
 * Validates a call's arguments. `undefined`/`null` arguments mean `{}`. Throws a ToolError
 * (bad_argument) naming the tool and the first offending key; an unknown key's error lists the
 * keys allowed at that place, a bad choice the values allowed.
 */
export function parseArgs<N extends ToolName>(tool: N, args: unknown): ToolArgs<N> {
  const r = TOOL_SCHEMAS[tool].safeParse(args ?? {});
  if (r.success) return r.data as ToolArgs<N>;
  const issue = r.error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const where = keyPath([...issue.path, issue.keys[0]]);
    const at = schemaAt(TOOL_SCHEMAS[tool], issue.path);
    const keys = at instanceof z.ZodObject ? Object.keys(at.shape) : [];
    const allowed = keys.length ? `allowed: ${keys.join(', ')}` : issue.path.length ? 'no keys are allowed there' : `${tool} takes no arguments`;
    throw new ToolError('bad_argument', `${tool}: unknown key "${where}" (${allowed})`);
  }
  const where = keyPath(issue.path);
  const what = where ? `key "${where}"` : 'arguments';
  if (issue.code === 'invalid_value') {
    throw new ToolError('bad_argument', `${tool}: ${what}: not an allowed value (allowed: ${issue.values.map((v) => JSON.stringify(v)).join(', ')})`);
  }
  throw new ToolError('bad_argument', `${tool}: ${what}: ${issue.message}`);
}

/** JSON Schema of a tool's arguments (MCP's inputSchema). */
export function inputSchema(tool: ToolName): Record<string, unknown> {
  const s = z.toJSONSchema(TOOL_SCHEMAS[tool], { io: 'input' }) as Record<string, unknown>;
  delete s.$schema;
  return s;
}

export interface ToolListing {
  name: ToolName;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Every tool with its description and JSON Schema, in table order: MCP's tools/list, `relay
 *  tools` and `session --tools` all print this one list. */
export function toolList(): ToolListing[] {
  return TOOL_NAMES.map((name) => ({ name, description: TOOL_DESCRIPTIONS[name], inputSchema: inputSchema(name) }));
}
