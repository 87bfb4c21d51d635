// Copper text from a `.kicad_pcb`: board texts and text boxes, and the texts, fields and text boxes of
// footprints, on copper layers (and on mask layers, where a text is an opening in the mask). KiCad's stroke font is not embedded here, so a text stands as a box
// that contains every glyph KiCad draws (anchor with justification, rotation, mirroring and keep-
// upright applied), except where the file carries the rendered outline of a TrueType text
// (`render_cache`), which is taken exactly. Glyphs from the running KiCad attach later (attachGlyphs).

import type { Board, CopperGraphic, Primitive, Pt } from '../board/model.ts';
import type { LayerResolver } from '../board/layers.ts';
import { rotatePoint } from '../geom/units.ts';
import { boxOfPoints } from '../geom/box.ts';
import { atomAt, child, children, head, type SList } from './sexpr.ts';
import { maskSide } from './read-footprint.ts';
import { layerOf } from './read-shapes.ts';
import { flag, type ReadContext } from './values.ts';

/** A text's glyphs as the running KiCad draws them (absolute nm), keyed by the text's uuid. */
export interface TextGlyphs {
  uuid: string;
  /** Copper layer name, e.g. "F.Cu". */
  layer: string;
  glyphs: Primitive[];
}

// Stroke-font extents as fractions of the glyph size. KiCad's font and metrics are not copied here:
// these bounds were measured on the glyphs KiCad 9 and 10 draw for every printable ASCII character and
// for texts in each justification (tests/live/text-shapes.test.ts), then rounded up. Advance per
// character, of the width (wider characters apart; characters past ASCII get the widest); the pitch of
// lines, of the height (times the text's line spacing); the first baseline below the anchor for top,
// centre and bottom justification, of the height; the cap height, what reaches above it (brackets,
// overbars) and below the baseline (descenders), of the height.
const ADVANCE = 1.1;
const ADVANCE_WIDE = 1.4;
const ADVANCE_OTHER = 1.6;
const WIDE = new Set([...'mw@&+-<=>WM%/#QO']);
const PITCH = 1.62;
const BASE_TOP = 1.04;
const BASE_CENTRE = 0.46;
const BASE_BOTTOM = -0.12;
const CAP = 1.0;
const ABOVE = 0.35;
const BELOW = 0.45;
const ITALIC_SLANT = 0.25;

function advance(ch: string): number {
  if (WIDE.has(ch)) return ADVANCE_WIDE;
  return ch.codePointAt(0)! < 127 ? ADVANCE : ADVANCE_OTHER;
}

/** Where a footprint puts its items: the footprint's anchor and rotation (degrees). */
export interface Placement {
  at: Pt;
  rotation: number;
}

const FOOTPRINT_TEXTS = new Set(['fp_text', 'property', 'fp_text_box', 'text_box']);

/** A text's value and the corners of a box holding its glyphs (absolute nm); null when the text is
 *  hidden or empty and so draws nothing. */
function textOutline(
  ctx: ReadContext,
  node: SList,
  footprint: number,
  placement?: Placement,
): { value: string; corners: Pt[]; lines: Pt[][]; isBox: boolean } | null {
  const h = head(node);
  const isBox = h.endsWith('text_box');
  const value = h === 'property' ? (atomAt(node, 2) ?? '') : h === 'fp_text' ? (atomAt(node, 2) ?? '') : (atomAt(node, 1) ?? '');
  const effects = child(node, 'effects');
  if (flag(node, 'hide') || (effects && flag(effects, 'hide'))) return null;
  if (!isBox && value.trim() === '') return null;
  const font = effects && child(effects, 'font');
  const sizeNode = font && child(font, 'size');
  const hgt = sizeNode ? ctx.nm(sizeNode, 1) : 1_000_000;
  const wid = sizeNode ? ctx.nm(sizeNode, 2) : hgt;
  const thick = (font && ctx.optNm(font, 'thickness')) ?? Math.round(hgt / 8);
  const place = (p: Pt): Pt => {
    if (!placement) return p;
    const [x, y] = rotatePoint(p.x, p.y, placement.rotation);
    return { x: x + placement.at.x, y: y + placement.at.y };
  };
  let corners: Pt[];
  let lines: Pt[][];
  if (isBox) {
    corners = textBoxCorners(ctx, node, place);
    const border = child(node, 'border');
    const stroke = child(node, 'stroke');
    const bw = (stroke && ctx.optNm(stroke, 'width')) ?? 0;
    if (border === undefined || atomAt(border, 1) !== 'no') corners = grow(corners, Math.ceil(bw / 2));
    lines = [corners];
  } else {
    const at = ctx.need(node, 'at');
    const anchor = place({ x: ctx.nm(at, 1), y: ctx.nm(at, 2) });
    let angle = at.items.length > 3 ? ctx.num(at, 3) : 0;
    // Footprint text is drawn kept upright unless it says otherwise (KiCad 8's keep_upright, default on).
    const upright = child(node, 'keep_upright') ?? (effects && child(effects, 'keep_upright'));
    if (footprint >= 0 && (upright === undefined || atomAt(upright, 1) !== 'no')) {
      while (angle > 90) angle -= 180;
      while (angle <= -90) angle += 180;
    }
    const justify = effects && child(effects, 'justify');
    const words = new Set(justify ? justify.items.slice(1).map((a) => (a.kind === 'atom' ? a.text : '')) : []);
    const spacing = (font && ctx.optNum(font, 'line_spacing')) ?? 1;
    const italic = !!font && flag(font, 'italic');
    const f = { w: wid, h: hgt, thick, spacing, italic };
    corners = strokeTextCorners(value, anchor, angle, f, words);
    lines = strokeLineCorners(value, anchor, angle, f, words);
  }
  return { value, corners, lines, isBox };
}

function roundedPoly(corners: Pt[]): Primitive {
  return { kind: 'poly', pts: corners.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) })), width: 0, filled: true };
}

/**
 * Reads one copper text (gr_text, gr_text_box, or inside `footprint` fp_text, property, fp_text_box)
 * into board.graphics; texts on other layers, hidden ones and empty ones are skipped.
 */
export function readCopperText(ctx: ReadContext, node: SList, board: Board, layers: LayerResolver, footprint = -1, placement?: Placement): void {
  const layerName = layerOf(node);
  const layer = layerName === undefined ? -1 : layers.index(layerName);
  if (layer < 0) return;
  const outline = textOutline(ctx, node, footprint, placement);
  if (!outline) return;
  const { value, corners, lines, isBox } = outline;
  const h = head(node);
  const effects = child(node, 'effects');
  // A text's outline always has its corners.
  const b = boxOfPoints(corners)!;
  const text: NonNullable<CopperGraphic['text']> = {
    value,
    box: { minX: Math.floor(b.minX), minY: Math.floor(b.minY), maxX: Math.ceil(b.maxX), maxY: Math.ceil(b.maxY) },
    uuid: ctx.str(node, 'uuid') ?? ctx.str(node, 'tstamp') ?? '',
  };
  if (flag(node, 'knockout') || (effects && flag(effects, 'knockout'))) text.knockout = true;
  if (h === 'property') text.field = true;
  if (!isBox && lines.length > 1) text.lines = lines.map((box) => (roundedPoly(box) as { pts: Pt[] }).pts);
  const cache = !isBox && !text.knockout ? renderCache(ctx, node) : null;
  if (cache && cache.length > 0) text.glyphs = cache;
  board.graphics.push({ index: board.graphics.length, layer, net: 0, shape: roundedPoly(corners), text, footprint, src: node.start });
}

/**
 * Reads one text on F.Mask or B.Mask (board or footprint, as readCopperText) into
 * board.maskGraphics as glyph boxes, one per line: mask openings shaped like the text, which the
 * router keeps out of (the DRC leaves them out: glyphs are not modelled).
 */
export function readMaskText(ctx: ReadContext, node: SList, board: Board, footprint = -1, placement?: Placement): void {
  const layer = layerOf(node);
  const side = maskSide(layer ?? '');
  if (side === -1) return;
  const outline = textOutline(ctx, node, footprint, placement);
  if (!outline) return;
  // A box per line: an opening the size of the whole block would keep tracks off its empty lines.
  for (const box of outline.lines)
    (board.maskGraphics ??= []).push({ index: board.maskGraphics.length, side, shape: roundedPoly(box), footprint, text: true, src: node.start });
}

/** Reads the copper and mask texts of a footprint (fp_text, property, fp_text_box), placed as the footprint is. */
export function readFootprintTexts(ctx: ReadContext, node: SList, board: Board, layers: LayerResolver, footprint: number): void {
  const at = ctx.need(node, 'at');
  const placement = { at: { x: ctx.nm(at, 1), y: ctx.nm(at, 2) }, rotation: at.items.length > 3 ? ctx.num(at, 3) : 0 };
  for (let k = 1; k < node.items.length; k++) {
    const it = node.items[k];
    if (it.kind !== 'list' || !FOOTPRINT_TEXTS.has(head(it))) continue;
    readCopperText(ctx, it, board, layers, footprint, placement);
    readMaskText(ctx, it, board, footprint, placement);
  }
}

interface Font {
  w: number;
  h: number;
  thick: number;
  spacing: number;
  italic: boolean;
}

/** A stroke-font text's lines in its own frame (y down from the anchor): each line's width and
 *  baseline, and the half stroke every glyph edge grows by. */
function strokeLines(value: string, f: Font, justify: ReadonlySet<string>): { lines: { text: string; width: number; base: number }[]; pad: number } {
  const texts = value.split('\n');
  // Markup (~{overbar}, ^{super}, _{sub}) draws no glyph for its opening pair; its closing brace is
  // counted as a character, which only widens the box.
  const lineWidth = (l: string) => [...l.replace(/[~^_]\{/g, '')].reduce((s, ch) => s + advance(ch), 0) * f.w + (f.italic ? f.h * ITALIC_SLANT : 0);
  const pitch = f.h * PITCH * f.spacing;
  const block = (texts.length - 1) * pitch;
  // The first line's baseline, measured from the anchor (y down).
  let base: number;
  if (justify.has('top')) base = f.h * BASE_TOP;
  else if (justify.has('bottom')) base = f.h * BASE_BOTTOM - block;
  else base = f.h * BASE_CENTRE - block / 2;
  return { lines: texts.map((text, i) => ({ text, width: lineWidth(text), base: base + i * pitch })), pad: f.thick / 2 };
}

/** The corners (absolute nm) of a box in a text's frame: from its left edge x0 and `width`, and
 *  from the top and bottom baselines; mirrored about the anchor where the text is, turned by `angle`. */
function frameBox(
  x0: number,
  width: number,
  firstBase: number,
  lastBase: number,
  pad: number,
  anchor: Pt,
  angle: number,
  f: Font,
  justify: ReadonlySet<string>,
): Pt[] {
  const top = firstBase - f.h * (CAP + ABOVE) - pad;
  const bottom = lastBase + f.h * BELOW + pad;
  let left = x0 - pad - f.w * (ADVANCE - 1);
  let right = x0 + width + pad;
  if (justify.has('mirror')) [left, right] = [-right, -left];
  return [
    [left, top],
    [right, top],
    [right, bottom],
    [left, bottom],
  ].map(([x, y]) => {
    const [rx, ry] = rotatePoint(x, y, angle);
    return { x: anchor.x + rx, y: anchor.y + ry };
  });
}

/** Where a line of `width` starts as the justification says (left, right, else centred). */
function lineStart(width: number, justify: ReadonlySet<string>): number {
  if (justify.has('left')) return 0;
  if (justify.has('right')) return -width;
  return -width / 2;
}

/**
 * The corners (absolute nm) of a box that holds every glyph of a stroke-font text: in the text's own
 * frame the block of lines sits against the anchor as the justification says (left/right, top/bottom,
 * else centred), mirrored text is flipped about the anchor, and the frame turns by `angle` degrees.
 */
export function strokeTextCorners(value: string, anchor: Pt, angle: number, f: Font, justify: ReadonlySet<string>): Pt[] {
  const { lines, pad } = strokeLines(value, f, justify);
  const width = Math.max(f.w, ...lines.map((l) => l.width));
  return frameBox(lineStart(width, justify), width, lines[0].base, lines[lines.length - 1].base, pad, anchor, angle, f, justify);
}

/** One box per line that draws anything (KiCad justifies each line by itself), for where a whole
 *  block's box would wall off the empty lines and the short lines' margins too. */
export function strokeLineCorners(value: string, anchor: Pt, angle: number, f: Font, justify: ReadonlySet<string>): Pt[][] {
  const { lines, pad } = strokeLines(value, f, justify);
  return lines.filter((l) => l.text.trim() !== '').map((l) => frameBox(lineStart(l.width, justify), l.width, l.base, l.base, pad, anchor, angle, f, justify));
}

// A text box's outline: (start)/(end) for a box that is not rotated, else the four (pts).
function textBoxCorners(ctx: ReadContext, node: SList, place: (p: Pt) => Pt): Pt[] {
  const pts = child(node, 'pts');
  if (pts) return children(pts, 'xy').map((xy) => place(ctx.pt(xy)));
  const a = ctx.pt(ctx.need(node, 'start'));
  const b = ctx.pt(ctx.need(node, 'end'));
  return [a, { x: b.x, y: a.y }, b, { x: a.x, y: b.y }].map(place);
}

function grow(corners: Pt[], by: number): Pt[] {
  if (by <= 0) return corners;
  const cx = corners.reduce((s, p) => s + p.x, 0) / corners.length;
  const cy = corners.reduce((s, p) => s + p.y, 0) / corners.length;
  return corners.map((p) => {
    const d = Math.hypot(p.x - cx, p.y - cy) || 1;
    // Outward along the diagonal by by·√2: the grown box holds the stroke's square corners.
    const k = (by * Math.SQRT2) / d;
    return { x: p.x + (p.x - cx) * k, y: p.y + (p.y - cy) * k };
  });
}

// TrueType text as KiCad rendered it when saving: one filled polygon per outline (holes are left
// filled, which only adds copper), in board coordinates (a footprint's text included).
function renderCache(ctx: ReadContext, node: SList): Primitive[] | null {
  const cache = child(node, 'render_cache');
  if (!cache) return null;
  const out: Primitive[] = [];
  for (const poly of children(cache, 'polygon')) {
    const pts = child(poly, 'pts');
    if (!pts) continue;
    const ring = children(pts, 'xy').map((xy) => ctx.pt(xy));
    if (ring.length >= 3) out.push({ kind: 'poly', pts: ring, width: 0, filled: true });
  }
  return out;
}

/**
 * Gives the board's copper texts the glyphs the running KiCad draws (matched by uuid and layer);
 * texts without a match keep their box. Returns how many texts got glyphs.
 */
export function attachGlyphs(board: Board, glyphs: readonly TextGlyphs[]): number {
  const byUuid = new Map<string, TextGlyphs>();
  for (const g of glyphs) if (g.uuid) byUuid.set(g.uuid, g);
  let n = 0;
  for (const g of board.graphics) {
    const t = g.text;
    if (!t || !t.uuid || t.knockout) continue;
    const found = byUuid.get(t.uuid);
    if (!found || found.layer !== board.copperLayers[g.layer]?.name || found.glyphs.length === 0) continue;
    t.glyphs = found.glyphs;
    n++;
  }
  return n;
}
