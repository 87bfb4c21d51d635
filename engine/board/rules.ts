// Design rules as the router and the DRC ask for them: which net class a net is in, and the
// clearance, width and via size that apply to an item or a pair of items. Resolution follows
// KiCad: net class values, raised by the board minimums, overridden by matching custom rules
// (a later rule in the file wins over an earlier one).

import type { Board, Diagnostic, LayerMask, PadType } from './model.ts';
import type { Shape } from '../geom/shapes.ts';
import { RuleAreas, wildcard } from './rule-area.ts';
import { diffPairOf } from './diff-pairs.ts';
import { itemKindAtom, ROUTER_KINDS, type ItemTypeProp, type RuleItemKind } from './rule-item-kind.ts';

export type Severity = 'error' | 'warning' | 'ignore';

/** Board Setup → Constraints, nm. */
export interface BoardMinimums {
  clearance: number;
  trackWidth: number;
  connection: number;
  viaDiameter: number;
  viaAnnularWidth: number;
  throughHoleDiameter: number;
  holeClearance: number;
  holeToHole: number;
  copperEdgeClearance: number;
  microviaDiameter: number;
  microviaDrill: number;
  allowBlindBuried: boolean;
  allowMicrovias: boolean;
  maxError: number;
  /** Solder mask to copper clearance (`solder_mask_to_copper_clearance`): how far copper must
   *  keep from another net's mask opening. */
  solderMaskToCopper: number;
  /** The least number of spokes a thermal relief must join to its zone (`min_resolved_spokes`),
   *  below which KiCad reports a starved thermal. */
  resolvedSpokes: number;
}

export interface NetClass {
  name: string;
  /** Lower number = higher priority (KiCad 9); Default is lowest. */
  priority: number;
  clearance: number;
  trackWidth: number;
  viaDiameter: number;
  viaDrill: number;
  microviaDiameter: number;
  microviaDrill: number;
  diffPairWidth: number;
  diffPairGap: number;
  /** Edge-to-edge gap between a pair's two vias where it changes layer. */
  diffPairViaGap: number;
}

export interface ProjectRules {
  minimums: BoardMinimums;
  classes: NetClass[];
  patterns: { pattern: string; netclass: string }[];
  /** Explicit net → class names (from the schematic). */
  assignments: Map<string, string[]>;
  severities: Map<string, Severity>;
  warnings: Diagnostic[];
}

export type RuleCondition =
  | { kind: 'cmp'; item: 'A' | 'B'; prop: 'NetClass' | 'NetName' | 'Layer'; negate: boolean; value: string }
  /** `A.inDiffPair('pattern')`: the item's net has a differential-pair partner and the pair's
   *  base name matches the wildcard pattern. */
  | { kind: 'diffPair'; item: 'A' | 'B'; pattern: string }
  /** `A.intersectsArea('name')` / `A.enclosedByArea('name')`: the item's copper reaches into /
   *  lies within a zone or rule area of that name (wildcards allowed); see rule-area.ts. */
  | { kind: 'area'; item: 'A' | 'B'; test: 'intersects' | 'enclosed'; name: string }
  /** `A.Type == 'Track'` / `A.Pad_Type != 'SMD'` / `A.Via_Type == 'Micro'`: the item's KiCad type
   *  name, pad type name or via type name against a value, as KiCad compares strings (case aside,
   *  `*` and `?` wildcards); a pad's or via's type asked of another item is KiCad's undefined
   *  value, so both == and != are false. */
  | { kind: 'itemType'; item: 'A' | 'B'; prop: ItemTypeProp; negate: boolean; value: string }
  /** `A.isPlated()`: a via, or a plated through-hole pad. */
  | { kind: 'plated'; item: 'A' | 'B' }
  | { kind: 'not'; a: RuleCondition }
  | { kind: 'and'; a: RuleCondition; b: RuleCondition }
  | { kind: 'or'; a: RuleCondition; b: RuleCondition };

export interface RuleConstraint {
  kind:
    | 'clearance'
    | 'track_width'
    | 'via_diameter'
    | 'hole_clearance'
    | 'edge_clearance'
    | 'hole_size'
    | 'length'
    | 'skew'
    | 'via_count'
    | 'diff_pair_gap'
    | 'diff_pair_uncoupled'
    | 'annular_width'
    | 'hole_to_hole';
  /** nm, but a count of vias for via_count. */
  min?: number;
  opt?: number;
  max?: number;
  /** skew only: each differential pair's two nets are matched to each other, not to all the
   *  rule's nets. */
  withinDiffPairs?: boolean;
}

export interface CustomRule {
  name: string;
  order: number;
  layer: string | undefined;
  /** The condition; when it could not be read, its readable `&&` conjuncts (every item the
   *  whole condition matches, this matches too), or null. */
  condition: RuleCondition | null;
  constraints: RuleConstraint[];
  /** KiCad constraint keywords of the rule the engine does not model (`track_angle`, …). */
  unmodelled: string[];
  /** The condition could not be read: the rule applies nothing, and for the router it may match
   *  any net its readable conjuncts allow (see unmodelledRules). */
  unreadCondition?: boolean;
  /** The file the rule came from, as the reader was told (for messages). */
  source?: string;
}

/** A custom rule that governs a net with constraints the engine does not model. */
export interface UnmodelledRule {
  rule: string;
  /** File name of the rule (no folders). */
  file: string;
  /** Constraint keywords new copper could break, in the rule's order. */
  constraints: string[];
  /** The rule's condition could not be read, so it is taken to match every net. */
  unreadCondition: boolean;
}

/**
 * Constraint keywords that no track or via the router adds can break: they judge footprints,
 * silkscreen, text, zone fills or mask and paste openings. Every other keyword the engine does
 * not model, known or not, is taken to be breakable by new copper.
 */
const COPPER_BLIND = new Set([
  'courtyard_clearance',
  'silk_clearance',
  'text_height',
  'text_thickness',
  'thermal_relief_gap',
  'thermal_spoke_width',
  'min_resolved_spokes',
  'zone_connection',
  'solder_mask_expansion',
  'solder_paste_abs_margin',
  'solder_paste_rel_margin',
  'bridged_mask',
]);

/** Whether tracks and vias the router adds could break a constraint of this KiCad keyword. */
export function newCopperCanBreak(kind: string): boolean {
  return !COPPER_BLIND.has(kind);
}

/** Keywords KiCad evaluates for one item (B absent); every other one is asked of a pair. */
const SINGLE_ITEM = new Set([
  'length',
  'skew',
  'via_count',
  'diff_pair_gap',
  'diff_pair_uncoupled',
  'track_angle',
  'track_segment_length',
  'track_width',
  'via_diameter',
  'hole_size',
  'annular_width',
  'connection_width',
  'disallow',
]);

/** Three-valued truth of a condition asked of one net: undefined = cannot tell. */
type Maybe = boolean | undefined;

function and3(a: Maybe, b: () => Maybe): Maybe {
  if (a === false) return false;
  const y = b();
  if (y === false) return false;
  return a === true && y === true ? true : undefined;
}

function or3(a: Maybe, b: () => Maybe): Maybe {
  if (a === true) return true;
  const y = b();
  if (y === true) return true;
  return a === false && y === false ? false : undefined;
}

function not3(a: Maybe): Maybe {
  return a === undefined ? undefined : !a;
}

/** What a rule condition can ask of an item. */
export interface RuleItem {
  net: number;
  /** Copper layer index the check is on; -1 for none in particular (a via's size). */
  layer: number;
  /** The item's copper, nm, for area conditions. Without it an area condition cannot be told,
   *  and a rule that depends on one may only raise what applies (see #bound). */
  shape?: Shape;
  /** The item's copper layers (default: `layer` alone). */
  layers?: LayerMask;
  /** Zone index when the item is (a fill of) a zone. */
  zone?: number;
  /** What kind of item it is (for `A.Type`, `A.isPlated()`); without it such atoms cannot be
   *  told, and a rule that depends on one may only raise what applies (see #bound). */
  kind?: RuleItemKind;
  /** A pad's type (for `A.Pad_Type`, `A.isPlated()`). */
  padType?: PadType;
  /** A via's type as the KiCad that judges it names it (for `A.Via_Type`; viaTypeName). */
  viaType?: string;
}

/** KiCad's severities for the checks the engine runs, when the project says nothing. */
const DEFAULT_SEVERITY: Record<string, Severity> = {
  clearance: 'error',
  shorting_items: 'error',
  tracks_crossing: 'error',
  copper_edge_clearance: 'error',
  hole_clearance: 'error',
  hole_to_hole: 'error',
  track_width: 'error',
  via_diameter: 'error',
  annular_width: 'error',
  drill_out_of_range: 'error',
  microvia_drill_out_of_range: 'error',
  track_dangling: 'warning',
  via_dangling: 'warning',
  item_on_disabled_layer: 'error',
  items_not_allowed: 'error',
  solder_mask_bridge: 'error',
  unconnected_items: 'error',
  length_out_of_range: 'error',
  skew_out_of_range: 'error',
  too_many_vias: 'error',
  diff_pair_gap_out_of_range: 'error',
  diff_pair_uncoupled_length_too_long: 'error',
};

function anchoredRegex(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return null;
  }
}

export class RuleResolver {
  readonly classOfNet: NetClass[];
  readonly defaultClass: NetClass;
  readonly #classByName = new Map<string, NetClass>();
  readonly #layerNames: string[];
  readonly #areas: RuleAreas;
  readonly #diffPairs = new Map<string, boolean>();

  constructor(
    readonly board: Board,
    readonly project: ProjectRules,
    readonly custom: CustomRule[] = [],
  ) {
    for (const c of project.classes) this.#classByName.set(c.name, c);
    this.defaultClass = this.#classByName.get('Default') ?? project.classes[0];
    this.#layerNames = board.copperLayers.map((l) => l.name);
    this.#areas = new RuleAreas(board.zones);
    const matchers = project.patterns.map((p) => ({ cls: this.#classByName.get(p.netclass)!, w: wildcard(p.pattern), r: anchoredRegex(p.pattern) }));
    this.classOfNet = board.nets.map((net) => {
      const found: NetClass[] = [];
      for (const name of project.assignments.get(net.name) ?? []) {
        const c = this.#classByName.get(name);
        if (c) found.push(c);
      }
      for (const m of matchers) if (m.w.test(net.name) || (m.r && m.r.test(net.name))) found.push(m.cls);
      if (found.length === 0) return this.defaultClass;
      // KiCad 9 composes several classes; the highest-priority one decides every value we use.
      let best = found[0];
      for (const c of found) if (c.priority < best.priority) best = c;
      return best;
    });
  }

  get minimums(): BoardMinimums {
    return this.project.minimums;
  }

  netClass(net: number): NetClass {
    return this.classOfNet[net] ?? this.defaultClass;
  }

  severity(type: string): Severity {
    return this.project.severities.get(type) ?? DEFAULT_SEVERITY[type] ?? 'error';
  }

  #matches(rule: CustomRule, a: RuleItem, b: RuleItem | null): Maybe {
    if (rule.layer !== undefined && a.layer >= 0 && !this.#layerMatches(rule.layer, a.layer)) return false;
    if (!rule.condition) return true;
    return this.#eval(rule.condition, a, b);
  }

  /**
   * Whether a net is one of a differential pair whose base name matches `pattern`: as KiCad
   * pairs nets, the name ends in +/- or P/N (digits and underscores after it allowed) and the
   * net with the other suffix exists; the base is the name without the suffix.
   */
  #inDiffPair(net: number, pattern: string): boolean {
    // Asked for every pair a diff-pair rule is tried on: the answer per net and pattern is kept.
    const key = `${net}\u0000${pattern}`;
    let known = this.#diffPairs.get(key);
    if (known === undefined) this.#diffPairs.set(key, (known = this.#diffPairOf(net, pattern)));
    return known;
  }

  #diffPairOf(net: number, pattern: string): boolean {
    const pair = diffPairOf(this.board.nets[net]?.name ?? '', this.board.netByName);
    return pair !== null && wildcard(pattern).test(pair.base);
  }

  #layerMatches(name: string, layer: number): boolean {
    if (name === 'outer') return layer === 0 || layer === this.#layerNames.length - 1;
    if (name === 'inner') return layer > 0 && layer < this.#layerNames.length - 1;
    return this.#layerNames[layer] === name;
  }

  /** A condition for a pair (or one item); undefined when an area condition meets an item
   *  without geometry. */
  #eval(c: RuleCondition, a: RuleItem, b: RuleItem | null): Maybe {
    if (c.kind === 'and') return and3(this.#eval(c.a, a, b), () => this.#eval(c.b, a, b));
    if (c.kind === 'or') return or3(this.#eval(c.a, a, b), () => this.#eval(c.b, a, b));
    if (c.kind === 'not') return not3(this.#eval(c.a, a, b));
    const item = c.item === 'A' ? a : b;
    if (!item) return false;
    if (c.kind === 'itemType' || c.kind === 'plated') return itemKindAtom(c, item.kind, item.padType, item.viaType);
    if (c.kind === 'diffPair') return this.#inDiffPair(item.net, c.pattern);
    if (c.kind === 'area') {
      if (!item.shape) return undefined;
      const probe = { shape: item.shape, layers: item.layers ?? (1 << Math.max(item.layer, 0)) >>> 0, layer: item.layer, zone: item.zone };
      return c.test === 'intersects' ? this.#areas.intersects(c.name, probe) : this.#areas.enclosedBy(c.name, probe);
    }
    let v: string;
    if (c.prop === 'NetClass') v = this.netClass(item.net).name;
    else if (c.prop === 'NetName') v = this.board.nets[item.net]?.name ?? '';
    else v = this.#layerNames[item.layer] ?? '';
    return (v === c.value) !== c.negate;
  }

  /**
   * The last matching custom rule's bound for a constraint, trying (A,B) and (B,A) since KiCad
   * evaluates a pair both ways; `otherwise` when no custom rule applies (undefined: none).
   *
   * A rule whose match cannot be told (an area condition asked without the item's geometry, as
   * the router asks per net and layer) may only raise the result: its bound counts when it is
   * larger than what applies without it, so a rule that lowers a minimum under an area does not
   * apply there and one that raises it does. Every bound the engine reads is a minimum or the
   * width the router draws, so larger is the safe side.
   */
  #bound(kind: RuleConstraint['kind'], bound: 'min' | 'opt' | 'max', a: RuleItem, b: RuleItem | null, otherwise?: number): number | undefined {
    let floor: number | undefined;
    let found: number | undefined;
    for (let k = this.custom.length - 1; k >= 0 && found === undefined; k--) {
      const rule = this.custom[k];
      const con = rule.constraints.find((x) => x.kind === kind && x[bound] !== undefined);
      if (!con) continue;
      const m = or3(this.#matches(rule, a, b), () => (b ? this.#matches(rule, b, a) : false));
      if (m === true) found = con[bound];
      else if (m === undefined) floor = Math.max(floor ?? -Infinity, con[bound]!);
    }
    const v = found ?? otherwise;
    return floor === undefined ? v : Math.max(v ?? -Infinity, floor);
  }

  /**
   * Custom rules with constraints the engine does not model, that new copper could break, and
   * whose condition can match an item of `net` on some layer (a rule's layer clause is not
   * asked). A pair constraint is asked with the net as A and as B, the other item unknown; a
   * single-item one with the net as A. What the condition cannot tell counts as a match, and a
   * rule whose condition could not be read matches every net its readable conjuncts allow. In
   * file order.
   */
  unmodelledRules(net: number): UnmodelledRule[] {
    const out: UnmodelledRule[] = [];
    for (const rule of this.custom) {
      const kinds = rule.unmodelled.filter(newCopperCanBreak);
      if (kinds.length === 0) continue;
      const hit = kinds.filter((k) => !rule.condition || this.#mayMatch(rule.condition, net, !SINGLE_ITEM.has(k)));
      if (hit.length === 0) continue;
      const file = (rule.source ?? '').split(/[\\/]/).pop() ?? '';
      out.push({ rule: rule.name, file, constraints: hit, unreadCondition: rule.unreadCondition === true });
    }
    return out;
  }

  /** The constraint keywords of unmodelledRules(net), each once, in first-seen order. */
  unmodelledConstraints(net: number): string[] {
    return [...new Set(this.unmodelledRules(net).flatMap((r) => r.constraints))];
  }

  /** Whether a condition can match a track or via of `net` as one item of the pair (as A alone
   *  for a single-item constraint), the other item unknown: pads and zones are never new copper. */
  #mayMatch(c: RuleCondition, net: number, pair: boolean): boolean {
    for (const kind of ROUTER_KINDS) {
      if (this.#maybe(c, 'A', net, kind) !== false) return true;
      if (pair && this.#maybe(c, 'B', net, kind) !== false) return true;
    }
    return false;
  }

  /** A condition with item `role` a `kind` of net `net` (null: unknown) and the other item
   *  unknown. */
  #maybe(c: RuleCondition, role: 'A' | 'B', net: number | null, kind: RuleItemKind): Maybe {
    if (c.kind === 'and') return and3(this.#maybe(c.a, role, net, kind), () => this.#maybe(c.b, role, net, kind));
    if (c.kind === 'or') return or3(this.#maybe(c.a, role, net, kind), () => this.#maybe(c.b, role, net, kind));
    if (c.kind === 'not') return not3(this.#maybe(c.a, role, net, kind));
    // The other item, and the layer of either, could be anything.
    if (c.item !== role) return undefined;
    if (c.kind === 'itemType' || c.kind === 'plated') return itemKindAtom(c, kind, undefined, undefined);
    if (net === null) return undefined;
    if (c.kind === 'diffPair') return this.#inDiffPair(net, c.pattern);
    if (c.kind === 'area') return undefined;
    if (c.prop === 'Layer') return undefined;
    const v = c.prop === 'NetClass' ? this.netClass(net).name : (this.board.nets[net]?.name ?? '');
    return (v === c.value) !== c.negate;
  }

  /**
   * The custom rule that sets a net's `length`, `skew`, `via_count` or a pair's `diff_pair_gap`
   * or `diff_pair_uncoupled` on a layer, as KiCad asks
   * it of each track and via of the net (the item alone, on its layer): the last rule in the
   * file with that constraint whose condition matches. Undefined when none does.
   */
  netConstraint(
    kind: 'length' | 'skew' | 'via_count' | 'diff_pair_gap' | 'diff_pair_uncoupled',
    net: number,
    layer: number,
  ): { rule: CustomRule; constraint: RuleConstraint } | undefined {
    for (let k = this.custom.length - 1; k >= 0; k--) {
      const rule = this.custom[k];
      const constraint = rule.constraints.find((x) => x.kind === kind);
      if (constraint && this.#matches(rule, { net, layer }, null) === true) return { rule, constraint };
    }
    return undefined;
  }

  /**
   * Copper clearance between two items of different nets, nm. A matching custom rule decides
   * outright, below the board minimum and a zone's own clearance too (KiCad returns a custom
   * rule's constraint before it raises net class values to local clearances and the board
   * minimum); else the larger class clearance, raised to `local` (a zone's own clearance, nm)
   * and the board minimum.
   */
  clearance(a: RuleItem, b: RuleItem, local = 0): number {
    const base = Math.max(this.netClass(a.net).clearance, this.netClass(b.net).clearance, local, this.minimums.clearance);
    return this.#bound('clearance', 'min', a, b, base)!;
  }

  /** The largest clearance any pair on the board can need, nm: the margin for spatial queries. */
  maxClearance(): number {
    let m = this.minimums.clearance;
    for (const c of this.project.classes) m = Math.max(m, c.clearance);
    for (const r of this.custom) for (const c of r.constraints) if (c.kind === 'clearance' && c.min !== undefined) m = Math.max(m, c.min);
    return m;
  }

  /** Width the router draws a net's tracks with on a layer, nm (custom opt/min, else class). */
  trackWidth(net: number, layer: number): number {
    const item: RuleItem = { net, layer, kind: 'track' };
    const w = this.#bound('track_width', 'opt', item, null, this.#bound('track_width', 'min', item, null, this.netClass(net).trackWidth))!;
    return Math.max(w, this.minimums.trackWidth);
  }

  /** Smallest track width allowed for a net on a layer (or for an item, with its geometry), nm. */
  minTrackWidth(net: number | RuleItem, layer = 0): number {
    const item: RuleItem = typeof net === 'number' ? { net, layer, kind: 'track' } : net;
    return Math.max(this.#bound('track_width', 'min', item, null) ?? 0, this.minimums.trackWidth);
  }

  /** Via the router places for a net: diameter and drill, nm (#placed). */
  via(net: number): { diameter: number; drill: number } {
    return this.#placed(net, false);
  }

  /**
   * Least copper ring round a via's or plated pad's hole, nm: a matching custom rule's minimum
   * outright (KiCad's board minimum is a rule without a condition that any custom rule
   * overrides), else the board's via annular minimum, which KiCad applies to plated pads too.
   */
  minAnnularWidth(item: RuleItem): number {
    return this.#bound('annular_width', 'min', item, null, this.minimums.viaAnnularWidth)!;
  }

  /** Micro-via the router places for a net: diameter and drill, nm (#placed). */
  microVia(net: number): { diameter: number; drill: number } {
    return this.#placed(net, true);
  }

  /**
   * The via (or micro-via) the router drills for a net: a rule's preferred size, else a rule's
   * least, else the class's; raised to the board minimums and to the least ring round the drill,
   * so the DRC (widths.ts) finds nothing against it. Rules are asked of a via of its type
   * (`A.Via_Type`): where the project allows blind and buried vias the router drills those at the
   * through via's size, so there a rule on their type counts as well.
   */
  #placed(net: number, micro: boolean): { diameter: number; drill: number } {
    const c = this.netClass(net);
    const viaType = micro ? 'Micro' : this.minimums.allowBlindBuried ? undefined : 'Through';
    const item: RuleItem = { net, layer: 0, kind: 'via', ...(viaType ? { viaType } : {}) };
    const d = this.#bound('via_diameter', 'opt', item, null, this.#bound('via_diameter', 'min', item, null, micro ? c.microviaDiameter : c.viaDiameter))!;
    const h = this.#bound('hole_size', 'opt', item, null, this.#bound('hole_size', 'min', item, null, micro ? c.microviaDrill : c.viaDrill))!;
    const drill = Math.max(h, micro ? this.minimums.microviaDrill : this.minimums.throughHoleDiameter);
    const ring = this.minAnnularWidth({ ...item, layer: -1 });
    return { diameter: Math.max(d, this.#leastViaDiameter(net, micro), drill + 2 * ring), drill };
  }

  /** Copper to board edge, nm, for new copper of a net on a layer or for an item. */
  edgeClearance(net: number | RuleItem, layer = 0): number {
    const item: RuleItem = typeof net === 'number' ? { net, layer } : net;
    return Math.max(this.#bound('edge_clearance', 'min', item, null) ?? 0, this.minimums.copperEdgeClearance);
  }

  /** Copper to a hole of another net, nm. */
  holeClearance(a: RuleItem, b: RuleItem): number {
    return Math.max(this.#bound('hole_clearance', 'min', a, b) ?? 0, this.minimums.holeClearance);
  }

  /**
   * Smallest via diameter allowed for a via, nm: a matching custom rule's minimum outright
   * (below the board minimum too, as KiCad lets a custom rule decide), else the board minimum
   * (for a micro-via its class's micro-via diameter: #leastViaDiameter). `via.layer` -1: the via
   * as a whole.
   */
  minViaDiameter(via: RuleItem, micro: boolean): number {
    return this.#bound('via_diameter', 'min', via, null, this.#leastViaDiameter(via.net, micro))!;
  }

  /**
   * The least diameter of a via of `net` where no custom rule says otherwise. kicad-cli 9.0.8 and
   * 10.0.7 hold a through via to the board minimum but a micro-via to its own net class's micro-via
   * diameter, not to the board's micro-via minimum (measured: a 0.22 mm micro-via of a class of
   * 0.2 mm passes under a board minimum of 0.25 mm; a 0.35 mm one of a class of 0.4 mm fails).
   */
  #leastViaDiameter(net: number, micro: boolean): number {
    return micro ? this.netClass(net).microviaDiameter : this.minimums.viaDiameter;
  }

  /** Smallest drilled hole allowed for a via or plated pad, nm: as minViaDiameter, over
   *  hole_size and the board's through-hole (or micro-via drill) minimum. */
  minHoleSize(item: RuleItem, micro: boolean): number {
    return this.#bound('hole_size', 'min', item, null, micro ? this.minimums.microviaDrill : this.minimums.throughHoleDiameter)!;
  }

  /**
   * Least gap between two drilled holes, nm: a matching custom rule's minimum outright (below
   * the board minimum too: kicad-cli 9 and 10 let a custom rule decide), else the board minimum.
   * Holes pierce every layer, so items are asked with layer -1.
   */
  holeToHoleBetween(a: RuleItem, b: RuleItem): number {
    return this.#bound('hole_to_hole', 'min', a, b, this.minimums.holeToHole)!;
  }

  /** The largest hole-to-hole gap any pair can need, nm: the margin for spatial queries. */
  maxHoleToHole(): number {
    let m = this.minimums.holeToHole;
    for (const r of this.custom) for (const c of r.constraints) if (c.kind === 'hole_to_hole' && c.min !== undefined) m = Math.max(m, c.min);
    return m;
  }

  /**
   * The gap the router keeps between a via's hole and any other hole, nm. Pairs are not matched
   * one by one there, so this is the safe side: the largest minimum of the board and of every
   * custom rule that could match a pair with a via in it.
   */
  get holeToHole(): number {
    let m = this.minimums.holeToHole;
    for (const r of this.custom)
      for (const c of r.constraints)
        if (c.kind === 'hole_to_hole' && c.min !== undefined && c.min > m && (!r.condition || this.#mayMatchVia(r.condition))) m = c.min;
    return m;
  }

  #mayMatchVia(c: RuleCondition): boolean {
    return this.#maybe(c, 'A', null, 'via') !== false || this.#maybe(c, 'B', null, 'via') !== false;
  }
}
