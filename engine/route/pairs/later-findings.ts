// What the router's final gate, and the checks of the steps after it, leave to later: a finding
// against a zone fill KiCad refills around new copper (with soft zones), a net too short for its
// length or skew rule (tune-length.ts lengthens it), a pair's rule (pair-rules.ts settles it once
// the pair is laid as a pair).

import type { Violation } from '../../drc/violation.ts';
import { againstZoneFill } from '../../drc/violation.ts';
import { PAIR_RULE_TYPES } from './pair-rules.ts';

/** True when `v` is settled by a later step, not by refusing the copper it names. */
export function settledLater(v: Violation, softZones: boolean): boolean {
  if (softZones && againstZoneFill(v)) return true;
  if (v.skew || (v.length && v.length.min !== undefined && v.length.actual < v.length.min)) return true;
  return PAIR_RULE_TYPES.has(v.type);
}
