// An SVG picture of a board region: pads, tracks and vias per copper layer in KiCad's default
// colours, the board outline, open connections as ratsnest lines, and chosen nets highlighted
// (a stuck connection's blockers). Coordinates stay in the board's axes, scaled nm → mm by the
// viewBox; every name that reaches the picture is escaped text inside a <title>. Pads are drawn
// from the one pad outline the router builds with engine/geom's padShape (trapezoids, chamfers
// and custom primitives as they are), not from their size alone.

import type { Board, Pt } from '../board/model.ts';
import { maskLayers } from '../board/layers.ts';
import { arc, segment, type Shape } from '../geom/index.ts';
import type { NewTrack, NewVia } from '../kicad/write-board.ts';
import { padShape } from '../board/pad-copper.ts';

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
const RATSNEST = '#F5F5F5';
const HIGHLIGHT = '#FFFFFF';
const BLOCKER = '#FF8C00';
const BACKGROUND = '#001023';

export interface RenderScene {
  board: Board;
  /** Session copper drawn over the board's own. */
  tracks: readonly NewTrack[];
  vias: readonly NewVia[];
  /** Region to draw, nm. */
  box: { minX: number; minY: number; maxX: number; maxY: number };
  /** Copper layer indices to draw, bottom first order is decided here. */
  layers: readonly number[];
  /** Open connections as straight lines, nm. */
  ratsnest: readonly { a: Pt; b: Pt }[];
  /** Nets drawn brighter (the net asked about). */
  highlight?: ReadonlySet<number>;
  /** Nets outlined in orange (the blockers of a stuck connection). */
  blockers?: ReadonlySet<number>;
}

export function colourOf(layerName: string): string {
  return LAYER_COLOURS[layerName] ?? FALLBACK_COLOUR;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** nm → mm text for SVG attributes (at most 4 decimals: 0.1 µm is far below a pixel). */
function u(nm: number): string {
  return String(Math.round(nm / 100) / 1e4);
}

function inBox(b: RenderScene['box'], x: number, y: number, margin: number): boolean {
  return x >= b.minX - margin && x <= b.maxX + margin && y >= b.minY - margin && y <= b.maxY + margin;
}

function ring(pts: Float64Array): string {
  let d = '';
  for (let i = 0; i < pts.length; i += 2) d += `${i ? 'L' : 'M'}${u(pts[i])} ${u(pts[i + 1])}`;
  return d + 'Z';
}

/** A copper shape as SVG, filled with `fill`: a grown shape (rounded rect, rounded polygon) is
 *  its core filled and stroked by twice the radius with round joins, which is that Minkowski sum. */
export function shapeSvg(sh: Shape, fill: string): string {
  switch (sh.kind) {
    case 'circle':
      return `<circle cx="${u(sh.x)}" cy="${u(sh.y)}" r="${u(sh.r)}" fill="${fill}"/>`;
    case 'segment':
      return `<path d="M${u(sh.ax)} ${u(sh.ay)} L${u(sh.bx)} ${u(sh.by)}" stroke="${fill}" stroke-width="${u(sh.width)}" stroke-linecap="round" fill="none"/>`;
    case 'arc': {
      const g = sh.geom;
      if (sh.sx === sh.ex && sh.sy === sh.ey) return `<circle cx="${u(g.cx)}" cy="${u(g.cy)}" r="${u(g.r)}" stroke="${fill}" stroke-width="${u(sh.width)}" fill="none"/>`;
      // y points down in both the board and SVG, so increasing angle is SVG's positive sweep.
      const large = Math.abs(g.sweep) > Math.PI ? 1 : 0;
      return `<path d="M${u(sh.sx)} ${u(sh.sy)} A${u(g.r)} ${u(g.r)} 0 ${large} ${g.ccw ? 1 : 0} ${u(sh.ex)} ${u(sh.ey)}" stroke="${fill}" stroke-width="${u(sh.width)}" stroke-linecap="round" fill="none"/>`;
    }
    case 'rect':
      return `<rect x="${u(sh.minX - sh.radius)}" y="${u(sh.minY - sh.radius)}" width="${u(sh.maxX - sh.minX + 2 * sh.radius)}" height="${u(sh.maxY - sh.minY + 2 * sh.radius)}" rx="${u(sh.radius)}" fill="${fill}"/>`;
    case 'polygon': {
      const d = [sh.outline, ...sh.holes].map(ring).join(' ');
      const grow = sh.radius > 0 ? ` stroke="${fill}" stroke-width="${u(2 * sh.radius)}" stroke-linejoin="round"` : '';
      return `<path d="${d}" fill="${fill}" fill-rule="evenodd"${grow}/>`;
    }
    case 'compound':
      return sh.parts.map((part) => shapeSvg(part, fill)).join('');
  }
}

export function renderSvg(scene: RenderScene): string {
  const { board, box } = scene;
  const w = Math.max(box.maxX - box.minX, 1);
  const h = Math.max(box.maxY - box.minY, 1);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${u(box.minX)} ${u(box.minY)} ${u(w)} ${u(h)}" width="${Math.round(Math.min(1200, Math.max(200, (w / h) * 800)))}" height="${Math.round(Math.min(1200, Math.max(200, (h / w) * 800)))}">`,
    `<rect x="${u(box.minX)}" y="${u(box.minY)}" width="${u(w)}" height="${u(h)}" fill="${BACKGROUND}"/>`,
  );
  // Board outline (Edge.Cuts) as thin yellow lines.
  for (const o of board.outline) {
    const s = o.shape;
    if (s.kind === 'line') out.push(`<line x1="${u(s.a.x)}" y1="${u(s.a.y)}" x2="${u(s.b.x)}" y2="${u(s.b.y)}" stroke="#D0D2CD" stroke-width="0.1"/>`);
    else if (s.kind === 'rect') out.push(`<rect x="${u(Math.min(s.a.x, s.b.x))}" y="${u(Math.min(s.a.y, s.b.y))}" width="${u(Math.abs(s.b.x - s.a.x))}" height="${u(Math.abs(s.b.y - s.a.y))}" fill="none" stroke="#D0D2CD" stroke-width="0.1"/>`);
    else if (s.kind === 'arc') out.push(`<polyline points="${u(s.start.x)},${u(s.start.y)} ${u(s.mid.x)},${u(s.mid.y)} ${u(s.end.x)},${u(s.end.y)}" fill="none" stroke="#D0D2CD" stroke-width="0.1"/>`);
    else if (s.kind === 'circle') out.push(`<circle cx="${u(s.center.x)}" cy="${u(s.center.y)}" r="${u(s.radius)}" fill="none" stroke="#D0D2CD" stroke-width="0.1"/>`);
    else if (s.kind === 'poly') out.push(`<polygon points="${s.pts.map((p) => `${u(p.x)},${u(p.y)}`).join(' ')}" fill="none" stroke="#D0D2CD" stroke-width="0.1"/>`);
  }
  const margin = 2_000_000;
  const stroke = (net: number, base: string) => (scene.blockers?.has(net) ? BLOCKER : scene.highlight?.has(net) ? HIGHLIGHT : base);
  // Bottom layer first, so the front copper is on top as in KiCad's default view.
  for (const layer of [...scene.layers].sort((a, b) => b - a)) {
    const name = board.copperLayers[layer]?.name ?? '';
    const colour = colourOf(name);
    out.push(`<g id="layer-${esc(name)}" opacity="0.85">`);
    for (const t of [...board.tracks, ...scene.tracks]) {
      if (t.layer !== layer) continue;
      if (!inBox(box, t.start.x, t.start.y, margin) && !inBox(box, t.end.x, t.end.y, margin)) continue;
      const sh = t.mid ? arc(t.start.x, t.start.y, t.mid.x, t.mid.y, t.end.x, t.end.y, t.width) : segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width);
      out.push(shapeSvg(sh, stroke(t.net, colour)));
    }
    for (const p of board.pads) {
      if (!maskLayers(p.layers).includes(layer) || !inBox(box, p.at.x, p.at.y, margin)) continue;
      const fill = stroke(p.net, colour);
      const title = `<title>${esc(board.footprints[p.footprint]?.reference ?? '')}.${esc(p.number)} ${esc(board.nets[p.net]?.name ?? '')}</title>`;
      out.push(`<g>${title}${shapeSvg(padShape(p), fill)}</g>`);
    }
    out.push('</g>');
  }
  for (const v of [...board.vias, ...scene.vias]) {
    if (!inBox(box, v.at.x, v.at.y, margin)) continue;
    out.push(`<circle cx="${u(v.at.x)}" cy="${u(v.at.y)}" r="${u(v.size / 2)}" fill="${stroke(v.net, '#C2C2C2')}"/><circle cx="${u(v.at.x)}" cy="${u(v.at.y)}" r="${u(v.drill / 2)}" fill="${BACKGROUND}"/>`);
  }
  for (const p of board.pads) {
    if (p.drill && inBox(box, p.at.x, p.at.y, margin)) out.push(`<circle cx="${u(p.at.x)}" cy="${u(p.at.y)}" r="${u(Math.min(p.drill.w, p.drill.h) / 2)}" fill="${BACKGROUND}"/>`);
  }
  for (const r of scene.ratsnest) out.push(`<line x1="${u(r.a.x)}" y1="${u(r.a.y)}" x2="${u(r.b.x)}" y2="${u(r.b.y)}" stroke="${RATSNEST}" stroke-width="0.05" stroke-dasharray="0.3 0.2"/>`);
  out.push('</svg>');
  return out.join('\n');
}
