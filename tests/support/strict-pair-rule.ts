// A differential-pair rule for /DP* pairs that allows no uncoupled length (0.001 mm) and a gap of
// 0.2–0.3 mm: every pair's coupled length and every gap out of range shows in the DRC's findings,
// so KiCad's and the engine's measurement of a pair can be compared word for word; and the
// engine's findings of those types.
import { runDrc } from '../../engine/drc/drc.ts';
import { loadDesign } from '../../engine/kicad/load.ts';

export const STRICT_PAIR_RULE = `(version 1)
(rule "dp"
\t(condition "A.inDiffPair('/DP*')")
\t(constraint diff_pair_gap (min 0.2mm) (max 0.3mm))
\t(constraint diff_pair_uncoupled (max 0.001mm)))
`;

/** The DRC types the rule raises. */
export const PAIR_TYPES = ['diff_pair_gap_out_of_range', 'diff_pair_uncoupled_length_too_long'];

/** The engine's findings of the pair types on a board with its project and rules. */
export function enginePairFindings(files: { board: string; project: string; dru: string }): { nets: string[]; description: string }[] {
  return runDrc(loadDesign(files))
    .violations.filter((v) => PAIR_TYPES.includes(v.type))
    .map((v) => ({ nets: v.nets, description: v.description }));
}
