// Copper to board edge (`copper_edge_clearance`): every track, via, pad and copper graphic
// against the Edge.Cuts shapes taken at zero width and the non-plated slots, as KiCad does; one
// finding per item. Copper
// that merely lies outside the board without nearing an edge line is not reported (nor by KiCad).
// Zone fills are not checked: the filler clips them to the outline.

import type { RuleResolver } from '../board/rules.ts';
import { compareDistance } from '../geom/collide.ts';
import { nearest } from '../geom/distance.ts';
import { SpatialIndex } from '../geom/spatial-index.ts';
import { bbox, type Shape } from '../geom/shapes.ts';
import { DRC_EPSILON, itemRef, kindOf } from './clearance.ts';
import type { CopperItems } from './copper-items.ts';
import { graphicShape, padHoleShape } from './item-shapes.ts';
import type { ViolationSink } from './violation.ts';
import { mmText } from '../geom/units.ts';

export function checkEdges(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, scope?: Set<number>): void {
  if (!sink.wants('copper_edge_clearance')) return;
  const edges: Shape[] = [];
  // For each edge, the pad item whose own slot it is (-1 for Edge.Cuts): a pad is not near itself.
  const owner: number[] = [];
  for (const o of copper.board.outline) {
    const s = graphicShape({
      ...o.shape,
      width: 0,
      ...(o.shape.kind === 'circle' || o.shape.kind === 'rect' || o.shape.kind === 'poly' ? { filled: false } : {}),
    } as typeof o.shape);
    if (s) {
      edges.push(s);
      owner.push(-1);
    }
  }
  // A non-plated slot is milled, so KiCad takes it for board edge as well as for a hole (a round
  // NPTH is drilled: hole clearance only); kicad-cli 9 and 10 both report copper near one.
  for (const pad of copper.board.pads) {
    if (pad.type !== 'np_thru_hole' || !pad.drill || pad.drill.w === pad.drill.h) continue;
    const hole = padHoleShape(pad);
    if (hole) {
      edges.push(hole);
      owner.push(copper.padItem[pad.index]);
    }
  }
  if (edges.length === 0) return;
  let margin = rules.minimums.copperEdgeClearance;
  for (const r of rules.custom) for (const c of r.constraints) if (c.kind === 'edge_clearance' && c.min !== undefined) margin = Math.max(margin, c.min);
  const index = new SpatialIndex(
    edges.map((e) => bbox(e)),
    margin,
  );
  for (const it of copper.items) {
    if (scope && !scope.has(it.id)) continue;
    if (it.kind === 'zone' || it.layers === 0) continue;
    const layer = 31 - Math.clz32(it.layers & -it.layers);
    const c = rules.edgeClearance({ net: it.net, layer, ...kindOf(it) });
    const t = Math.max(0, c - DRC_EPSILON);
    for (const e of index.query(bbox(it.shape))) {
      if (owner[e] === it.id) continue;
      const cmp = compareDistance(it.shape, edges[e], t);
      if (t > 0 ? cmp < 0 : cmp === 0) {
        const n = nearest(it.shape, edges[e]);
        sink.add(
          'copper_edge_clearance',
          `Board edge clearance violation (clearance ${mmText(c)}; actual ${mmText(n.distance)})`,
          { x: n.bx, y: n.by },
          [it.net],
          [itemRef(it)],
        );
        break;
      }
    }
  }
}
