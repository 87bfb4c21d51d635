// Copper text in the DRC (text-clearance.ts): with glyphs a text is checked like KiCad checks it,
// against every item, with its strokes; with only its box it is checked only for added tracks and
// vias (the router's final check), never in a full run. KiCad 9 calls a track across a no-net text a
// clearance when it is the track's first finding and a short when the track spent that on another
// item (kicad-demo_sonde-xilinx's text-cross and dangling-stub faults); KiCad 10 a clearance.
import { describe, expect, it } from 'vitest';
import type { Primitive } from '../../../engine/board/model.ts';
import { checkAdded, runDrc } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import type { Design } from '../../../engine/board/design.ts';

const PRO = JSON.stringify({
  board: { design_settings: { rules: { min_clearance: 0.2 }, rule_severities: { track_dangling: 'ignore', via_dangling: 'ignore' } } },
  net_settings: { classes: [{ name: 'Default', clearance: 0.2, track_width: 0.25, via_diameter: 0.6, via_drill: 0.3 }] },
});
const mm = 1_000_000;
const TEXT_UUID = '00000000-0000-4000-8000-00000000a001';

/** "Component Side"-like text at (50, 50), 1.5 mm, with glyphs: two strokes, a vertical bar at x = 48 and one at 52. */
const GLYPHS: Primitive[] = [
  { kind: 'line', a: { x: 48 * mm, y: 49.3 * mm }, b: { x: 48 * mm, y: 50.7 * mm }, width: 300_000 },
  { kind: 'line', a: { x: 52 * mm, y: 49.3 * mm }, b: { x: 52 * mm, y: 50.7 * mm }, width: 300_000 },
];

function design(body: string, glyphs: boolean, version = 20241229): Design {
  const nets = version > 20241229 ? '' : '\t(net 0 "") (net 1 "A") (net 2 "B")\n';
  const net = (code: number, name: string) => (version > 20241229 ? `"${name}"` : String(code));
  const text = `(kicad_pcb (version ${version}) (generator "pcbnew")
\t(layers (0 "F.Cu" signal) (2 "B.Cu" signal) (25 "Edge.Cuts" user))
${nets}\t(gr_text "ABCD" (at 50 50) (layer "F.Cu") (uuid "${TEXT_UUID}") (effects (font (size 1.5 1.5) (thickness 0.3))))
${body.replace(/\(net (\d) (\w)\)/g, (_, c, n) => `(net ${net(Number(c), n)})`)})\n`;
  return loadDesign({
    board: text,
    boardName: 't.kicad_pcb',
    project: PRO,
    projectName: 't.kicad_pro',
    textGlyphs: glyphs ? [{ uuid: TEXT_UUID, layer: 'F.Cu', glyphs: GLYPHS }] : undefined,
  });
}

const seg = (x0: number, y0: number, x1: number, y1: number, net = 1) =>
  `\t(segment (start ${x0} ${y0}) (end ${x1} ${y1}) (width 0.25) (layer "F.Cu") (net ${net} ${net === 1 ? 'A' : 'B'}) (uuid "00000000-0000-4000-8000-0000000${x0}${y0}${x1}"))\n`;

/** Findings naming the text: a full run, or (added) the board's tracks judged as added copper. */
function textFindings(d: Design, added = false): string[] {
  const board = d.board;
  const r = added
    ? checkAdded(
        { ...d, board: { ...board, tracks: [] } },
        board.tracks.map(({ index: _, ...t }) => t),
        [],
      )
    : runDrc(d);
  return r.violations.filter((v) => v.items.some((i) => i.kind === 'graphic' && board.graphics[i.index]?.text)).map((v) => v.type);
}

describe('copper text in the DRC', () => {
  it('with glyphs: a track across them is a clearance (its first finding, KiCad 9 and 10)', () => {
    expect(textFindings(design(seg(46, 50, 54, 50), true))).toEqual(['clearance']);
    expect(textFindings(design(seg(46, 50, 54, 50), true, 20260206))).toEqual(['clearance']);
  });

  it('with glyphs: a track between the strokes, clear of both, is fine', () => {
    expect(textFindings(design(seg(50, 48, 50, 52), true))).toEqual([]);
  });

  it('KiCad 9: a track that spent its one finding elsewhere shorts to the text it crosses', () => {
    // Track A crosses track B first (tracks_crossing), then the glyph at x = 48; a pad of each net
    // keeps the two tracks on their nets.
    const pad = (
      x: number,
      y: number,
      net: string,
      k: number,
    ) => `\t(footprint "t" (layer "F.Cu") (uuid "00000000-0000-4000-8000-00000000e00${k}") (at ${x} ${y})
\t\t(pad "1" smd rect (at 0 0) (size 0.5 0.5) (layers "F.Cu") (net ${net}) (uuid "00000000-0000-4000-8000-00000000e10${k}")))
`;
    const body = pad(54, 50, '1 A', 1) + pad(47, 52, '2 B', 2) + seg(46, 50, 54, 50) + seg(47, 48, 47, 52, 2);
    const d = design(body, true);
    expect(
      runDrc(d)
        .violations.map((v) => v.type)
        .sort(),
    ).toContain('tracks_crossing');
    expect(textFindings(d)).toEqual(['shorting_items']);
    expect(textFindings(design(body, true, 20260206))).toEqual(['clearance']);
  });

  it('with only its box: a full run leaves the text out, added copper is held off the box', () => {
    const d = design(seg(50, 48, 50, 52), false);
    expect(textFindings(d)).toEqual([]);
    // Clear of the glyphs, but inside the box: the router's check refuses it.
    expect(textFindings(d, true)).toEqual(['clearance']);
    expect(textFindings(design(seg(50, 48, 50, 52), true), true)).toEqual([]);
  });

  it('with only its box: pads are not held against it', () => {
    const fp = `\t(footprint "t" (layer "F.Cu") (uuid "00000000-0000-4000-8000-00000000f001") (at 50 50)
\t\t(pad "1" smd rect (at 0 0) (size 1 1) (layers "F.Cu") (net 1 A) (uuid "00000000-0000-4000-8000-00000000f002")))
`;
    expect(textFindings(design(fp, false))).toEqual([]);
    // With glyphs the pad (no stroke within 0.2 mm of it) is fine, and one over a stroke is not.
    expect(textFindings(design(fp, true))).toEqual([]);
    expect(textFindings(design(fp.replace('(at 50 50)', '(at 48 50)'), true))).toHaveLength(1);
  });

  it('the router avoids the glyphs, or the box when there are none', async () => {
    const { boardParts } = await import('../../../engine/route/design/host-from-design.ts');
    const withGlyphs = boardParts(design('', true));
    const boxOnly = boardParts(design('', false));
    const kinds = (h: typeof withGlyphs) => h.rest.filter((o) => o.kind === 'graphic').map((o) => o.shape.kind);
    expect(kinds(withGlyphs)).toEqual(['compound']);
    expect(kinds(boxOnly)).toEqual(['polygon']);
  });
});
