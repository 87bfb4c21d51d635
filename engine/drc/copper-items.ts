// The board's copper as one flat, numbered list of DRC items — pads, tracks, arcs, vias, each
// zone fill polygon (one item per polygon and layer, as KiCad's connectivity sees fills) and
// copper graphics — with their shapes, layer masks and a box index over them. Built once per
// check, with any added copper already on the board it is built from. Copper text is kept apart
// (`texts`): KiCad's connectivity does not see it, only its clearance checks.

import type { Board, LayerMask, PadType, Pt } from '../board/model.ts';
import { bbox, type Shape } from '../geom/shapes.ts';
import { SpatialIndex } from '../geom/spatial-index.ts';
import { padCopperCentre, padShape } from '../board/pad-copper.ts';
import { viaTypeName } from '../board/rule-item-kind.ts';
import { fillShape, graphicShape, padHoleShape, textShape, trackShape, viaHoleShape, viaShape } from './item-shapes.ts';
import { judgedByKicad10 } from '../board/kicad-version.ts';

export type ItemKind = 'pad' | 'track' | 'via' | 'zone' | 'graphic';

export interface CopperItem {
  /** Position in CopperItems.items. */
  id: number;
  kind: ItemKind;
  /** Index in the board's pads / tracks / vias / zones / graphics. */
  ref: number;
  /** Net code: the file's until `applyNets` gives tracks and vias KiCad's propagated one. */
  net: number;
  /** Copper layers the item may have copper on (a pad's full stack before unused-layer removal). */
  layers: LayerMask;
  shape: Shape;
  /** The drilled hole, for pads and vias with one. */
  hole: Shape | null;
  /** Points where KiCad's connectivity looks for contact: track ends, pad and via centres. */
  anchors: Pt[];
  /** For zone fills: the copper layer of this polygon; else -1. */
  layer: number;
  /** Footprint index for pads and footprint graphics; else -1. */
  footprint: number;
  /** A pad's type, for rule conditions (`A.Pad_Type`, `A.isPlated()`). */
  padType?: PadType;
  /** A via's type as the KiCad judging the board names it, for rule conditions (`A.Via_Type`). */
  viaType?: string;
}

/** A copper text: its glyphs when known (`glyphs`), else the box that holds every glyph. */
export interface CopperText {
  /** Index in board.graphics. */
  ref: number;
  layer: number;
  net: number;
  shape: Shape;
  glyphs: boolean;
}

export class CopperItems {
  readonly items: CopperItem[] = [];
  /** First item id of each kind's board index: pads start at padBase, etc. */
  readonly padItem: number[] = [];
  readonly trackItem: number[] = [];
  readonly viaItem: number[] = [];
  /** Copper texts, by their glyphs or else the box that holds them (text-clearance.ts checks them). */
  readonly texts: CopperText[] = [];
  readonly index: SpatialIndex;

  constructor(
    readonly board: Board,
    margin: number,
  ) {
    for (const pad of board.pads) {
      this.padItem.push(this.items.length);
      const hole = padHoleShape(pad);
      const npthBare = pad.type === 'np_thru_hole' && !npthHasCopper(pad);
      this.items.push({
        id: this.items.length,
        kind: 'pad',
        ref: pad.index,
        net: pad.net,
        layers: npthBare ? 0 : pad.layers,
        shape: padShape(pad),
        hole,
        anchors: [padCopperCentre(pad)],
        layer: -1,
        footprint: pad.footprint,
        padType: pad.type,
      });
    }
    for (const t of board.tracks) {
      this.trackItem.push(this.items.length);
      this.#push({
        kind: 'track',
        ref: t.index,
        net: t.net,
        layers: (1 << t.layer) >>> 0,
        shape: trackShape(t),
        hole: null,
        anchors: [t.start, t.end],
        layer: -1,
        footprint: -1,
      });
    }
    const kicad10 = judgedByKicad10(board);
    for (const v of board.vias) {
      this.viaItem.push(this.items.length);
      let mask = 0;
      for (let l = v.layerFrom; l <= v.layerTo; l++) mask |= 1 << l;
      this.#push({
        kind: 'via',
        ref: v.index,
        net: v.net,
        layers: mask >>> 0,
        shape: viaShape(v),
        hole: viaHoleShape(v),
        anchors: [v.at],
        layer: -1,
        footprint: -1,
        viaType: viaTypeName(v, kicad10),
      });
    }
    for (const z of board.zones) {
      if (z.keepout) continue;
      for (const [layer, polys] of z.fills) {
        for (const p of polys) {
          const s = fillShape(p);
          if (!s) continue;
          this.#push({
            kind: 'zone',
            ref: z.index,
            net: z.net,
            layers: (1 << layer) >>> 0,
            shape: s,
            hole: null,
            anchors: [p.outline[0]],
            layer,
            footprint: z.footprint,
          });
        }
      }
    }
    for (const g of board.graphics) {
      if (g.text) {
        // Text is no connected item in KiCad (it joins nothing), so it stays out of `items`; KiCad's
        // copper checks pass footprint fields by (a field on copper met none of them live).
        if (g.text.field) continue;
        const glyphs = g.text.glyphs?.length ? textShape(g.text.glyphs) : null;
        const s = glyphs ?? graphicShape(g.shape);
        if (s) this.texts.push({ ref: g.index, layer: g.layer, net: g.net, shape: s, glyphs: glyphs !== null });
        continue;
      }
      const s = graphicShape(g.shape);
      if (!s) continue;
      const anchors = g.shape.kind === 'line' ? [g.shape.a, g.shape.b] : g.shape.kind === 'arc' ? [g.shape.start, g.shape.end] : [];
      this.#push({
        kind: 'graphic',
        ref: g.index,
        net: g.net,
        layers: (1 << g.layer) >>> 0,
        shape: s,
        hole: null,
        anchors,
        layer: g.layer,
        footprint: g.footprint,
      });
    }
    this.index = new SpatialIndex(
      this.items.map((it) => itemBox(it)),
      margin,
    );
  }

  #push(it: Omit<CopperItem, 'id'>): void {
    this.items.push({ id: this.items.length, ...it });
  }

  /** Items whose margin-grown boxes touch the box of `shape` grown by `extra` nm, ascending ids. */
  near(shape: Shape, extra = 0): number[] {
    const b = bbox(shape);
    return this.index.query({ minX: b.minX - extra, minY: b.minY - extra, maxX: b.maxX + extra, maxY: b.maxY + extra });
  }

  /**
   * Gives every item the net KiCad's connectivity leaves it with (connectivity.ts: tracks and
   * vias take the net of the pads they touch), so that every check sees the nets KiCad checks.
   */
  applyNets(nets: Int32Array): void {
    for (const it of this.items) it.net = nets[it.id];
  }
}

function itemBox(it: CopperItem) {
  const b = bbox(it.shape);
  if (!it.hole) return b;
  const h = bbox(it.hole);
  return { minX: Math.min(b.minX, h.minX), minY: Math.min(b.minY, h.minY), maxX: Math.max(b.maxX, h.maxX), maxY: Math.max(b.maxY, h.maxY) };
}

/** An NPTH has copper only when its pad is larger than its hole (KiCad's FlashLayer). */
export function npthHasCopper(pad: { size: { w: number; h: number }; drill: { w: number; h: number } | null; offset: Pt; shape: string }): boolean {
  if (!pad.drill) return true;
  if (pad.offset.x !== 0 || pad.offset.y !== 0) return true;
  if (pad.shape === 'circle' || pad.shape === 'oval') return pad.size.w > pad.drill.w || pad.size.h > pad.drill.h;
  return true;
}
