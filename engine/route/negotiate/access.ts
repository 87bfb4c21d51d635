// Where a route may end on a pad (or on existing copper of its net): the grid sites inside
// the copper that the net may use, and, for pads too small or too crowded to hold such a site,
// a short exact stub along the pad's axis out to the first usable site ("pad entry").

import { bbox, compareDistance, type Shape } from '../../geom/index.ts';
import type { Pt } from '../../board/model.ts';
import type { Checker } from '../core/checker.ts';
import type { Grid } from '../core/grid.ts';
import type { HostPad } from '../core/host.ts';
import type { ObstacleMap } from '../core/obstacle-map.ts';
import type { Stub } from '../core/path-geometry.ts';

export interface Access {
  /** Track-centre nodes a route may end on. */
  nodes: number[];
  /** For nodes reached by a stub: the stub from the node back into the copper. */
  stubs: Map<number, Stub>;
}

function usable(map: ObstacleMap, node: number, net: number): boolean {
  const o = map.track[node];
  return o === 0 || o === net;
}

/** Sites inside a copper shape on the given layers that the net may use. */
export function sitesInside(
  grid: Grid,
  map: ObstacleMap,
  shape: Shape,
  layers: number,
  net: number,
  box: { minX: number; minY: number; maxX: number; maxY: number },
): number[] {
  const out: number[] = [];
  const [c0, c1] = grid.colRange(box.minX, box.maxX);
  const [r0, r1] = grid.rowRange(box.minY, box.maxY);
  const pt = { kind: 'circle' as const, x: 0, y: 0, r: 0 };
  for (let l = 0; l < grid.layers; l++) {
    if (((layers >>> l) & 1) === 0) continue;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        pt.x = grid.x0 + c * grid.step;
        pt.y = grid.y0 + r * grid.step;
        if (compareDistance(pt, shape, 0) !== 0) continue;
        const node = l * grid.cells + r * grid.nx + c;
        if (usable(map, node, net)) out.push(node);
      }
    }
  }
  return out;
}

/** Unit axis directions of a pad rotated by `rotation` degrees, in board axes (exact for
 *  multiples of 90°). */
export function padAxes(rotation: number): [number, number][] {
  const d = ((rotation % 90) + 90) % 90;
  if (d === 0)
    return [
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
    ];
  const r = (rotation * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  return [
    [c, -s],
    [s, c],
    [-c, s],
    [-s, -c],
  ];
}

/**
 * Pad entry: sites inside the pad, else per layer a stub from the pad centre along each axis to
 * the first usable site beyond it (a short jog onto the site when the axis misses the grid).
 * Stubs are checked exactly against the fixed world before they are offered.
 */
export function padAccess(
  grid: Grid,
  map: ObstacleMap,
  pad: HostPad,
  width: (layer: number) => number,
  checker: Checker,
  minWidth: (layer: number) => number = width,
): Access {
  const box = bbox(pad.shape);
  const nodes = sitesInside(grid, map, pad.shape, pad.layers, pad.net, box);
  const stubs = new Map<number, Stub>();
  const haveLayer = new Set(nodes.map((n) => Math.floor(n / grid.cells)));
  const reach = Math.max(box.maxX - box.minX, box.maxY - box.minY) / 2 + 4 * grid.step + 1_000_000;
  for (let l = 0; l < grid.layers; l++) {
    if (((pad.layers >>> l) & 1) === 0 || haveLayer.has(l)) continue;
    const w = width(l);
    // The class width first; where neighbours crowd the pad, a neck as wide as the pad's
    // narrow side, then the narrowest the rules allow (KiCad's DRC asks only the minimum).
    const widths = [...new Set([w, Math.max(minWidth(l), Math.min(w, pad.minSize)), minWidth(l)])].filter((x) => x > 0 && x <= w).sort((a, b) => b - a);
    for (const [ux, uy] of padAxes(pad.rotation)) {
      const kmax = Math.ceil(reach / grid.step);
      for (let k = 1; k <= kmax; k++) {
        const ex = Math.round(pad.at.x + ux * k * grid.step);
        const ey = Math.round(pad.at.y + uy * k * grid.step);
        const col = grid.col(ex);
        const row = grid.row(ey);
        const node = l * grid.cells + row * grid.nx + col;
        if (!usable(map, node, pad.net)) continue;
        const sx = grid.x0 + col * grid.step;
        const sy = grid.y0 + row * grid.step;
        // Axis leg to the point abreast of the site, then a jog of under a step onto it.
        const axial = Math.abs(ux) > Math.abs(uy) ? { x: sx, y: pad.at.y } : Math.abs(uy) > Math.abs(ux) ? { x: pad.at.x, y: sy } : { x: sx, y: sy };
        const poly: Pt[] = [{ x: sx, y: sy }];
        if (axial.x !== sx || axial.y !== sy) poly.push(axial);
        if (axial.x !== pad.at.x || axial.y !== pad.at.y) poly.push({ x: pad.at.x, y: pad.at.y });
        const fits = (width: number) => {
          for (let i = 0; i + 1 < poly.length; i++) if (checker.track(pad.net, l, poly[i].x, poly[i].y, poly[i + 1].x, poly[i + 1].y, width)) return false;
          return true;
        };
        const neck = poly.length >= 2 ? widths.find(fits) : undefined;
        if (neck !== undefined && !stubs.has(node)) {
          stubs.set(node, neck === w ? { pts: poly } : { pts: poly, width: neck });
          nodes.push(node);
        }
        break;
      }
    }
  }
  return { nodes, stubs };
}
