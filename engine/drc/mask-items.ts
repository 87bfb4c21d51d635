// The items KiCad's solder-mask check walks, in its order: tracks and vias (file order, the
// router's added ones last), board graphics, then per footprint its pads and graphics, and the
// copper zones apart; each with its copper and mask openings per outer side and the mask
// expansion KiCad adds to them. What bridges what is judged in solder-mask.ts.

import type { Board, MaskSetup, Primitive } from '../board/model.ts';
import type { Shape } from '../geom/shapes.ts';
import type { CopperItems } from './copper-items.ts';
import { fillShape, graphicShape } from './item-shapes.ts';
import { judgedByKicad10 } from '../board/kicad-version.ts';

export const DEFAULT_MASK_SETUP: MaskSetup = { padToMask: 0, minWidth: 0, allowBridgesInFootprints: false, tentFront: true, tentBack: true };

/** One item of the check, in KiCad's order. Sides: bit 0 front (F.Cu / F.Mask), bit 1 back. */
export interface MaskItem {
  kind: 'pad' | 'track' | 'via' | 'graphic' | 'mask' | 'zone';
  /** Index in the board's pads / tracks / vias / graphics / maskGraphics / zones. */
  ref: number;
  /** Net code; -1 for items that carry no net (mask graphics, text). */
  net: number;
  footprint: number;
  /** Copper shape, or the opening's shape for a mask graphic (zones: their fills per side). */
  shapes: [Shape[], Shape[]];
  /** Sides with copper on the outer layer. */
  copper: number;
  /** Sides where the item opens the mask. */
  mask: number;
  /** Solder mask expansion per side, nm, as KiCad adds it to the clearance. */
  expansion: [number, number];
  /** KiCad's isMaskAperture: an opening with no copper of its own (or a free pad). */
  aperture: boolean;
  /** An NPTH with no copper ring: never an opening. */
  nullAperture: boolean;
  /** A router's added track or via (scoped runs report only findings naming one). */
  scoped: boolean;
}

/** Solder mask expansion of a pad, nm: its own, else its footprint's, else the board's; an
 *  opening never shrinks below nothing; mask-only pads use their own size (KiCad's PAD). */
export function padMaskExpansion(board: Board, pad: number): number {
  const p = board.pads[pad];
  if (p.layers === 0 && p.type !== 'np_thru_hole') return 0;
  const setup = board.mask ?? DEFAULT_MASK_SETUP;
  const margin = p.maskMargin ?? board.footprints[p.footprint]?.maskMargin ?? setup.padToMask;
  return margin < 0 ? Math.max(margin, -Math.trunc(Math.min(p.size.w, p.size.h) / 2)) : margin;
}

/** Solder mask expansion of a mask graphic or untented via, nm: KiCad 10 grows them by the
 *  board's expansion, KiCad 9 does not. */
export function shapeMaskExpansion(board: Board, prim?: Primitive): number {
  if (!judgedByKicad10(board)) return 0;
  const m = (board.mask ?? DEFAULT_MASK_SETUP).padToMask;
  const filled = prim && 'filled' in prim && prim.filled;
  return m < 0 && prim && !filled ? Math.max(m, -(prim.width >> 1)) : m;
}

/** Whether a via is tented (covered by mask) on a side (0 front, 1 back). */
export function viaTented(board: Board, via: number, side: 0 | 1): boolean {
  const v = board.vias[via];
  const setup = board.mask ?? DEFAULT_MASK_SETUP;
  return side === 0 ? (v.tenting?.front ?? setup.tentFront) : (v.tenting?.back ?? setup.tentBack);
}

/** A check item before it knows whether it is in scope, and its CopperItems id (-1: none). */
interface Entry {
  item: Omit<MaskItem, 'scoped'>;
  id: number;
}

/** Bit 0 for the front copper layer, bit 1 for the back one, of a layer mask. */
function outerSides(board: Board): (layers: number) => number {
  const last = board.copperLayers.length - 1;
  return (layers: number) => (layers & 1) | (((layers >>> last) & 1) << 1);
}

/** The items the check sees, in KiCad's order: tracks and vias (file order, added ones last),
 *  board graphics, then per footprint its pads and graphics. Zones come after, apart. */
export function maskItems(copper: CopperItems, scope?: Set<number>, withText = false): MaskItem[] {
  const board = copper.board;
  const side = outerSides(board);
  const out: MaskItem[] = [];
  const put = ({ item, id }: Entry) => out.push({ ...item, scoped: !!scope?.has(id) });
  for (const e of trackAndViaEntries(copper, side)) put(e);
  const graphics = graphicEntries(copper, side, withText);
  const flush = (fp: number) => {
    for (const g of (graphics.get(fp) ?? []).sort((a, b) => a.src - b.src)) put(g.entry);
  };
  flush(-1);
  for (const fp of board.footprints) {
    for (const i of fp.pads) put(padEntry(copper, side, i));
    flush(fp.index);
  }
  return out;
}

/** Tracks and vias in file order, the router's added ones (no source position) last. */
function trackAndViaEntries(copper: CopperItems, side: (layers: number) => number): Entry[] {
  const board = copper.board;
  const srcKey = (src: number, i: number) => (src >= 0 ? src : Number.MAX_SAFE_INTEGER - 1e6 + i);
  const tv: { key: number; entry: Entry }[] = [];
  board.tracks.forEach((t, i) => {
    const id = copper.trackItem[i];
    const c = copper.items[id];
    tv.push({
      key: srcKey(t.src, i),
      entry: {
        item: {
          kind: 'track',
          ref: i,
          net: c.net,
          footprint: -1,
          shapes: [[c.shape], [c.shape]],
          copper: side(c.layers),
          mask: 0,
          expansion: [0, 0],
          aperture: false,
          nullAperture: false,
        },
        id,
      },
    });
  });
  board.vias.forEach((v, i) => {
    const id = copper.viaItem[i];
    const c = copper.items[id];
    const cu = side(c.layers);
    const mask = (cu & 1 && !viaTented(board, i, 0) ? 1 : 0) | (cu & 2 && !viaTented(board, i, 1) ? 2 : 0);
    const e = shapeMaskExpansion(board);
    tv.push({
      key: srcKey(v.src, board.tracks.length + i),
      entry: {
        item: {
          kind: 'via',
          ref: i,
          net: c.net,
          footprint: -1,
          shapes: [[c.shape], [c.shape]],
          copper: cu,
          mask,
          expansion: [mask & 1 ? e : 0, mask & 2 ? e : 0],
          aperture: false,
          nullAperture: false,
        },
        id,
      },
    });
  });
  tv.sort((a, b) => a.key - b.key);
  return tv.map((x) => x.entry);
}

/** Copper and mask graphics per owner (-1: the board), each with its file position. */
function graphicEntries(copper: CopperItems, side: (layers: number) => number, withText: boolean): Map<number, { src: number; entry: Entry }[]> {
  const board = copper.board;
  const graphics = new Map<number, { src: number; entry: Entry }[]>();
  const owner = (fp: number) => graphics.get(fp) ?? (graphics.set(fp, []), graphics.get(fp)!);
  for (const c of copper.items) {
    if (c.kind !== 'graphic') continue;
    const g = board.graphics[c.ref];
    owner(g.footprint).push({
      src: g.src,
      entry: {
        item: {
          kind: 'graphic',
          ref: c.ref,
          net: g.text ? -1 : c.net,
          footprint: g.footprint,
          shapes: [[c.shape], [c.shape]],
          copper: side(c.layers),
          mask: 0,
          expansion: [0, 0].map(() => shapeMaskExpansion(board, g.shape)) as [number, number],
          aperture: false,
          nullAperture: false,
        },
        id: c.id,
      },
    });
  }
  for (const g of board.maskGraphics ?? []) {
    if (g.text && !withText) continue;
    const s = graphicShape(g.shape);
    if (!s) continue;
    const e = shapeMaskExpansion(board, g.shape);
    owner(g.footprint).push({
      src: g.src,
      entry: {
        item: {
          kind: 'mask',
          ref: g.index,
          net: -1,
          footprint: g.footprint,
          shapes: [[s], [s]],
          copper: 0,
          mask: 1 << g.side,
          expansion: [e, e],
          aperture: true,
          nullAperture: false,
        },
        id: -1,
      },
    });
  }
  return graphics;
}

/** A pad: its opening, and whether it is a free pad's (an aperture) or an NPTH with no ring. */
function padEntry(copper: CopperItems, side: (layers: number) => number, i: number): Entry {
  const board = copper.board;
  const pad = board.pads[i];
  const id = copper.padItem[i];
  const c = copper.items[id];
  const e = padMaskExpansion(board, i);
  const free = pad.pinType === 'free' && (board.nets[c.net]?.name ?? '').startsWith('unconnected-(');
  const nullAperture =
    pad.type === 'np_thru_hole' && (pad.shape === 'circle' || pad.shape === 'oval') && !!pad.drill && pad.size.w <= pad.drill.w && pad.size.h <= pad.drill.h;
  return {
    item: {
      kind: 'pad',
      ref: i,
      net: c.net,
      footprint: pad.footprint,
      shapes: [[c.shape], [c.shape]],
      copper: side(pad.layers),
      mask: pad.maskSides ?? 0,
      expansion: [e, e],
      aperture: free || (!!pad.maskSides && pad.layers === 0),
      nullAperture,
    },
    id,
  };
}

/** Copper zones with fill on an outer layer, as check items (not in the ordered list). */
export function zoneItems(board: Board): MaskItem[] {
  const last = board.copperLayers.length - 1;
  const out: MaskItem[] = [];
  for (const z of board.zones) {
    if (z.keepout) continue;
    const shapes: [Shape[], Shape[]] = [[], []];
    for (const [s, layer] of [
      [0, 0],
      [1, last],
    ] as const) {
      for (const p of z.fills.get(layer) ?? []) {
        const sh = fillShape(p);
        if (sh) shapes[s].push(sh);
      }
    }
    if (shapes[0].length + shapes[1].length === 0) continue;
    out.push({
      kind: 'zone',
      ref: z.index,
      net: z.net,
      footprint: z.footprint,
      shapes,
      copper: (shapes[0].length ? 1 : 0) | (shapes[1].length ? 2 : 0),
      mask: 0,
      expansion: [0, 0],
      aperture: false,
      nullAperture: false,
      scoped: false,
    });
  }
  return out;
}
