// A board's pair rules (diff_pair_gap, diff_pair_uncoupled) settled once pairs are laid as pairs:
// the router's gate leaves their findings to this, since a pair's two single tracks are judged
// again when coupled; a pair still breaking them is taken out, both nets open with the finding.

import type { Design } from '../../board/design.ts';
import { diffPairOf } from '../../board/diff-pairs.ts';
import { checkAdded } from '../../drc/drc.ts';
import type { RouteResult } from '../types.ts';
import { leaveOpen, type TakenOut } from '../finish/leave-open.ts';

/** The pair rules' findings: judged once pairs are coupled (settlePairRules), not before. */
export const PAIR_RULE_TYPES: ReadonlySet<string> = new Set(['diff_pair_gap_out_of_range', 'diff_pair_uncoupled_length_too_long']);

/**
 * `result` without the pairs whose new copper still breaks a pair rule of the board (a
 * `diff_pair_gap` or `diff_pair_uncoupled` constraint), both nets left open with the finding.
 */
export function settlePairRules(base: Design, result: RouteResult): RouteResult {
  if (!base.rules.custom.some((r) => r.constraints.some((c) => c.kind === 'diff_pair_gap' || c.kind === 'diff_pair_uncoupled'))) return result;
  const t0 = base.board.tracks.length;
  const v0 = base.board.vias.length;
  const ours = new Set(result.nets.filter((n) => n.tracks.length > 0 || n.vias.length > 0).map((n) => n.net));
  const out = new Map<number, TakenOut>();
  for (const v of checkAdded(base, result.tracks, result.vias).violations) {
    if (v.severity !== 'error' || !PAIR_RULE_TYPES.has(v.type)) continue;
    for (const it of v.items) {
      const net =
        it.kind === 'track' && it.index >= t0
          ? result.tracks[it.index - t0].net
          : it.kind === 'via' && it.index >= v0
            ? result.vias[it.index - v0].net
            : undefined;
      if (net === undefined) continue;
      const partner = base.board.netByName.get(diffPairOf(base.board.nets[net]?.name ?? '', base.board.netByName)?.partner ?? '');
      for (const n of [net, partner])
        if (n !== undefined && ours.has(n) && !out.has(n))
          out.set(n, {
            reason: 'blocked',
            why: (c) =>
              `A route for ${c.from.ref}.${c.from.number}–${c.to.ref}.${c.to.number} was found but the final design-rule check refused it (${v.description}), so it was left out.`,
          });
    }
  }
  return out.size > 0 ? leaveOpen(result, out) : result;
}
