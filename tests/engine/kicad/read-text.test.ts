// Copper text as the file reader models it (read-text.ts): the box that holds every glyph sits against
// the anchor as the justification says, turns with the text, flips with mirroring, follows a
// footprint's placement and keep-upright; TrueType render caches are glyphs; glyphs from KiCad attach
// by uuid. The bounds themselves are held against KiCad's glyphs by tests/live/text-shapes.test.ts.
import { describe, expect, it } from 'vitest';
import type { Board, CopperGraphic } from '../../../engine/board/model.ts';
import { parseBoard } from '../../../engine/kicad/read-board.ts';
import { attachGlyphs } from '../../../engine/kicad/read-text.ts';

let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

function board(body: string): Board {
  return parseBoard(`(kicad_pcb (version 20241229) (generator "pcbnew")
\t(layers (0 "F.Cu" signal) (2 "B.Cu" signal) (37 "F.SilkS" user) (25 "Edge.Cuts" user))
\t(net 0 "")
${body})\n`);
}

const text = (value: string, at: string, layer: string, justify = '', extra = '') =>
  `\t(gr_text "${value}" (at ${at}) (layer "${layer}") (uuid "${id()}")\n\t\t(effects (font (size 1 1) (thickness 0.15))${justify ? ` (justify ${justify})` : ''})${extra})\n`;

function only(b: Board): CopperGraphic {
  const texts = b.graphics.filter((g) => g.text);
  expect(texts).toHaveLength(1);
  return texts[0];
}

const mm = 1_000_000;

describe('copper text boxes from the file', () => {
  it('centres an unjustified text on its anchor and skips text on other layers', () => {
    const g = only(board(text('ABCD', '50 50', 'F.Cu') + text('SILK', '10 10', 'F.SilkS')));
    const b = g.text!.box;
    expect(g.layer).toBe(0);
    expect(g.net).toBe(0);
    expect(Math.abs(b.minX + b.maxX - 100 * mm)).toBeLessThan(0.2 * mm);
    // Four characters of 1 mm: wider than 4 mm, narrower than 6 mm.
    expect(b.maxX - b.minX).toBeGreaterThan(4 * mm);
    expect(b.maxX - b.minX).toBeLessThan(6 * mm);
    expect(b.minY).toBeLessThan(49.4 * mm);
    expect(b.maxY).toBeGreaterThan(50.8 * mm);
    expect(g.shape.kind).toBe('poly');
  });

  it('puts a left-justified text right of its anchor and a right-justified one left of it', () => {
    const l = only(board(text('ABCD', '50 50', 'F.Cu', 'left'))).text!.box;
    const r = only(board(text('ABCD', '50 50', 'F.Cu', 'right'))).text!.box;
    expect(l.minX).toBeGreaterThan(49.7 * mm);
    expect(l.maxX).toBeGreaterThan(54 * mm);
    expect(r.maxX).toBeLessThan(50.3 * mm);
    expect(r.minX).toBeLessThan(46 * mm);
  });

  it('hangs a top-justified text below its anchor and stands a bottom-justified one on it', () => {
    const t = only(board(text('ABCD', '50 50', 'F.Cu', 'top'))).text!.box;
    const b = only(board(text('ABCD', '50 50', 'F.Cu', 'bottom'))).text!.box;
    expect(t.minY).toBeGreaterThan(49.4 * mm);
    expect(t.maxY).toBeGreaterThan(51 * mm);
    expect(b.maxY).toBeLessThan(50.6 * mm);
    expect(b.minY).toBeLessThan(49 * mm);
  });

  it('turns with the text: at 90° a left-justified text runs up from its anchor', () => {
    const b = only(board(text('ABCD', '50 50 90', 'F.Cu', 'left'))).text!.box;
    expect(b.maxY).toBeLessThan(50.7 * mm);
    expect(b.minY).toBeLessThan(46 * mm);
    expect(b.maxX - b.minX).toBeLessThan(2.5 * mm);
  });

  it('flips a mirrored text about its anchor: left-justified and mirrored runs left', () => {
    const b = only(board(text('ABCD', '50 50', 'B.Cu', 'left mirror'))).text!.box;
    expect(b.maxX).toBeLessThan(50.3 * mm);
    expect(b.minX).toBeLessThan(46 * mm);
    expect(only(board(text('ABCD', '50 50', 'B.Cu', 'left mirror'))).layer).toBe(1);
  });

  it('reads footprint texts and fields on copper, placed and kept upright as KiCad draws them', () => {
    // The footprint at (50, 50) turned 180°: the text at (2, 0) lands at (48, 50); its angle 180
    // is drawn as 0, so left-justified it runs right from there. Hidden fields are skipped.
    const fp = `\t(footprint "t" (layer "F.Cu") (uuid "${id()}") (at 50 50 180)
\t\t(property "Reference" "R1" (at 0 -2 180) (layer "F.SilkS") (uuid "${id()}") (effects (font (size 1 1) (thickness 0.15))))
\t\t(property "Hidden" "H" (at 0 0 180) (layer "F.Cu") (hide yes) (uuid "${id()}") (effects (font (size 1 1) (thickness 0.15))))
\t\t(fp_text user "ABCD" (at 2 0 180) (layer "F.Cu") (uuid "${id()}") (effects (font (size 1 1) (thickness 0.15)) (justify left))))
`;
    const g = only(board(fp));
    expect(g.footprint).toBe(0);
    expect(g.text!.value).toBe('ABCD');
    expect(g.text!.box.minX).toBeGreaterThan(47.7 * mm);
    expect(g.text!.box.maxX).toBeGreaterThan(52 * mm);
  });

  it('takes a TrueType text\u2019s render cache as its glyphs', () => {
    const cache = ' (render_cache "A" 0 (polygon (pts (xy 49 49) (xy 51 49) (xy 50 51))))';
    const g = only(board(text('A', '50 50', 'F.Cu', '', cache)));
    expect(g.text!.glyphs).toEqual([
      {
        kind: 'poly',
        pts: [
          { x: 49 * mm, y: 49 * mm },
          { x: 51 * mm, y: 49 * mm },
          { x: 50 * mm, y: 51 * mm },
        ],
        width: 0,
        filled: true,
      },
    ]);
  });

  it('reads a text box as its rectangle grown by its border', () => {
    const box = `\t(gr_text_box "hello" (start 10 10) (end 20 15) (layer "F.Cu") (uuid "${id()}") (effects (font (size 1 1) (thickness 0.15))) (border yes) (stroke (width 0.2) (type solid)))\n`;
    const b = only(board(box)).text!.box;
    expect(b.minX).toBeLessThanOrEqual(9.9 * mm);
    expect(b.maxX).toBeGreaterThanOrEqual(20.1 * mm);
    expect(b.maxX).toBeLessThan(20.3 * mm);
  });

  it('attaches glyphs from KiCad by uuid and layer', () => {
    const b = board(text('AB', '50 50', 'F.Cu'));
    const g = only(b);
    const glyphs = [{ kind: 'line' as const, a: { x: 49 * mm, y: 50 * mm }, b: { x: 51 * mm, y: 50 * mm }, width: 150_000 }];
    expect(attachGlyphs(b, [{ uuid: g.text!.uuid!, layer: 'B.Cu', glyphs }])).toBe(0);
    expect(attachGlyphs(b, [{ uuid: 'other', layer: 'F.Cu', glyphs }])).toBe(0);
    expect(attachGlyphs(b, [{ uuid: g.text!.uuid!, layer: 'F.Cu', glyphs }])).toBe(1);
    expect(g.text!.glyphs).toEqual(glyphs);
  });
});
