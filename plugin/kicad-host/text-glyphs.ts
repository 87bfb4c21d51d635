// The glyphs of the board's copper texts as the running KiCad draws them (GetTextAsShapes), turned into
// the engine's primitives so that the DRC and the router see the real strokes instead of a box. The
// glyphs are asked for only when the board text holds copper text, and kept while the text is the same.
import type { Primitive, Pt } from '../../engine/board/model.ts';
import type { TextGlyphs } from '../../engine/kicad/read-text.ts';
import { KicadApiError, KicadBusyError, type GlyphShape, type KicadClient, type TextShapes, type Vec2 } from '../../ipc/index.ts';

// Text items of a `.kicad_pcb` on a copper layer: a cheap look, not a parse (a false yes costs a call).
const COPPER_TEXT = /\((?:gr_text|fp_text|property)\s[^]*?\(layer "(?:F|B|In\d+)\.Cu"/;

/** Whether a board text may hold text on a copper layer (some false positives, no false negatives). */
export function mayHaveCopperText(boardText: string): boolean {
  if (!COPPER_TEXT.test(boardText)) return false;
  // The lazy match above may run from a silkscreen text into a pad's layer: look item by item.
  for (const m of boardText.matchAll(/\((?:gr_text|fp_text|property)\s/g)) {
    const from = m.index;
    const rest = boardText.slice(from, from + 2000);
    const layer = /\(layer "([^"]+)"/.exec(rest);
    if (layer && /^(F|B|In\d+)\.Cu$/.test(layer[1])) return true;
  }
  return false;
}

function pt(v: Vec2): Pt {
  return { x: v.x, y: v.y };
}

// A cubic Bézier as a polyline of this many pieces (glyph curves are small; outline fonts only).
const BEZIER_PIECES = 8;

/** One glyph shape as an engine primitive (absolute nm); polygons become one filled outline each. */
export function glyphPrimitives(s: GlyphShape): Primitive[] {
  const g = s.geometry;
  switch (g.type) {
    case 'segment':
      return [{ kind: 'line', a: pt(g.start), b: pt(g.end), width: s.width }];
    case 'arc':
      return [{ kind: 'arc', start: pt(g.start), mid: pt(g.mid), end: pt(g.end), width: s.width }];
    case 'circle':
      return [
        {
          kind: 'circle',
          center: pt(g.center),
          radius: Math.round(Math.hypot(g.radiusPoint.x - g.center.x, g.radiusPoint.y - g.center.y)),
          width: s.width,
          filled: s.filled,
        },
      ];
    case 'rectangle':
      return [{ kind: 'rect', a: pt(g.topLeft), b: pt(g.bottomRight), width: s.width, filled: s.filled }];
    case 'polygon':
      // Holes (counters of outline glyphs) are filled in: more copper, never less.
      return g.polygons
        .map((p) => ({
          kind: 'poly' as const,
          pts: p.outline.flatMap((n) => ('point' in n ? [pt(n.point)] : [pt(n.arc.start), pt(n.arc.mid), pt(n.arc.end)])),
          width: s.width,
          filled: true,
        }))
        .filter((p) => p.pts.length >= 3);
    case 'bezier': {
      const pts: Pt[] = [];
      for (let k = 0; k <= BEZIER_PIECES; k++) {
        const t = k / BEZIER_PIECES;
        const u = 1 - t;
        const c = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
        const ps = [g.start, g.control1, g.control2, g.end];
        pts.push({ x: Math.round(ps.reduce((a, p, i) => a + c[i] * p.x, 0)), y: Math.round(ps.reduce((a, p, i) => a + c[i] * p.y, 0)) });
      }
      return [{ kind: 'curve', pts, width: s.width }];
    }
  }
}

/** A text's shapes as the engine's glyphs. */
export function textGlyphs(t: TextShapes): TextGlyphs {
  return { uuid: t.id, layer: t.layer, glyphs: t.shapes.flatMap(glyphPrimitives) };
}

const COPPER_LAYER = /^(F|B|In\d+)\.Cu$/;

/**
 * The glyphs of every visible copper text of the open board; [] when `boardText` has none. A KiCad that
 * cannot render (an error reply) gives [] and a line to `log`: the texts then stand as their boxes.
 */
export async function readTextGlyphs(client: KicadClient, boardText: string, log: (line: string) => void = () => {}): Promise<TextGlyphs[]> {
  if (!mayHaveCopperText(boardText)) return [];
  try {
    const layers = (await client.copperLayers()).filter((l) => COPPER_LAYER.test(l));
    return (await client.textShapes(layers)).map(textGlyphs);
  } catch (err) {
    // KiCad busy (a dialog, a tool) is the action's to report; anything else leaves the boxes.
    if (err instanceof KicadBusyError || (err instanceof KicadApiError && (err.code === 'AS_BUSY' || err.code === 'AS_NOT_READY'))) throw err;
    log(`copper text glyphs not read (${err instanceof Error ? err.message : String(err)}): texts stand as their boxes`);
    return [];
  }
}

/** Remembers the glyphs of the last board text read, so an unchanged board is not asked again. */
export class TextGlyphCache {
  #text: string | null = null;
  #glyphs: TextGlyphs[] = [];

  async read(client: KicadClient, boardText: string, log?: (line: string) => void): Promise<TextGlyphs[]> {
    if (boardText !== this.#text) {
      this.#glyphs = await readTextGlyphs(client, boardText, log);
      this.#text = boardText;
    }
    return this.#glyphs;
  }
}
