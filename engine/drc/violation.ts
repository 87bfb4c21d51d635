// A DRC finding as the engine reports it: KiCad's type key, the severity the project gives that
// type, a sentence, the nets involved (names) and where (nm). Also the small collector the checks
// report into, which applies severities and drops ignored types. No geometry here.

import type { Board, Pt } from '../board/model.ts';
import type { RuleResolver, Severity } from '../board/rules.ts';
import type { CopperItem } from './copper-items.ts';

/** KiCad's DRC type keys for the checks the engine runs. */
export type ViolationType =
  | 'clearance'
  | 'shorting_items'
  | 'tracks_crossing'
  | 'copper_edge_clearance'
  | 'hole_clearance'
  | 'hole_to_hole'
  | 'track_width'
  | 'via_diameter'
  | 'annular_width'
  | 'drill_out_of_range'
  | 'microvia_drill_out_of_range'
  | 'track_dangling'
  | 'via_dangling'
  | 'item_on_disabled_layer'
  | 'items_not_allowed'
  | 'solder_mask_bridge'
  | 'length_out_of_range'
  | 'skew_out_of_range'
  | 'too_many_vias'
  | 'diff_pair_gap_out_of_range'
  | 'diff_pair_uncoupled_length_too_long';

export const VIOLATION_TYPES: readonly ViolationType[] = [
  'clearance',
  'shorting_items',
  'tracks_crossing',
  'copper_edge_clearance',
  'hole_clearance',
  'hole_to_hole',
  'track_width',
  'via_diameter',
  'annular_width',
  'drill_out_of_range',
  'microvia_drill_out_of_range',
  'track_dangling',
  'via_dangling',
  'item_on_disabled_layer',
  'items_not_allowed',
  'solder_mask_bridge',
  'length_out_of_range',
  'skew_out_of_range',
  'too_many_vias',
  'diff_pair_gap_out_of_range',
  'diff_pair_uncoupled_length_too_long',
];

/** Which board item a violation names: kind and index in the board's array ('off_layer':
 *  board.offLayerItems, 'mask': board.maskGraphics). */
export interface ItemRef {
  kind: CopperItem['kind'] | 'outline' | 'keepout' | 'off_layer' | 'mask';
  index: number;
}

export interface Violation {
  type: ViolationType;
  severity: Exclude<Severity, 'ignore'>;
  description: string;
  /** Net names of the items involved (empty name for net 0 is left out). */
  nets: string[];
  /** Marker position, nm. */
  pos: Pt;
  items: ItemRef[];
  /** length_out_of_range: the net's measured length and the rule's bounds, nm. */
  length?: { net: number; rule: string; actual: number; min?: number; opt?: number; max?: number };
  /** skew_out_of_range: the net's length, the longest of its set (the target) and the most the
   *  rule lets them differ, nm. */
  skew?: { net: number; rule: string; actual: number; target: number; targetNet: number; max: number };
}

/**
 * KiCad's DRC stops reporting a type once it has this many findings (drc_engine.cpp:
 * ERROR_LIMIT 199, EXTENDED_ERROR_LIMIT 499 for clearance), so counts agree only if capped alike.
 */
export function errorLimit(type: ViolationType): number {
  return type === 'clearance' ? 499 : 199;
}

/** Collects violations, applying the project's severities (ignored types are never built) and,
 *  unless `limited` is false, KiCad's per-type limits. */
export class ViolationSink {
  readonly violations: Violation[] = [];
  readonly #severity = new Map<string, Severity>();
  readonly #count = new Map<ViolationType, number>();

  constructor(
    readonly board: Board,
    readonly rules: RuleResolver,
    readonly limited = true,
  ) {}

  severity(type: ViolationType): Severity {
    let s = this.#severity.get(type);
    if (s === undefined) this.#severity.set(type, (s = this.rules.severity(type)));
    return s;
  }

  /** True when a type is reported at all (not set to ignore). */
  wants(type: ViolationType): boolean {
    return this.severity(type) !== 'ignore';
  }

  /** True once a type has reached KiCad's limit: further findings of it are dropped. */
  full(type: ViolationType): boolean {
    return this.limited && (this.#count.get(type) ?? 0) >= errorLimit(type);
  }

  add(type: ViolationType, description: string, pos: Pt, nets: number[], items: ItemRef[], measure?: Pick<Violation, 'length' | 'skew'>): void {
    const severity = this.severity(type);
    if (severity === 'ignore' || this.full(type)) return;
    this.#count.set(type, (this.#count.get(type) ?? 0) + 1);
    const names: string[] = [];
    for (const n of nets) {
      const name = this.board.nets[n]?.name;
      if (n > 0 && name !== undefined && !names.includes(name)) names.push(name);
    }
    const v: Violation = { type, severity, description, nets: names, pos: { x: Math.round(pos.x), y: Math.round(pos.y) }, items };
    if (measure) Object.assign(v, measure);
    this.violations.push(v);
  }
}

/**
 * True when a finding involves a copper zone's fill. KiCad refills zones around new copper, so
 * where zones are soft a finding between new copper and the fill as the file has it is left to
 * the refill: the router's final gate and the session's verify skip these alike.
 */
export function againstZoneFill(v: Violation): boolean {
  return v.items.some((it) => it.kind === 'zone');
}
