// Sizes against the rules: `track_width` (tracks and arcs below the minimum for their net and
// layer), `via_diameter`, `annular_width` (via ring), `drill_out_of_range` (via and plated pad
// holes below the minimum through-hole size; micro-vias' below the micro-via drill as
// `microvia_drill_out_of_range`). One finding per item and check. Minimums come from the rules
// with each item's geometry, so custom rules with area conditions apply where their areas are.

import type { RuleResolver } from '../board/rules.ts';
import type { CopperItems } from './copper-items.ts';
import { itemRef, ruleItem } from './clearance.ts';
import { mmText, type ViolationSink } from './violation.ts';

export function checkWidths(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, scope?: Set<number>): void {
  const board = copper.board;
  const m = rules.minimums;
  for (const it of copper.items) {
    if (scope && !scope.has(it.id)) continue;
    if (it.kind === 'track') {
      const t = board.tracks[it.ref];
      const min = rules.minTrackWidth(ruleItem(it, t.layer));
      if (t.width < min)
        sink.add(
          'track_width',
          `Track width (min ${mmText(min)}; actual ${mmText(t.width)})`,
          { x: (t.start.x + t.end.x) / 2, y: (t.start.y + t.end.y) / 2 },
          [it.net],
          [itemRef(it)],
        );
    } else if (it.kind === 'via') {
      const v = board.vias[it.ref];
      const micro = v.type === 'micro';
      const minD = rules.minViaDiameter(ruleItem(it, -1), micro);
      if (v.size < minD) sink.add('via_diameter', `Via diameter (min ${mmText(minD)}; actual ${mmText(v.size)})`, v.at, [it.net], [itemRef(it)]);
      const ring = Math.trunc((v.size - v.drill) / 2);
      if (ring < m.viaAnnularWidth)
        sink.add('annular_width', `Annular width (min ${mmText(m.viaAnnularWidth)}; actual ${mmText(ring)})`, v.at, [it.net], [itemRef(it)]);
      const minH = rules.minHoleSize(ruleItem(it, -1), micro);
      // KiCad reports a micro-via's drill under its own type.
      if (v.drill < minH)
        sink.add(
          micro ? 'microvia_drill_out_of_range' : 'drill_out_of_range',
          `${micro ? 'Micro via hole' : 'Hole'} size (min ${mmText(minH)}; actual ${mmText(v.drill)})`,
          v.at,
          [it.net],
          [itemRef(it)],
        );
    } else if (it.kind === 'pad') {
      const p = board.pads[it.ref];
      if (!p.drill || p.type === 'np_thru_hole') continue;
      const h = Math.min(p.drill.w, p.drill.h);
      const minH = rules.minHoleSize(ruleItem(it, -1), false);
      if (h < minH) sink.add('drill_out_of_range', `Hole size (min ${mmText(minH)}; actual ${mmText(h)})`, p.at, [p.net], [itemRef(it)]);
    }
  }
}
