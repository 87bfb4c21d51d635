// An SVG picture of a board region: pads, tracks and vias per copper layer in KiCad's default
// colours, the board outline, open connections as ratsnest lines, chosen nets outlined (the net
// asked about in white, a stuck connection's blockers in orange) so their layer colour stays, net
// labels on tracks, a legend of the layers and a scale bar. Coordinates stay in the board's axes,
// scaled nm → mm by the viewBox; the pixel size follows the region's aspect. Every name that
// reaches the picture is escaped text (a <title>, a data-net attribute) or drawn as strokes by
// stroke-font.ts. Pads are drawn from the one pad outline the router builds with engine/geom's
// padShape (trapezoids, chamfers and custom primitives as they are), not from their size alone.

import type { Board, Pt } from '../board/model.ts';
import { maskLayers } from '../board/layers.ts';
import { arc, mmText, segment, type Shape } from '../geom/index.ts';
import type { NewTrack, NewVia } from '../board/added-copper.ts';
import { padShape } from '../board/pad-copper.ts';
import { type Box, type Frame, pictureFrame } from './frame.ts';
import { type LabelTrack, type NetLabel, placeNetLabels } from './net-labels.ts';
import { strokeText, textWidth } from './stroke-font.ts';

/** KiCad 9's default copper colours by canonical layer name. */
const LAYER_COLOURS: Record<string, string> = {
  'F.Cu': '#C83434',
  'B.Cu': '#4D7FC4',
  'In1.Cu': '#7FC87F',
  'In2.Cu': '#CEBB2F',
  'In3.Cu': '#D45A8F',
  'In4.Cu': '#4CCFC2',
  'In5.Cu': '#8F7CD6',
  'In6.Cu': '#C89D5A',
};
const FALLBACK_COLOUR = '#A0A0A0';
const VIA = '#C2C2C2';
const RATSNEST = '#F5F5F5';
const HIGHLIGHT = '#FFFFFF';
const BLOCKER = '#FF8C00';
const BACKGROUND = '#001023';
const OUTLINE = '#D0D2CD';
const INK = '#FFFFFF';

/** Sizes of what is drawn at a fixed size on screen, px. */
const PX = { outline: 1.5, ratsnest: 1.2, dash: 6, gap: 4, halo: 4, label: 13, legend: 12, margin: 8 };

export interface RenderScene {
  board: Board;
  /** Session copper drawn over the board's own. */
  tracks: readonly NewTrack[];
  vias: readonly NewVia[];
  /** Region to draw, nm. */
  box: Box;
  /** Copper layer indices to draw, bottom first order is decided here. */
  layers: readonly number[];
  /** Open connections as straight lines, nm. */
  ratsnest: readonly { a: Pt; b: Pt }[];
  /** Nets outlined in white (the net asked about). */
  highlight?: ReadonlySet<number>;
  /** Nets outlined in orange (the blockers of a stuck connection). */
  blockers?: ReadonlySet<number>;
  /** Net labels on tracks (default true). */
  labels?: boolean;
  /** Longer side of the picture, px (default frame.ts's MAX_SIDE_PX). */
  maxSidePx?: number;
}

/** What a picture shows besides itself: its frame, the layer colours and the labels drawn. */
export interface Picture {
  svg: string;
  frame: Frame;
  /** Drawn copper layers in stack order (front first) with their colours. */
  layers: { name: string; colour: string }[];
  labels: NetLabel[];
}

/** The colours of what is not a layer, for a legend beside the picture. */
export const MARKS = { via: VIA, open_connection: RATSNEST, highlighted_outline: HIGHLIGHT, blocker_outline: BLOCKER, background: BACKGROUND };

export function colourOf(layerName: string): string {
  return LAYER_COLOURS[layerName] ?? FALLBACK_COLOUR;
}

/** Text for XML: markup characters escaped, and characters XML cannot hold at all (control
 *  characters, lone surrogates) replaced, so no name makes the picture unreadable. */
function esc(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex -- the control characters are what this removes
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** nm → mm text for SVG attributes (at most 4 decimals: 0.1 µm is far below a pixel). */
function u(nm: number): string {
  return String(Math.round(nm / 100) / 1e4);
}

function inBox(b: Box, x: number, y: number, margin: number): boolean {
  return x >= b.minX - margin && x <= b.maxX + margin && y >= b.minY - margin && y <= b.maxY + margin;
}

function ring(pts: Float64Array): string {
  let d = '';
  for (let i = 0; i < pts.length; i += 2) d += `${i ? 'L' : 'M'}${u(pts[i])} ${u(pts[i + 1])}`;
  return d + 'Z';
}

/** A copper shape as SVG, filled with `fill` and grown by `grow` nm (an outline drawn under
 *  it): a grown shape (rounded rect, rounded polygon) is its core filled and stroked by twice the
 *  radius with round joins, which is that Minkowski sum. */
export function shapeSvg(sh: Shape, fill: string, grow = 0): string {
  switch (sh.kind) {
    case 'circle':
      return `<circle cx="${u(sh.x)}" cy="${u(sh.y)}" r="${u(sh.r + grow)}" fill="${fill}"/>`;
    case 'segment':
      return `<path d="M${u(sh.ax)} ${u(sh.ay)} L${u(sh.bx)} ${u(sh.by)}" stroke="${fill}" stroke-width="${u(sh.width + 2 * grow)}" stroke-linecap="round" fill="none"/>`;
    case 'arc': {
      const g = sh.geom;
      if (sh.sx === sh.ex && sh.sy === sh.ey)
        return `<circle cx="${u(g.cx)}" cy="${u(g.cy)}" r="${u(g.r)}" stroke="${fill}" stroke-width="${u(sh.width + 2 * grow)}" fill="none"/>`;
      // y points down in both the board and SVG, so increasing angle is SVG's positive sweep.
      const large = Math.abs(g.sweep) > Math.PI ? 1 : 0;
      return `<path d="M${u(sh.sx)} ${u(sh.sy)} A${u(g.r)} ${u(g.r)} 0 ${large} ${g.ccw ? 1 : 0} ${u(sh.ex)} ${u(sh.ey)}" stroke="${fill}" stroke-width="${u(sh.width + 2 * grow)}" stroke-linecap="round" fill="none"/>`;
    }
    case 'rect': {
      const r = sh.radius + grow;
      return `<rect x="${u(sh.minX - r)}" y="${u(sh.minY - r)}" width="${u(sh.maxX - sh.minX + 2 * r)}" height="${u(sh.maxY - sh.minY + 2 * r)}" rx="${u(r)}" fill="${fill}"/>`;
    }
    case 'polygon': {
      const d = [sh.outline, ...sh.holes].map(ring).join(' ');
      const r = sh.radius + grow;
      const stroke = r > 0 ? ` stroke="${fill}" stroke-width="${u(2 * r)}" stroke-linejoin="round"` : '';
      return `<path d="${d}" fill="${fill}" fill-rule="evenodd"${stroke}/>`;
    }
    case 'compound':
      return sh.parts.map((part) => shapeSvg(part, fill, grow)).join('');
  }
}

/** Words as strokes (stroke-font.ts), `colour` on a halo of the background so they read over copper. */
function wordsSvg(text: string, x: number, y: number, height: number, colour: string): string {
  let d = '';
  for (const line of strokeText(text, x, y, height)) {
    d += `M${u(line[0])} ${u(line[1])}`;
    // A dot: a stroke of 0.1 µm, which its round cap makes a dot.
    if (line.length === 2) d += 'h0.0001';
    for (let i = 2; i < line.length; i += 2) d += `L${u(line[i])} ${u(line[i + 1])}`;
  }
  const w = Math.round(height / 7);
  const attrs = 'fill="none" stroke-linecap="round" stroke-linejoin="round"';
  return `<path d="${d}" ${attrs} stroke="${BACKGROUND}" stroke-width="${u(w + Math.round(height / 4))}"/><path d="${d}" ${attrs} stroke="${colour}" stroke-width="${u(w)}"/>`;
}

/** The box of the layer legend (top left) and its drawing. */
function legendSvg(layers: Picture['layers'], box: Box, px: (n: number) => number): { box: Box; svg: string } {
  const h = px(PX.legend);
  const row = Math.round(h * 1.6);
  const m = px(PX.margin);
  const sw = h;
  const width = sw + Math.round(h / 2) + Math.max(0, ...layers.map((l) => textWidth(l.name, h)));
  const x = box.minX + m;
  const y = box.minY + m;
  const area = {
    minX: x - Math.round(h / 2),
    minY: y - Math.round(h / 2),
    maxX: x + width + Math.round(h / 2),
    maxY: y + layers.length * row - row + h + Math.round(h / 2),
  };
  const out = [
    `<g class="legend"><rect x="${u(area.minX)}" y="${u(area.minY)}" width="${u(area.maxX - area.minX)}" height="${u(area.maxY - area.minY)}" fill="${BACKGROUND}" fill-opacity="0.7"/>`,
  ];
  layers.forEach((l, i) => {
    const ry = y + i * row;
    out.push(`<rect x="${u(x)}" y="${u(ry)}" width="${u(sw)}" height="${u(h)}" fill="${l.colour}"/>`, wordsSvg(l.name, x + sw + Math.round(h / 2), ry, h, INK));
  });
  out.push('</g>');
  return { box: area, svg: out.join('') };
}

/** The scale bar (bottom left): a bar of `length` nm with end ticks and its length in mm above it. */
function scaleBarSvg(length: number, box: Box, px: (n: number) => number): { box: Box; svg: string } {
  const h = px(PX.legend);
  const m = px(PX.margin);
  const x = box.minX + m + Math.round(h / 2);
  const y = box.maxY - m - Math.round(h / 2);
  const text = mmText(length, 6, { trim: true });
  const tick = Math.round(h / 2);
  const w = px(2);
  const area = {
    minX: x - Math.round(h / 2),
    minY: y - tick - h - Math.round(h / 2) - Math.round(h / 2),
    maxX: x + Math.max(length, textWidth(text, h)) + Math.round(h / 2),
    maxY: y + Math.round(h / 2),
  };
  return {
    box: area,
    svg:
      `<g class="scale-bar"><rect x="${u(area.minX)}" y="${u(area.minY)}" width="${u(area.maxX - area.minX)}" height="${u(area.maxY - area.minY)}" fill="${BACKGROUND}" fill-opacity="0.7"/>` +
      `<path d="M${u(x)} ${u(y - tick)}V${u(y)}H${u(x + length)}V${u(y - tick)}" fill="none" stroke="${INK}" stroke-width="${u(w)}"/>` +
      wordsSvg(text, x, y - tick - h - Math.round(h / 3), h, INK) +
      '</g>',
  };
}

/** The drawn layers in stack order (front first) with their colours. */
function layerLegend(board: Board, layers: readonly number[]): Picture['layers'] {
  return [...new Set(layers)]
    .sort((a, b) => a - b)
    .map((l) => {
      const name = board.copperLayers[l]?.name ?? '';
      return { name, colour: colourOf(name) };
    });
}

export function renderSvg(scene: RenderScene): string {
  return renderPicture(scene).svg;
}

export function renderPicture(scene: RenderScene): Picture {
  const { board, box } = scene;
  const w = Math.max(box.maxX - box.minX, 1);
  const h = Math.max(box.maxY - box.minY, 1);
  const frame = pictureFrame(box, scene.maxSidePx);
  /** A size fixed on screen (px) in nm of this picture. */
  const px = (n: number) => Math.max(1, Math.round((n * 1e6) / frame.pxPerMm));
  const netName = (net: number) => board.nets[net]?.name ?? '';
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${u(box.minX)} ${u(box.minY)} ${u(w)} ${u(h)}" width="${frame.widthPx}" height="${frame.heightPx}">`,
    `<rect x="${u(box.minX)}" y="${u(box.minY)}" width="${u(w)}" height="${u(h)}" fill="${BACKGROUND}"/>`,
  );
  // Board outline (Edge.Cuts) as thin light lines.
  const edge = `fill="none" stroke="${OUTLINE}" stroke-width="${u(px(PX.outline))}"`;
  for (const o of board.outline) {
    const s = o.shape;
    if (s.kind === 'line') out.push(`<line x1="${u(s.a.x)}" y1="${u(s.a.y)}" x2="${u(s.b.x)}" y2="${u(s.b.y)}" ${edge}/>`);
    else if (s.kind === 'rect')
      out.push(
        `<rect x="${u(Math.min(s.a.x, s.b.x))}" y="${u(Math.min(s.a.y, s.b.y))}" width="${u(Math.abs(s.b.x - s.a.x))}" height="${u(Math.abs(s.b.y - s.a.y))}" ${edge}/>`,
      );
    else if (s.kind === 'arc') out.push(`<polyline points="${u(s.start.x)},${u(s.start.y)} ${u(s.mid.x)},${u(s.mid.y)} ${u(s.end.x)},${u(s.end.y)}" ${edge}/>`);
    else if (s.kind === 'circle') out.push(`<circle cx="${u(s.center.x)}" cy="${u(s.center.y)}" r="${u(s.radius)}" ${edge}/>`);
    else if (s.kind === 'poly') out.push(`<polygon points="${s.pts.map((p) => `${u(p.x)},${u(p.y)}`).join(' ')}" ${edge}/>`);
  }
  const margin = 2_000_000;
  // Marked nets keep their layer colour and get an outline beneath: orange for blockers, white
  // for the net asked about, so a marked track still says which layer it is on.
  const halo = px(PX.halo);
  const mark = (net: number): string | undefined => (scene.blockers?.has(net) ? BLOCKER : scene.highlight?.has(net) ? HIGHLIGHT : undefined);
  const tagged = (net: number, inner: string, title = esc(netName(net))) => `<g data-net="${esc(netName(net))}"><title>${title}</title>${inner}</g>`;
  const labelTracks: LabelTrack[] = [];
  const drawn = new Set(scene.layers);
  // Bottom layer first, so the front copper is on top as in KiCad's default view.
  for (const layer of [...drawn].sort((a, b) => b - a)) {
    const name = board.copperLayers[layer]?.name ?? '';
    const colour = colourOf(name);
    const under: string[] = [];
    const over: string[] = [];
    for (const t of [...board.tracks, ...scene.tracks]) {
      if (t.layer !== layer) continue;
      if (!inBox(box, t.start.x, t.start.y, margin) && !inBox(box, t.end.x, t.end.y, margin)) continue;
      const sh = t.mid ? arc(t.start.x, t.start.y, t.mid.x, t.mid.y, t.end.x, t.end.y, t.width) : segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width);
      const m = mark(t.net);
      if (m) under.push(shapeSvg(sh, m, halo));
      over.push(tagged(t.net, shapeSvg(sh, colour)));
      if (t.mid)
        labelTracks.push(
          { net: t.net, ax: t.start.x, ay: t.start.y, bx: t.mid.x, by: t.mid.y },
          { net: t.net, ax: t.mid.x, ay: t.mid.y, bx: t.end.x, by: t.end.y },
        );
      else labelTracks.push({ net: t.net, ax: t.start.x, ay: t.start.y, bx: t.end.x, by: t.end.y });
    }
    for (const p of board.pads) {
      if (!maskLayers(p.layers).includes(layer) || !inBox(box, p.at.x, p.at.y, margin)) continue;
      const sh = padShape(p);
      const m = mark(p.net);
      if (m) under.push(shapeSvg(sh, m, halo));
      over.push(tagged(p.net, shapeSvg(sh, colour), `${esc(board.footprints[p.footprint]?.reference ?? '')}.${esc(p.number)} ${esc(netName(p.net))}`));
    }
    out.push(`<g id="layer-${esc(name)}" opacity="0.85">`, ...under, ...over, '</g>');
  }
  for (const v of [...board.vias, ...scene.vias]) {
    if (!inBox(box, v.at.x, v.at.y, margin)) continue;
    const m = mark(v.net);
    const ring = `${m ? `<circle cx="${u(v.at.x)}" cy="${u(v.at.y)}" r="${u(v.size / 2 + halo)}" fill="${m}"/>` : ''}<circle cx="${u(v.at.x)}" cy="${u(v.at.y)}" r="${u(v.size / 2)}" fill="${VIA}"/>`;
    out.push(tagged(v.net, `${ring}<circle cx="${u(v.at.x)}" cy="${u(v.at.y)}" r="${u(v.drill / 2)}" fill="${BACKGROUND}"/>`));
  }
  for (const p of board.pads) {
    if (p.drill && inBox(box, p.at.x, p.at.y, margin))
      out.push(`<circle cx="${u(p.at.x)}" cy="${u(p.at.y)}" r="${u(Math.min(p.drill.w, p.drill.h) / 2)}" fill="${BACKGROUND}"/>`);
  }
  const dash = `stroke-dasharray="${u(px(PX.dash))} ${u(px(PX.gap))}"`;
  for (const r of scene.ratsnest)
    out.push(`<line x1="${u(r.a.x)}" y1="${u(r.a.y)}" x2="${u(r.b.x)}" y2="${u(r.b.y)}" stroke="${RATSNEST}" stroke-width="${u(px(PX.ratsnest))}" ${dash}/>`);
  const layers = layerLegend(board, scene.layers);
  const legend = legendSvg(layers, box, px);
  const bar = scaleBarSvg(frame.scaleBar, box, px);
  const labels = scene.labels === false ? [] : placeNetLabels(labelTracks, netName, box, px(PX.label), Math.round(px(PX.label) / 4), [legend.box, bar.box]);
  if (labels.length) {
    out.push('<g class="net-labels">');
    for (const l of labels) out.push(tagged(l.net, wordsSvg(l.text, l.x, l.y, l.height, INK)));
    out.push('</g>');
  }
  out.push(legend.svg, bar.svg, '</svg>');
  return { svg: out.join('\n'), frame, layers, labels };
}
