// An SVG picture of a board region: pads, tracks and vias per copper layer in KiCad's default
// colours, the board outline, open connections as ratsnest lines, and chosen nets highlighted
// (a stuck connection's blockers). Coordinates stay in the board's axes, scaled nm → mm by the
// viewBox; every name that reaches the picture is escaped text inside a <title>.

import type { Board, Pt } from '../board/model.ts';
import { maskLayers } from '../board/layers.ts';
import type { NewTrack, NewVia } from '../kicad/write-board.ts';

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
      const d = t.mid ? `M${u(t.start.x)} ${u(t.start.y)} Q${u(2 * t.mid.x - (t.start.x + t.end.x) / 2)} ${u(2 * t.mid.y - (t.start.y + t.end.y) / 2)} ${u(t.end.x)} ${u(t.end.y)}` : `M${u(t.start.x)} ${u(t.start.y)} L${u(t.end.x)} ${u(t.end.y)}`;
      out.push(`<path d="${d}" stroke="${stroke(t.net, colour)}" stroke-width="${u(t.width)}" stroke-linecap="round" fill="none"/>`);
    }
    for (const p of board.pads) {
      if (!maskLayers(p.layers).includes(layer) || !inBox(box, p.at.x, p.at.y, margin)) continue;
      const fill = stroke(p.net, colour);
      const rot = p.rotation ? ` transform="rotate(${-p.rotation} ${u(p.at.x)} ${u(p.at.y)})"` : '';
      const cx = p.at.x + p.offset.x;
      const cy = p.at.y + p.offset.y;
      const title = `<title>${esc(board.footprints[p.footprint]?.reference ?? '')}.${esc(p.number)} ${esc(board.nets[p.net]?.name ?? '')}</title>`;
      if (p.shape === 'circle') out.push(`<circle cx="${u(cx)}" cy="${u(cy)}" r="${u(p.size.w / 2)}" fill="${fill}">${title}</circle>`);
      else {
        const rx = p.shape === 'oval' ? Math.min(p.size.w, p.size.h) / 2 : p.shape === 'roundrect' ? p.roundrectRatio * Math.min(p.size.w, p.size.h) : 0;
        out.push(`<rect x="${u(cx - p.size.w / 2)}" y="${u(cy - p.size.h / 2)}" width="${u(p.size.w)}" height="${u(p.size.h)}" rx="${u(rx)}" fill="${fill}"${rot}>${title}</rect>`);
      }
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
