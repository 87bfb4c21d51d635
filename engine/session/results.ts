// What each tool answers, as both transports send it (JSON; millimetres and names). The handlers
// are checked against these in tools.ts, and Session.call returns them, so a caller that renames
// or misreads a field fails to compile instead of at run time.

import type { RouteResult, StuckCode } from '../route/index.ts';
import type { ErrorValue } from './errors.ts';
import type { ToolName } from './schemas.ts';
import type { StateCall } from './states.ts';

/** A point, mm. */
export type PointMm = [number, number];
/** A box, mm: min x, min y, max x, max y. */
export type BoxMm = [number, number, number, number];

/** DRC error types a change adds, each with up to five new examples. */
export type AddedErrors = { type: string; count: number; examples: { nets: string[]; at_mm: PointMm }[] }[];

/** A route's blocker: a net whose copper bounds the region the search reached. */
export interface BlockerJson {
  net: string;
  boundary_sites: number;
}

/** One open connection as the tools list it, with the route's reason when one was given. */
export interface ConnectionJson {
  net: string;
  /** The net's differential-pair partner (KiCad's naming rule), when it has one. */
  pair?: string;
  a: string;
  b: string;
  length_mm: number;
  /** For a zone end: the pad of the zone's piece nearest the other end. */
  a_pad?: string;
  b_pad?: string;
  reason?: StuckCode;
  why?: string;
  tried?: boolean;
  rips?: number;
  fails?: number;
  blockers?: BlockerJson[];
  /** What the searches ran into: statistics, not an enclosure. */
  search_hits?: { net: string; hits: number }[];
  hint?: string;
  /** The fixed copper alone walls it in on the router's grid: no rip frees a lane there, and a
   *  look off the grid (route_connection's off_grid) may. */
  fixed_walls?: boolean;
  at_mm?: PointMm;
  layer?: string;
}

/** Work of a call that routes: this call's, its bound and set-up, and the session's. */
export interface WorkJson {
  used: number;
  bound: number;
  setup: number;
  total_used: number;
  left: number | null;
}

/** How a change was settled (transaction.ts): kept or why not, and what it would add. */
export interface VerdictJson {
  committed: boolean;
  /** dry_run, nothing_routed, adds_drc_errors, breaks_reservation, too_close, not_routed. */
  reason?: string;
  state: number;
  /** Open connections of the state the session is in after the call. */
  open_total: number;
  added_errors: AddedErrors | null;
  breaks_reservations: string[];
}

export interface BoardInfoResult {
  board: string;
  copper_layers: string[];
  counts: {
    parts: number;
    pads: number;
    nets: number;
    board: { tracks: number; vias: number };
    session: { tracks: number; vias: number };
  };
  open_connections: number;
  state: number;
  work: { used: number; left: number | null; limit: number | null };
  rules: { clearance_mm: number; track_width_mm: number; via: { diameter_mm: number; drill_mm: number }; net_classes: string[] };
  warnings: string[];
}

export interface OpenConnectionsResult {
  state: number;
  total: number;
  listed: number;
  connections: ConnectionJson[];
}

export interface RouteEstimateResult {
  estimate: true;
  connections: number;
  variants: number;
  work: { per_variant: number; bound: number; used: 0; total_used: number; left: number | null };
  based_on: string;
  note: string;
}

export interface RouteDoneResult {
  committed: boolean;
  reason?: string;
  state: number;
  /** The call's open connections before it. */
  connections: number;
  routed: number;
  /** The call's open connections after it; open_total counts every net. */
  open_after: number;
  open_total: number;
  nets: { net: string; tracks: number; vias: number; length_mm: number }[];
  /** Each differential pair a routed net is one of, seen from its + net, on the copper after the call. */
  pairs: ({ net: string; track_length_mm: number } & PairJson)[];
  /** A sentence for each of those pairs left as two single tracks (less than COUPLED_SHARE of it at its gap, engine/drc/pair-coupling.ts). */
  pair_notes: string[];
  ripped: { tracks: number; vias: number };
  added_errors: AddedErrors | null;
  breaks_reservations: string[];
  open: ConnectionJson[];
  work: WorkJson;
  note?: string;
}

/** Not the router's RouteResult: what the session's route tool answers. */
export type RouteCallResult = RouteEstimateResult | RouteDoneResult;

export interface StateMoveResult {
  state: number;
  open_total: number;
}

export interface RipNetResult extends StateMoveResult {
  removed: { tracks: number; vias: number };
}

export interface CheckResult {
  state: number;
  unconnected: number;
  errors_by_type: Record<string, number>;
  input?: { unconnected: number; errors_by_type: Record<string, number> };
  added: { unconnected: number; errors: AddedErrors };
}

export interface SaveResult {
  saved: true;
  state: number;
  counts: { tracks: number; vias: number };
  /** Error types the session's copper adds to the input board; null without a DRC. */
  drc_types_added: string[] | null;
  /** The rule files written beside the output (not part of the result's digest). */
  rules_written: string[];
}

export interface StuckReportResult {
  committed: boolean;
  state: number;
  open: number;
  stopped: RouteResult['stopped'];
  reasons: Record<string, number>;
  crowding: { net: string; hits: number }[];
  parts: { ref: string; open_ends: number; at_mm?: PointMm; pads?: number }[];
  connections: { net: string; a: string; b: string; reason: string; why?: string; blockers: string[] }[];
}

export interface InspectPadResult {
  pad: string;
  net: string;
  position_mm: PointMm;
  layers: string[];
  size_mm: PointMm;
  shape: string;
  type: string;
  drill_mm?: number;
  open: ConnectionJson[];
  pads_near: { pad: string; net: string; distance_mm: number }[];
  copper_near: { net: string; layer: string; source: string; tracks: number; vias: number; length_mm: number }[];
}

export interface InspectNetResult {
  net: string;
  class: string;
  track_width_mm: number;
  clearance_mm: number;
  pad_count: number;
  pads: string[];
  board: { tracks: number; vias: number };
  session: { tracks: number; vias: number; length_mm: number; length_mm_by_layer: Record<string, number> };
  open: ConnectionJson[];
  bbox_mm: BoxMm | null;
  /** Along the net's tracks, the board's and the session's (vias and pads not counted). */
  track_length_mm: number;
  /** As KiCad measures a net for length and skew rules: its tracks and each via's length through
   *  the stack-up, with the vias counted (engine/drc/net-length.ts). */
  kicad_length_mm: number;
  vias_counted: number;
  /** The custom rules that set the net's length, skew and via count, with their bounds (mm; a
   *  count for vias); null where none does. */
  length_rules: { length: RuleBounds | null; skew: RuleBounds | null; via_count: RuleBounds | null };
  /** The differential pair the net is one of, by KiCad's naming rule (null when none). */
  pair: PairJson | null;
}

/** A custom rule's bounds on a net, as inspect_net gives them. */
export interface RuleBounds {
  rule: string;
  min?: number;
  max?: number;
  within_diff_pairs?: boolean;
}

/** A net's differential pair (KiCad's naming rule) as the tools report it, seen from that net. */
export interface PairJson {
  base: string;
  polarity: '+' | '-';
  partner: string;
  /** The partner's track length measured as the net's (board and session tracks). */
  partner_track_length_mm: number;
  length_difference_mm: number;
  partner_open: number;
  /** As KiCad's coupling check pairs parallel tracks: the length coupled at the class's pair gap
   *  (± 10 %), the longer net's length less that, its share of the longer net, and the range of
   *  edge-to-edge gaps over every parallel stretch found (null when none). */
  coupling: { class_gap_mm: number; coupled_mm: number; uncoupled_mm: number; coupled_fraction: number; gap_range_mm: [number, number] | null };
}

export interface RenderResult {
  state: number;
  box_mm: BoxMm;
  mime: 'image/png' | 'image/svg+xml';
  svg?: string;
  png_base64?: string;
  width_px: number;
  height_px: number;
  px_per_mm: number;
  scale_bar_mm: number;
  grid_pitch_mm: number;
  labelled_nets: number;
  /** Colours: each layer's, and the marks' (via, open connection, outlines, background). */
  legend: { layers: { name: string; colour: string }[] } & Record<'via' | 'open_connection' | 'highlighted_outline' | 'blocker_outline' | 'background', string>;
}

export interface HistoryResult {
  current: number;
  states: { id: number; parent: number | null; call: StateCall | null; routed: number; vias: number; length_mm: number }[];
  moves: { n: number; tool: string; args: StateCall['args']; from: number; to: number }[];
  moves_made: number;
}

export interface PlaceViaResult extends VerdictJson {
  conflict?: { with: string; net?: string };
  via: { net: string; at_mm: PointMm; layers: string[]; diameter_mm: number; drill_mm: number; type: string };
}

export interface RouteConnectionResult extends VerdictJson {
  routed: boolean;
  a: string;
  b: string;
  new_copper: { tracks: number; vias: number; length_mm: number };
  stuck?: { reason: StuckCode; why: string; blockers: BlockerJson[]; hint?: string; fixed_walls?: boolean };
  work: WorkJson;
}

export interface RipResult {
  committed: boolean;
  reason?: 'dry_run';
  state: number;
  removed: { tracks: number; vias: number };
  nets: string[];
  open_total: number;
  open: ConnectionJson[];
}

export interface ReserveResult {
  committed: boolean;
  reason?: 'dry_run';
  state: number;
  reserved: { net: string; box_mm: BoxMm; layers?: string[] }[];
}

/** Each tool's answer when it succeeds. */
export interface ToolResults {
  board_info: BoardInfoResult;
  open_connections: OpenConnectionsResult;
  route: RouteCallResult;
  rip_net: RipNetResult;
  check: CheckResult;
  stuck_report: StuckReportResult;
  inspect_pad: InspectPadResult;
  inspect_net: InspectNetResult;
  render: RenderResult;
  history: HistoryResult;
  undo: StateMoveResult;
  restore: StateMoveResult;
  save: SaveResult;
  place_via: PlaceViaResult;
  route_connection: RouteConnectionResult;
  rip: RipResult;
  reserve: ReserveResult;
}

/** What a call of tool N answers: its result, or an error value. */
export type ToolAnswer<N extends ToolName> = ToolResults[N] | ErrorValue;
