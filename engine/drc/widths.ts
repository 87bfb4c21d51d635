// Sizes against the rules: `track_width` (tracks and arcs below the minimum for their net and
// layer), `via_diameter`, `annular_width` (the ring round a via's or plated pad's hole),
// `drill_out_of_range` (via and plated pad holes below the minimum through-hole size; micro-vias'
// below the micro-via drill as `microvia_drill_out_of_range`). One finding per item and check.
// Minimums come from the rules with each item's geometry and kind, so custom rules with area or
// type conditions apply where KiCad applies them.

import type { Board, Pad } from '../board/model.ts';
import type { RuleResolver } from '../board/rules.ts';
import type { CopperItems } from './copper-items.ts';
import { itemRef, ruleItem } from './clearance.ts';
import type { ViolationSink } from './violation.ts';
import { mmText } from '../geom/units.ts';

export function checkWidths(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, scope?: Set<number>): void {
  const board = copper.board;
  const wantRing = sink.wants('annular_width');
  // Built on the first plated pad judged: the router's gate judges its own tracks and vias only.
  let shared: Set<string> | undefined;
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
      const minRing = wantRing ? rules.minAnnularWidth(ruleItem(it, -1)) : 0;
      if (ring < minRing) sink.add('annular_width', `Annular width (min ${mmText(minRing)}; actual ${mmText(ring)})`, v.at, [it.net], [itemRef(it)]);
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
      const ring = wantRing ? padRing(p, (shared ??= sharedNumbers(board))) : undefined;
      if (ring === undefined) continue;
      const minRing = rules.minAnnularWidth(ruleItem(it, -1));
      if (ring < minRing) sink.add('annular_width', `Annular width (min ${mmText(minRing)}; actual ${mmText(ring)})`, p.at, [p.net], [itemRef(it)]);
    }
  }
}

/** "footprint\0number" of every pad number that more than one pad of a footprint bears. */
function sharedNumbers(board: Board): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const p of board.pads) {
    const key = `${p.footprint}\u0000${p.number}`;
    if (seen.has(key)) shared.add(key);
    else seen.add(key);
  }
  return shared;
}

/**
 * A plated pad's ring, nm, where KiCad measures it by the pad's size alone: a pad with its hole
 * centred, of a plain shape (a chamfered one up to a 0.3 ratio), and no other pad of its number
 * in its footprint — half the least of width less drill and height less drill (a circle's
 * diameter less drill). Undefined otherwise: KiCad then measures the hole against the copper
 * outline (and the pads of the same number round it), which this engine does not.
 */
function padRing(p: Pad, shared: Set<string>): number | undefined {
  if (p.type !== 'thru_hole' || !p.drill) return undefined;
  if (p.offset.x !== 0 || p.offset.y !== 0) return undefined;
  const plain =
    p.shape === 'circle' || p.shape === 'oval' || p.shape === 'rect' || p.shape === 'roundrect' || (p.shape === 'chamfered_rect' && p.chamferRatio <= 0.3);
  if (!plain) return undefined;
  if (shared.has(`${p.footprint}\u0000${p.number}`)) return undefined;
  if (p.shape === 'circle') return Math.trunc((p.size.w - p.drill.w) / 2);
  return Math.trunc(Math.min(p.size.w - p.drill.w, p.size.h - p.drill.h) / 2);
}
