// Reads a `(zone …)`: a copper zone with its filled polygons (the copper KiCad connects pads
// through), or a rule area (keep-out) with its flags. Fills are kept as written; they are only
// as fresh as the last fill in KiCad.

import type { KeepoutFlags, PolygonWithHoles, Zone } from '../board/model.ts';
import type { LayerResolver } from '../board/layers.ts';
import { atomAt, child, children, type SList } from './sexpr.ts';
import { identity, layerList, layerOf, readPts, type Transform } from './read-shapes.ts';
import type { NetTable } from './read-nets.ts';
import type { ReadContext } from './values.ts';

const CONNECT: Record<string, Zone['padConnection']> = { yes: 'solid', no: 'none', thru_hole_only: 'thru_hole_only' };

export function readZone(
  ctx: ReadContext,
  node: SList,
  layers: LayerResolver,
  nets: NetTable,
  index: number,
  footprint: number,
  maxError: number,
  tf: Transform = identity,
): Zone {
  const net = nets.of(child(node, 'net'), ctx.str(node, 'net_name'));

  const names = layerList(node);
  const one = layerOf(node);
  if (one !== undefined) names.push(one);
  const layerMask = layers.mask(names);

  const outline: PolygonWithHoles[] = [];
  for (const poly of children(node, 'polygon')) {
    const pts = child(poly, 'pts');
    if (pts) outline.push({ outline: readPts(ctx, pts, tf, maxError), holes: [] });
  }

  const fills = new Map<number, PolygonWithHoles[]>();
  for (const fp of children(node, 'filled_polygon')) {
    const layerName = layerOf(fp) ?? one;
    const layer = layerName === undefined ? -1 : layers.index(layerName);
    if (layer < 0) continue;
    const pts = child(fp, 'pts');
    if (!pts) continue;
    let list = fills.get(layer);
    if (!list) fills.set(layer, (list = []));
    list.push({ outline: readPts(ctx, pts, tf, maxError), holes: [] });
  }

  let keepout: KeepoutFlags | undefined;
  const ko = child(node, 'keepout');
  if (ko) {
    const na = (name: string) => ctx.str(ko, name) === 'not_allowed';
    keepout = { tracks: na('tracks'), vias: na('vias'), pads: na('pads'), copperpour: na('copperpour'), footprints: na('footprints') };
  }

  const attr = child(node, 'attr');
  const teardrop = attr !== undefined && child(attr, 'teardrop') !== undefined;

  const connect = child(node, 'connect_pads');
  const mode = connect ? atomAt(connect, 1) : undefined;
  const fill = child(node, 'fill');

  return {
    index,
    net,
    name: ctx.str(node, 'name') ?? '',
    layers: layerMask,
    priority: ctx.optNum(node, 'priority') ?? 0,
    outline,
    fills,
    keepout,
    ...(teardrop ? { teardrop } : {}),
    clearance: (connect && ctx.optNm(connect, 'clearance')) ?? 0,
    minThickness: ctx.optNm(node, 'min_thickness') ?? 0,
    padConnection: (mode && CONNECT[mode]) || 'thermal',
    thermalGap: (fill && ctx.optNm(fill, 'thermal_gap')) ?? 0,
    thermalBridgeWidth: (fill && ctx.optNm(fill, 'thermal_bridge_width')) ?? 0,
    footprint,
    src: node.start,
  };
}
