// The design-rule check: runs every check on a loaded design and returns KiCad-typed findings and
// the unconnected count (KiCad's ratsnest). `checkAdded` judges only the pairs that involve new
// copper, for the router and the session. Checks themselves live one per file beside this one.

import { type NewTrack, type NewVia, withCopper } from '../board/added-copper.ts';
import type { Design } from '../board/design.ts';
import { checkClearance } from './clearance.ts';
import { connect } from './connectivity.ts';
import { checkDangling } from './dangling.ts';
import { checkDisabledLayers } from './disabled-layer.ts';
import { checkEdges } from './edge.ts';
import { checkHoleToHole } from './hole-to-hole.ts';
import { checkKeepouts } from './keepout.ts';
import { checkTextClearance } from './text-clearance.ts';
import { checkSolderMask } from './solder-mask.ts';
import { checkWidths } from './widths.ts';
import { checkNetLengths } from './net-length.ts';
import { checkDiffPairRules } from './diff-pair-rules.ts';
import { CopperItems } from './copper-items.ts';
import { ViolationSink, VIOLATION_TYPES, type Violation, type ViolationType } from './violation.ts';

export interface DrcReport {
  /** Every finding whose type is not ignored by the project, in check order. */
  violations: Violation[];
  /** Missing connections (ratsnest edges), KiCad's "unconnected items". */
  unconnected: number;
  /** Error-level findings per type (types with none are left out). */
  errors: Partial<Record<ViolationType, number>>;
}

export interface DrcOptions {
  /** Restrict pair checks to pairs with at least one of these tracks / vias (board indices);
   *  such a run reports every finding, past KiCad's per-type limits. */
  scope?: { tracks: number[]; vias: number[] };
  /** With a scope: nets whose length, skew, via-count and pair rules are judged as well, copper
   *  of theirs in the scope or not. */
  nets?: readonly number[];
}

function summarise(violations: Violation[]): Partial<Record<ViolationType, number>> {
  const errors: Partial<Record<ViolationType, number>> = {};
  for (const t of VIOLATION_TYPES) {
    const n = violations.filter((v) => v.type === t && v.severity === 'error').length;
    if (n > 0) errors[t] = n;
  }
  return errors;
}

/** Runs the full DRC on a design. */
export function runDrc(design: Design, opts: DrcOptions = {}): DrcReport {
  const { board, rules } = design;
  const copper = new CopperItems(board, Math.max(rules.maxClearance(), rules.minimums.holeClearance));
  // A scoped run is a gate on new copper: KiCad's cap on findings of one type (499 clearances)
  // would let the board's own findings, or new copper's against fills KiCad refills, crowd out
  // a real one, so it reports every finding.
  const sink = new ViolationSink(board, rules, !opts.scope);
  const conn = connect(copper);
  copper.applyNets(conn.nets);
  let scope: Set<number> | undefined;
  if (opts.scope) {
    scope = new Set<number>();
    for (const t of opts.scope.tracks) scope.add(copper.trackItem[t]);
    for (const v of opts.scope.vias) scope.add(copper.viaItem[v]);
  }
  checkClearance(copper, rules, sink, { scope });
  checkTextClearance(copper, rules, sink, scope);
  checkDangling(copper, conn, sink, scope);
  checkEdges(copper, rules, sink, scope);
  checkWidths(copper, rules, sink, scope);
  checkHoleToHole(copper, rules, sink, scope);
  checkKeepouts(copper, sink, scope);
  checkSolderMask(copper, rules, sink, scope);
  let netScope: Set<number> | undefined;
  if (scope) {
    netScope = new Set<number>(opts.nets);
    for (const id of scope) netScope.add(copper.items[id].net);
  }
  checkNetLengths(copper, rules, sink, netScope);
  checkDiffPairRules(copper, rules, sink, netScope);
  // Off-layer items are the board's own, never added copper, but they count in the ratsnest.
  const offClusters = checkDisabledLayers(board, copper, scope ? null : sink);
  return { violations: sink.violations, unconnected: conn.unconnected + offClusters, errors: summarise(sink.violations) };
}

/**
 * Judges added copper: the tracks and vias given are appended to the board (a copy; the design
 * is not changed) and only pairs involving them are checked, with the length and pair rules of
 * their nets and of `nets`; the unconnected count is that of the whole board with them.
 */
export function checkAdded(design: Design, tracks: readonly NewTrack[], vias: readonly NewVia[], nets?: readonly number[]): DrcReport {
  const board = design.board;
  const t0 = board.tracks.length;
  const v0 = board.vias.length;
  return runDrc(
    { ...design, board: withCopper(board, tracks, vias) },
    { scope: { tracks: tracks.map((_, k) => t0 + k), vias: vias.map((_, k) => v0 + k) }, nets },
  );
}
