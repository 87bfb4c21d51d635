// Reads a `(footprint …)` (KiCad 6–9) into the model: the footprint, its pads in absolute
// coordinates, its copper graphics and its Edge.Cuts graphics. Pad orientation in the file is
// already absolute; pad and graphic positions are footprint-local and placed here.

import type { Board, Footprint, Pad, PadShapeKind, PadType, Primitive, Pt } from '../board/model.ts';
import type { LayerResolver } from '../board/layers.ts';
import { rotatePoint } from '../geom/units.ts';
import { atomAt, child, children, head, type SList } from './sexpr.ts';
import { identity, layerList, layerOf, readPrimitive } from './read-shapes.ts';
import type { NetTable } from './read-nets.ts';
import { flag, type ReadContext } from './values.ts';

const PAD_TYPES = new Set<PadType>(['thru_hole', 'smd', 'connect', 'np_thru_hole']);
const PAD_SHAPES = new Set<PadShapeKind>(['circle', 'rect', 'oval', 'roundrect', 'trapezoid', 'custom', 'chamfered_rect']);
const CORNERS = ['top_left', 'top_right', 'bottom_left', 'bottom_right'];
const GRAPHICS = new Set(['fp_line', 'fp_arc', 'fp_circle', 'fp_rect', 'fp_poly', 'fp_curve']);

export interface FootprintSink {
  board: Board;
  layers: LayerResolver;
  /** Maps a file's `(net …)` to the model's net code, in the file's own dialect. */
  nets: NetTable;
  maxError: number;
}

/** 0 for F.Mask, 1 for B.Mask, else -1. */
export function maskSide(layer: string): 0 | 1 | -1 {
  return layer === 'F.Mask' ? 0 : layer === 'B.Mask' ? 1 : -1;
}

/** The mask sides a pad's layer list names (`*.Mask` and `F&B.Mask` are both). */
function maskSides(names: string[]): number {
  let sides = 0;
  for (const n of names) {
    if (n === '*.Mask' || n === 'F&B.Mask') sides |= 3;
    else if (n === 'F.Mask') sides |= 1;
    else if (n === 'B.Mask') sides |= 2;
  }
  return sides;
}

function property(node: SList, name: string): string | undefined {
  for (const p of children(node, 'property')) if (atomAt(p, 1) === name) return atomAt(p, 2);
  for (const t of children(node, 'fp_text')) if (atomAt(t, 1) === name.toLowerCase()) return atomAt(t, 2);
  return undefined;
}

export function readFootprint(ctx: ReadContext, node: SList, sink: FootprintSink): void {
  const { board } = sink;
  const atNode = ctx.need(node, 'at');
  const origin: Pt = { x: ctx.nm(atNode, 1), y: ctx.nm(atNode, 2) };
  const rotation = atNode.items.length > 3 ? ctx.num(atNode, 3) : 0;
  const side = layerOf(node) === 'B.Cu' ? 'back' : 'front';
  const fp: Footprint = {
    index: board.footprints.length,
    reference: property(node, 'Reference') ?? '',
    value: property(node, 'Value') ?? '',
    libId: atomAt(node, 1) ?? '',
    at: origin,
    rotation,
    side,
    locked: flag(node, 'locked'),
    clearance: ctx.optNm(node, 'clearance'),
    maskMargin: ctx.optNm(node, 'solder_mask_margin'),
    allowMaskBridges: flag(child(node, 'attr') ?? node, 'allow_soldermask_bridges'),
    netTiePadGroups: [],
    pads: [],
    uuid: ctx.str(node, 'uuid') ?? ctx.str(node, 'tstamp') ?? '',
    src: node.start,
  };
  const tie = child(node, 'net_tie_pad_groups');
  if (tie) {
    for (let k = 1; k < tie.items.length; k++) {
      const g = atomAt(tie, k);
      if (g)
        fp.netTiePadGroups.push(
          g
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s.length > 0),
        );
    }
  }
  board.footprints.push(fp);
  const tf = (p: Pt): Pt => {
    const [x, y] = rotatePoint(p.x, p.y, rotation);
    return { x: x + origin.x, y: y + origin.y };
  };

  for (let k = 1; k < node.items.length; k++) {
    const it = node.items[k];
    if (it.kind !== 'list') continue;
    const h = head(it);
    if (h === 'pad') readPad(ctx, it, fp, sink, tf);
    else if (GRAPHICS.has(h)) {
      const layer = layerOf(it);
      if (layer === undefined) continue;
      const copper = sink.layers.index(layer);
      const mask = maskSide(layer);
      if (copper < 0 && layer !== 'Edge.Cuts' && mask < 0) continue;
      const shape = readPrimitive(ctx, it, tf, sink.maxError);
      if (!shape) continue;
      if (mask !== -1) (board.maskGraphics ??= []).push({ index: board.maskGraphics.length, side: mask, shape, footprint: fp.index, src: it.start });
      else if (layer === 'Edge.Cuts') board.outline.push({ shape, footprint: fp.index, src: it.start });
      else {
        const net = sink.nets.of(child(it, 'net'));
        board.graphics.push({ index: board.graphics.length, layer: copper, net, shape, footprint: fp.index, src: it.start });
      }
    }
  }
}

function readPad(ctx: ReadContext, node: SList, fp: Footprint, sink: FootprintSink, tf: (p: Pt) => Pt): void {
  const { board } = sink;
  const number = atomAt(node, 1) ?? '';
  const type = atomAt(node, 2) as PadType;
  const shape = atomAt(node, 3) as PadShapeKind;
  if (!PAD_TYPES.has(type)) throw ctx.error(node.items[2] ?? node, `pad "${number}" of ${fp.reference || 'a footprint'}: unknown pad type "${type}"`);
  if (!PAD_SHAPES.has(shape)) throw ctx.error(node.items[3] ?? node, `pad "${number}" of ${fp.reference || 'a footprint'}: unknown pad shape "${shape}"`);

  const atNode = ctx.need(node, 'at', 'pad');
  const local: Pt = { x: ctx.nm(atNode, 1), y: ctx.nm(atNode, 2) };
  const rotation = atNode.items.length > 3 ? ctx.num(atNode, 3) : 0;
  const sizeNode = ctx.need(node, 'size', 'pad');
  const size = { w: ctx.nm(sizeNode, 1), h: ctx.nm(sizeNode, sizeNode.items.length > 2 ? 2 : 1) };

  let drill: Pad['drill'] = null;
  let offset: Pt = { x: 0, y: 0 };
  const drillNode = child(node, 'drill');
  if (drillNode) {
    let k = 1;
    const oval = atomAt(drillNode, 1) === 'oval';
    if (oval) k = 2;
    const nums: number[] = [];
    for (; k < drillNode.items.length && drillNode.items[k].kind === 'atom'; k++) nums.push(ctx.nm(drillNode, k));
    const off = child(drillNode, 'offset');
    if (off) offset = ctx.pt(off);
    if (nums.length > 0 && nums[0] > 0) {
      drill = oval ? { shape: 'oval', w: nums[0], h: nums[1] ?? nums[0] } : { shape: 'circle', w: nums[0], h: nums[0] };
    }
  }

  const unknown = (name: string) => ctx.warn(node, `pad "${number}" of ${fp.reference}: layer ${name} is not enabled on this board`);
  const layers = sink.layers.mask(layerList(node), unknown);

  const net = sink.nets.of(child(node, 'net'));

  let chamferCorners = 0;
  const chamfer = child(node, 'chamfer');
  if (chamfer) {
    for (let k = 1; k < chamfer.items.length; k++) {
      const c = CORNERS.indexOf(atomAt(chamfer, k) ?? '');
      if (c >= 0) chamferCorners |= 1 << c;
    }
  }
  const deltaNode = child(node, 'rect_delta');
  const delta = deltaNode ? ctx.pt(deltaNode) : { x: 0, y: 0 };

  if (shape !== 'custom' && (size.w <= 0 || size.h <= 0)) {
    throw ctx.error(sizeNode, `pad "${number}" of ${fp.reference || 'a footprint'} has a zero or negative size`);
  }

  const pad: Pad = {
    index: board.pads.length,
    footprint: fp.index,
    number,
    net,
    type,
    shape,
    at: tf(local),
    rotation,
    size,
    offset,
    drill,
    layers,
    removeUnusedLayers: flag(node, 'remove_unused_layers'),
    keepEndLayers: flag(node, 'keep_end_layers'),
    roundrectRatio: ctx.optNum(node, 'roundrect_rratio') ?? 0.25,
    chamferRatio: ctx.optNum(node, 'chamfer_ratio') ?? 0,
    chamferCorners,
    delta,
    clearance: ctx.optNm(node, 'clearance'),
    maskSides: maskSides(layerList(node)),
    maskMargin: ctx.optNm(node, 'solder_mask_margin'),
    pinType: ctx.str(node, 'pintype'),
    src: node.start,
  };
  if (shape === 'custom') {
    const options = child(node, 'options');
    pad.anchor = options && ctx.str(options, 'anchor') === 'rect' ? 'rect' : 'circle';
    const prims: Primitive[] = [];
    const primitives = child(node, 'primitives');
    if (primitives) {
      for (let k = 1; k < primitives.items.length; k++) {
        const it = primitives.items[k];
        if (it.kind !== 'list') continue;
        const p = readPrimitive(ctx, it, identity, sink.maxError);
        if (p) prims.push(p);
        else ctx.warn(it, `pad "${number}" of ${fp.reference}: primitive (${head(it)}) is not supported and is ignored`);
      }
    }
    pad.primitives = prims;
  }
  fp.pads.push(pad.index);
  board.pads.push(pad);
}
