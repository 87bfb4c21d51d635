// Reads a `.kicad_pcb` (KiCad 6 to 10) into the board model: layers, nets, footprints and pads,
// tracks, arcs and vias, zones and rule areas, copper graphics and text (read-text.ts), the Edge.Cuts outline and
// the stack-up. The source text is kept on the board so the writer can splice into it.

import type { Board, CopperLayer, OffLayerItem, Pt, StackupLayer, Track, Via } from '../board/model.ts';
import { copperRank, LayerResolver } from '../board/layers.ts';
import { atomAt, child, children, head, parseSexpr, type SList } from './sexpr.ts';
import { maskSide, readFootprint } from './read-footprint.ts';
import { identity, layerList, layerOf, readPrimitive } from './read-shapes.ts';
import { NetTable } from './read-nets.ts';
import { readCopperText, readFootprintTexts, readMaskText } from './read-text.ts';
import { readZone } from './read-zone.ts';
import { flag, ReadContext } from './values.ts';

export interface ReadBoardOptions {
  /** File name for error messages. */
  source?: string;
  /** Chord error for arcs turned into polylines, nm (KiCad's default max_error). */
  maxError?: number;
}

const GRAPHICS = new Set(['gr_line', 'gr_arc', 'gr_circle', 'gr_rect', 'gr_poly', 'gr_curve']);

export function parseBoard(text: string, opts: ReadBoardOptions = {}): Board {
  const source = opts.source ?? '';
  const maxError = opts.maxError ?? 5000;
  const ctx = new ReadContext(text, source);
  const root = parseSexpr(text, source, (at, message) => ctx.warn(at, message));
  if (/\S/.test(text.slice(root.end))) ctx.warn(root.end, 'text after the end of the board is ignored, as KiCad ignores it');
  if (head(root) !== 'kicad_pcb') throw ctx.error(root, `expected (kicad_pcb …), found (${head(root)} …)`);

  const versionNode = child(root, 'version');
  const version = versionNode ? ctx.num(versionNode, 1) : 0;
  if (version && version < 20211014) {
    ctx.warn(versionNode!, `file format ${version} is older than KiCad 6; it is read as far as it goes`);
  }

  const { copperLayers, layerIds } = readLayerTable(ctx, root);
  const layers = new LayerResolver(copperLayers);

  const nets = new NetTable(ctx, root);

  const board: Board = {
    version,
    generator: ctx.str(root, 'generator') ?? '',
    copperLayers,
    layerIds,
    dialect: nets.dialect,
    nets: nets.nets,
    netByName: nets.byName,
    footprints: [],
    pads: [],
    tracks: [],
    vias: [],
    zones: [],
    graphics: [],
    maskGraphics: [],
    outline: [],
    stackup: [],
    thickness: 1_600_000,
    warnings: ctx.warnings,
    text,
    source,
  };

  const general = child(root, 'general');
  if (general) board.thickness = ctx.optNm(general, 'thickness') ?? board.thickness;
  const setup = child(root, 'setup');
  const stackup = setup && child(setup, 'stackup');
  if (stackup) board.stackup = readStackup(ctx, stackup);
  board.mask = readMaskSetup(ctx, setup);

  const sink = { board, layers, nets, maxError };
  for (let k = 1; k < root.items.length; k++) {
    const it = root.items[k];
    if (it.kind !== 'list') continue;
    const h = head(it);
    if (h === 'gr_text' || h === 'gr_text_box') readMaskText(ctx, it, board);
    switch (h) {
      case 'footprint':
      case 'module':
        readFootprint(ctx, it, sink);
        readFootprintTexts(ctx, it, board, layers, board.footprints.length - 1);
        for (const z of children(it, 'zone')) {
          board.zones.push(readZone(ctx, z, layers, nets, board.zones.length, board.footprints.length - 1, maxError));
        }
        break;
      case 'segment':
      case 'arc':
      case 'via': {
        const off = readOffLayer(ctx, it, layers, nets);
        if (off) (board.offLayerItems ??= []).push(off);
        else if (h === 'via') board.vias.push(readVia(ctx, it, layers, nets, board.vias.length));
        else board.tracks.push(readTrack(ctx, it, layers, nets, board.tracks.length));
        break;
      }
      case 'zone':
        board.zones.push(readZone(ctx, it, layers, nets, board.zones.length, -1, maxError));
        break;
      case 'gr_text':
      case 'gr_text_box':
        readCopperText(ctx, it, board, layers);
        break;
      default:
        if (GRAPHICS.has(h)) {
          const layer = layerOf(it);
          if (layer === undefined) break;
          const copper = layers.index(layer);
          const mask = maskSide(layer);
          if (copper < 0 && layer !== 'Edge.Cuts' && mask < 0) break;
          const shape = readPrimitive(ctx, it, identity, maxError);
          if (!shape) break;
          if (mask !== -1) board.maskGraphics!.push({ index: board.maskGraphics!.length, side: mask, shape, footprint: -1, src: it.start });
          else if (layer === 'Edge.Cuts') board.outline.push({ shape, footprint: -1, src: it.start });
          else {
            const net = nets.of(child(it, 'net'));
            board.graphics.push({ index: board.graphics.length, layer: copper, net, shape, footprint: -1, src: it.start });
          }
        }
    }
  }
  return board;
}

function readLayerTable(ctx: ReadContext, root: SList): { copperLayers: CopperLayer[]; layerIds: Map<string, number> } {
  const table = ctx.need(root, 'layers', 'kicad_pcb');
  const layerIds = new Map<string, number>();
  const copper: CopperLayer[] = [];
  for (let k = 1; k < table.items.length; k++) {
    const it = table.items[k];
    if (it.kind !== 'list') continue;
    const id = Number(atomAt(it, 0));
    const name = atomAt(it, 1);
    if (!Number.isInteger(id) || name === undefined) throw ctx.error(it, 'a layer entry must read (id "name" type ["user name"])');
    layerIds.set(name, id);
    if (copperRank(name) >= 0) {
      copper.push({ index: 0, name, userName: atomAt(it, 3), fileId: id, type: atomAt(it, 2) ?? 'signal' });
    }
  }
  if (copper.length === 0) throw ctx.error(table, 'the layer table has no copper layer');
  copper.sort((a, b) => copperRank(a.name) - copperRank(b.name));
  copper.forEach((l, i) => (l.index = i));
  return { copperLayers: copper, layerIds };
}

function copperLayerOf(ctx: ReadContext, node: SList, layers: LayerResolver): number {
  const name = layerOf(node);
  if (name === undefined) throw ctx.error(node, `(${head(node)}) has no (layer)`);
  const i = layers.index(name);
  if (i < 0) throw ctx.error(child(node, 'layer')!, `(${head(node)}) is on "${name}", which is not an enabled copper layer`);
  return i;
}

// A track or via on a real KiCad copper layer that this board does not enable: KiCad loads it
// (and its DRC flags it), so it is kept, apart, with a warning. Unknown layer names stay errors.
function readOffLayer(ctx: ReadContext, node: SList, layers: LayerResolver, nets: NetTable): OffLayerItem | null {
  const isVia = head(node) === 'via';
  const names = isVia ? layerList(node).slice(0, 2) : [layerOf(node) ?? ''];
  const off = names.find((n) => copperRank(n) >= 0 && layers.index(n) < 0);
  if (off === undefined || names.some((n) => copperRank(n) < 0)) return null;
  const what = isVia ? 'via' : `(${head(node)})`;
  ctx.warn(isVia ? child(node, 'layers')! : child(node, 'layer')!, `${what} is on "${off}", which is not an enabled copper layer; it is kept for the DRC only`);
  return {
    kind: isVia ? 'via' : 'track',
    layerName: off,
    at: ctx.pt(ctx.need(node, isVia ? 'at' : 'start')),
    ...(isVia ? {} : { end: ctx.pt(ctx.need(node, 'end')), width: ctx.nm(ctx.need(node, 'width'), 1) }),
    net: nets.of(child(node, 'net')),
    src: node.start,
  };
}

function readTrack(ctx: ReadContext, node: SList, layers: LayerResolver, nets: NetTable, index: number): Track {
  const isArc = head(node) === 'arc';
  const t: Track = {
    index,
    kind: isArc ? 'arc' : 'segment',
    start: ctx.pt(ctx.need(node, 'start')),
    end: ctx.pt(ctx.need(node, 'end')),
    width: ctx.nm(ctx.need(node, 'width'), 1),
    layer: copperLayerOf(ctx, node, layers),
    net: nets.of(child(node, 'net')),
    locked: flag(node, 'locked'),
    uuid: ctx.str(node, 'uuid') ?? ctx.str(node, 'tstamp') ?? '',
    src: node.start,
  };
  if (isArc) t.mid = ctx.pt(ctx.need(node, 'mid'));
  return t;
}

function readVia(ctx: ReadContext, node: SList, layers: LayerResolver, nets: NetTable, index: number): Via {
  const names = layerList(node);
  let from = 0;
  let to = layers.count - 1;
  if (names.length >= 2) {
    const a = layers.index(names[0]);
    const b = layers.index(names[1]);
    if (a < 0 || b < 0) throw ctx.error(child(node, 'layers')!, `via spans "${names[0]}" to "${names[1]}", not enabled copper layers`);
    from = Math.min(a, b);
    to = Math.max(a, b);
  }
  // KiCad 10 writes a via drilled between inner layers as `buried`; the engine's blind is either.
  const buried = flag(node, 'buried');
  const type = flag(node, 'micro') ? 'micro' : buried || flag(node, 'blind') ? 'blind' : 'through';
  const at: Pt = ctx.pt(ctx.need(node, 'at'));
  return {
    index,
    at,
    size: ctx.nm(ctx.need(node, 'size'), 1),
    drill: ctx.nm(ctx.need(node, 'drill'), 1),
    layerFrom: from,
    layerTo: to,
    type,
    ...(buried ? { buried } : {}),
    net: nets.of(child(node, 'net')),
    locked: flag(node, 'locked'),
    removeUnusedLayers: flag(node, 'remove_unused_layers'),
    keepEndLayers: flag(node, 'keep_end_layers'),
    ...(child(node, 'tenting') ? { tenting: readTenting(child(node, 'tenting')!) } : {}),
    uuid: ctx.str(node, 'uuid') ?? ctx.str(node, 'tstamp') ?? '',
    src: node.start,
  };
}

/**
 * `(tenting …)` of the setup or a via: KiCad 9 lists the tented sides (`(tenting front back)`,
 * `(tenting none)`, `(tenting)`: none), KiCad 10 says each side (`(tenting (front yes) (back no))`),
 * where `none` or a missing side means the board's.
 */
function readTenting(node: SList): { front?: boolean; back?: boolean } {
  const out: { front?: boolean; back?: boolean } = {};
  let listed = false;
  for (let k = 1; k < node.items.length; k++) {
    const it = node.items[k];
    if (it.kind === 'atom') {
      listed = true;
      if (it.text === 'front') out.front = true;
      else if (it.text === 'back') out.back = true;
    } else {
      const side = head(it);
      const v = atomAt(it, 1);
      if ((side === 'front' || side === 'back') && (v === 'yes' || v === 'no')) out[side] = v === 'yes';
    }
  }
  if (listed || node.items.length === 1) {
    out.front ??= false;
    out.back ??= false;
  }
  return out;
}

/** The setup's solder mask settings; KiCad's defaults where the file says nothing. */
function readMaskSetup(ctx: ReadContext, setup: SList | undefined): NonNullable<Board['mask']> {
  const tenting = setup && child(setup, 'tenting');
  const tent = tenting ? readTenting(tenting) : {};
  const bridges = setup && child(setup, 'allow_soldermask_bridges_in_footprints');
  return {
    padToMask: (setup && ctx.optNm(setup, 'pad_to_mask_clearance')) ?? 0,
    minWidth: (setup && ctx.optNm(setup, 'solder_mask_min_width')) ?? 0,
    allowBridgesInFootprints: !!bridges && atomAt(bridges, 1) === 'yes',
    tentFront: tent.front ?? true,
    tentBack: tent.back ?? true,
  };
}

function readStackup(ctx: ReadContext, stackup: SList): StackupLayer[] {
  const out: StackupLayer[] = [];
  for (const l of children(stackup, 'layer')) {
    out.push({ name: atomAt(l, 1) ?? '', type: ctx.str(l, 'type') ?? '', thickness: ctx.optNm(l, 'thickness') });
  }
  return out;
}
