// What a rule condition can ask of an item's kind: KiCad's `A.Type`, `A.Pad_Type` and
// `A.isPlated()`, answered three-valued (undefined when the item's kind is not known, as the
// router asks per net). Names and comparisons follow KiCad's expression evaluator: `A.Type` is the
// item type's name ("Track" for straight and arc tracks alike), a pad's type is its attribute's
// name, and strings compare with case ignored, with `*` and `?` as wildcards.

import type { PadType, Via } from './model.ts';
import { wildcard } from './rule-area.ts';

/** An item as `A.Type` tells it apart; arcs are tracks (KiCad names both "Track"). */
export type RuleItemKind = 'track' | 'via' | 'pad' | 'zone' | 'graphic' | 'text';

/** The kinds of item the router adds: a rule that can match neither never governs its copper. */
export const ROUTER_KINDS: readonly RuleItemKind[] = ['track', 'via'];

const TYPE_NAME: Record<RuleItemKind, string> = { track: 'Track', via: 'Via', pad: 'Pad', zone: 'Zone', graphic: 'Graphic', text: 'Text' };

const PAD_TYPE_NAME: Record<PadType, string> = {
  thru_hole: 'Through-hole',
  smd: 'SMD',
  connect: 'Edge connector',
  np_thru_hole: 'NPTH, mechanical',
};

/** The properties of an item's kind a condition may compare (`A.Type == 'Via'`, …). */
export type ItemTypeProp = 'Type' | 'Pad_Type' | 'Via_Type';

/** Wildcard values of rule conditions, compiled. */
const PATTERNS = new Map<string, RegExp>();

/** KiCad's string equality in rule conditions: case ignored; a value holding `*` or `?` is a
 *  wildcard pattern. */
export function kicadStringEquals(actual: string, value: string): boolean {
  if (!/[*?]/.test(value)) return actual.toLowerCase() === value.toLowerCase();
  // Asked for every pair the DRC measures under such a rule: each pattern is compiled once.
  let re = PATTERNS.get(value);
  if (!re) PATTERNS.set(value, (re = wildcard(value, 'i')));
  return re.test(actual);
}

/** What KiCad calls a via's type in rule conditions (`A.Via_Type`): KiCad 9 has one name for
 *  blind and buried vias, KiCad 10 names them apart (a via its file calls blind is "Blind",
 *  whichever layers it joins). Checked with kicad-cli 9.0.8 and 10.0.7. */
export function viaTypeName(v: Pick<Via, 'type' | 'buried'>, kicad10: boolean): string {
  if (v.type === 'through') return 'Through';
  if (v.type === 'micro') return 'Micro';
  return !kicad10 ? 'Blind/buried' : v.buried ? 'Buried' : 'Blind';
}

/** What an item-kind atom says of an item of `kind` (a pad of `padType`, a via KiCad names
 *  `viaType`); undefined when the kind, or the type asked where it matters, is not known. */
export function itemKindAtom(
  c: { kind: 'itemType'; prop: ItemTypeProp; negate: boolean; value: string } | { kind: 'plated' },
  kind: RuleItemKind | undefined,
  padType: PadType | undefined,
  viaType: string | undefined,
): boolean | undefined {
  if (kind === undefined) return undefined;
  if (c.kind === 'plated') {
    if (kind === 'via') return true;
    if (kind !== 'pad') return false;
    return padType === undefined ? undefined : padType === 'thru_hole';
  }
  if (c.prop === 'Type') return kicadStringEquals(TYPE_NAME[kind], c.value) !== c.negate;
  // Only vias have a via type; as with a pad's type, other items' is neither equal nor unequal.
  if (c.prop === 'Via_Type') {
    if (kind !== 'via') return false;
    return viaType === undefined ? undefined : kicadStringEquals(viaType, c.value) !== c.negate;
  }
  // Only pads have a pad type; KiCad's undefined value is neither equal nor unequal to anything.
  if (kind !== 'pad') return false;
  if (padType === undefined) return undefined;
  return kicadStringEquals(PAD_TYPE_NAME[padType], c.value) !== c.negate;
}
