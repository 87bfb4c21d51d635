// Drilled holes too close to each other (`hole_to_hole`), as KiCad 9's hole-to-hole provider
// counts them: round pad holes and every via hole take part (slots are milled later and are
// left out); the gap is centre distance minus both radii, against the pair's minimum (a matching
// custom `hole_to_hole` rule, else the board's) less the DRC epsilon. Nets do not matter: a drill
// bit does not know them. Holes closer than the epsilon are "co-located", another KiCad type this
// engine does not report.

import { SpatialIndex } from '../geom/spatial-index.ts';
import type { RuleResolver } from '../board/rules.ts';
import { DRC_EPSILON, itemRef, ruleItem } from './clearance.ts';
import type { CopperItem, CopperItems } from './copper-items.ts';
import type { ViolationSink } from './violation.ts';
import { mmText } from '../geom/units.ts';

interface Hole {
  item: CopperItem;
  x: number;
  y: number;
  /** KiCad's hole radius: the drill halved in integer nm. */
  r: number;
  isVia: boolean;
}

function holesOf(copper: CopperItems): Hole[] {
  const out: Hole[] = [];
  const b = copper.board;
  for (const it of copper.items) {
    if (it.kind === 'pad') {
      const p = b.pads[it.ref];
      if (p.drill && p.drill.w > 0 && p.drill.w === p.drill.h) out.push({ item: it, x: p.at.x, y: p.at.y, r: Math.trunc(p.drill.w / 2), isVia: false });
    } else if (it.kind === 'via') {
      const v = b.vias[it.ref];
      out.push({ item: it, x: v.at.x, y: v.at.y, r: Math.trunc(v.drill / 2), isVia: true });
    }
  }
  return out;
}

/**
 * Reports `hole_to_hole` for pairs with an item of `scope` (default: all). KiCad runs the pairs
 * twice — once from each via, once from each pad, with its "already checked" set emptied in
 * between — so a via and a pad too close are reported twice, two vias or two pads once.
 */
export function checkHoleToHole(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, scope?: Set<number>): void {
  if (!sink.wants('hole_to_hole')) return;
  // The largest minimum any pair can need bounds the search; each pair is judged by its own.
  const reach = Math.max(0, rules.maxHoleToHole() - DRC_EPSILON);
  if (reach <= 0) return;
  const holes = holesOf(copper);
  if (holes.length < 2) return;
  let maxR = 0;
  for (const h of holes) maxR = Math.max(maxR, h.r);
  const index = new SpatialIndex(
    holes.map((h) => ({ minX: h.x - h.r, minY: h.y - h.r, maxX: h.x + h.r, maxY: h.y + h.r })),
    reach,
  );
  const b = copper.board;
  const pass = (fromVias: boolean) => {
    for (let i = 0; i < holes.length; i++) {
      const a = holes[i];
      if (a.isVia !== fromVias) continue;
      // Micro-vias are burnt by a laser, not drilled: they are only ever the other hole.
      if (a.isVia && b.vias[a.item.ref].type === 'micro') continue;
      for (const j of index.query({ minX: a.x - a.r, minY: a.y - a.r, maxX: a.x + a.r, maxY: a.y + a.r })) {
        if (j === i) continue;
        const o = holes[j];
        // Each unordered pair once per pass: from the lower index, or from the only side that
        // starts a query in this pass.
        const oStarts = o.isVia === fromVias && !(o.isVia && b.vias[o.item.ref].type === 'micro');
        if (oStarts && j < i) continue;
        if (scope && !scope.has(a.item.id) && !scope.has(o.item.id)) continue;
        if (a.isVia && o.isVia) {
          const va = b.vias[a.item.ref];
          const vo = b.vias[o.item.ref];
          // Blind and buried holes only meet where their spans share a layer.
          if (va.layerTo < vo.layerFrom || vo.layerTo < va.layerFrom) continue;
        }
        const dx = a.x - o.x;
        const dy = a.y - o.y;
        if (dx * dx + dy * dy < DRC_EPSILON * DRC_EPSILON) continue;
        const actual = Math.max(0, Math.round(Math.hypot(dx, dy)) - a.r - o.r);
        if (actual >= reach) continue;
        const min = rules.holeToHoleBetween(ruleItem(a.item, -1), ruleItem(o.item, -1)) - DRC_EPSILON;
        if (min <= 0 || actual >= min) continue;
        sink.add(
          'hole_to_hole',
          `Drilled holes too close together (min ${mmText(min)}; actual ${mmText(actual)})`,
          { x: a.x, y: a.y },
          [a.item.net, o.item.net],
          [itemRef(a.item), itemRef(o.item)],
        );
      }
    }
  };
  pass(true);
  pass(false);
}
