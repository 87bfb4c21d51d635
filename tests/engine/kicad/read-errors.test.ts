// Bad input is a clear error or warning with file:line:column, and names are data kept exactly.
import { describe, expect, it } from 'vitest';
import { parseBoard } from '../../../engine/kicad/read-board.ts';
import { parseDru } from '../../../engine/kicad/read-dru.ts';
import { parseProject, ProjectError } from '../../../engine/kicad/read-project.ts';
import { KicadParseError } from '../../../engine/kicad/sexpr.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';

const HEAD = `(kicad_pcb
\t(version 20241229)
\t(generator "pcbnew")
\t(layers
\t\t(0 "F.Cu" signal)
\t\t(2 "B.Cu" signal)
\t\t(25 "Edge.Cuts" user)
\t)
\t(net 0 "")
\t(net 1 "GND")
`;

function board(body: string): string {
  return `${HEAD}${body})\n`;
}

function parseError(text: string): KicadParseError {
  try {
    parseBoard(text, { source: 'x.kicad_pcb' });
  } catch (e) {
    if (e instanceof KicadParseError) return e;
    throw e;
  }
  throw new Error('expected a KicadParseError');
}

describe('malformed boards', () => {
  it('an unclosed list names the line and column of its parenthesis', () => {
    const e = parseError(board('\t(segment (start 0 0) (end 1 1) (width 0.2) (layer "F.Cu") (net 1)\n'));
    expect(e.message).toMatch(/^x\.kicad_pcb:1:1: this '\(' is never closed$/);
  });

  it('an unterminated string is located', () => {
    const e = parseError(board('\t(gr_text "oops\n'));
    expect(e.line).toBe(11);
    expect(e.column).toBe(11);
    expect(e.message).toContain('unterminated string');
  });

  it('a track on a layer the board does not enable is kept apart with a warning at that layer', () => {
    const b = parseBoard(board('\t(segment (start 0 0) (end 1 1) (width 0.2) (layer "In5.Cu") (net 1))\n'), { source: 'x.kicad_pcb' });
    expect(b.tracks).toEqual([]);
    expect(b.offLayerItems).toEqual([{ kind: 'track', layerName: 'In5.Cu', at: { x: 0, y: 0 }, end: { x: 1_000_000, y: 1_000_000 }, width: 200_000, net: 1, src: expect.any(Number) }]);
    const w = b.warnings.find((d) => d.message.includes('In5.Cu'));
    expect(w).toMatchObject({ severity: 'warning', source: 'x.kicad_pcb', line: 11, column: 45 });
    expect(w!.message).toMatch(/\(segment\) is on "In5\.Cu", which is not an enabled copper layer/);
  });

  it('a via reaching a layer the board does not enable is kept apart too', () => {
    const b = parseBoard(board('\t(via (at 1 2) (size 0.6) (drill 0.3) (layers "F.Cu" "In3.Cu") (net 1))\n'), { source: 'x.kicad_pcb' });
    expect(b.vias).toEqual([]);
    expect(b.offLayerItems).toMatchObject([{ kind: 'via', layerName: 'In3.Cu', at: { x: 1_000_000, y: 2_000_000 }, net: 1 }]);
  });

  it('a track on a name that is no copper layer at all is still an error', () => {
    const e = parseError(board('\t(segment (start 0 0) (end 1 1) (width 0.2) (layer "Foo.Cu") (net 1))\n'));
    expect(e.message).toMatch(/x\.kicad_pcb:11:45: \(segment\) is on "Foo\.Cu", which is not an enabled copper layer/);
  });

  it('a zero-size pad is an error naming the pad and part', () => {
    const fp = `\t(footprint "lib:R" (layer "F.Cu") (at 10 10)
\t\t(property "Reference" "R1")
\t\t(pad "1" smd rect (at 0 0) (size 0 1) (layers "F.Cu") (net 1 "GND"))
\t)
`;
    const e = parseError(board(fp));
    expect(e.message).toMatch(/x\.kicad_pcb:13:30: pad "1" of R1 has a zero or negative size/);
  });

  it('a number that is not a number is located', () => {
    const e = parseError(board('\t(via (at 1 zz) (size 0.6) (drill 0.3) (layers "F.Cu" "B.Cu") (net 1))\n'));
    expect(e.message).toMatch(/x\.kicad_pcb:11:13: \(at\) expects a number, got "zz"/);
  });

  it('a net code missing from the table is an error', () => {
    const e = parseError(board('\t(segment (start 0 0) (end 1 1) (width 0.2) (layer "F.Cu") (net 7))\n'));
    expect(e.message).toContain('net 7 is not in the board');
  });

  it('text after the board is ignored with a warning, as KiCad does', () => {
    const b = parseBoard(board('') + '(garbage', { source: 'x.kicad_pcb' });
    expect(b.warnings.map((w) => w.message)).toContain('text after the end of the board is ignored, as KiCad ignores it');
  });

  it('coordinates beyond ±1500 mm are refused', () => {
    const e = parseError(board('\t(segment (start 0 0) (end 1600 1) (width 0.2) (layer "F.Cu") (net 1))\n'));
    expect(e.message).toContain('outside ±1500 mm');
  });
});

describe('names are data', () => {
  it('keeps net names, references and pad numbers with spaces, quotes, brackets and Unicode', () => {
    const text = `(kicad_pcb (version 20241229) (generator "pcbnew")
  (layers (0 "F.Cu" signal) (2 "B.Cu" signal))
  (net 0 "")
  (net 1 "/a b (c) [d] \\"q\\" -/ Ω")
  (footprint "lib:X" (layer "F.Cu") (at 0 0)
    (property "Reference" "U [1] \\"x\\"")
    (pad "A 1(2)" smd rect (at 0 0) (size 1 1) (layers "F.Cu") (net 1 "/a b (c) [d] \\"q\\" -/ Ω"))))
`;
    const b = parseBoard(text);
    expect(b.nets[1].name).toBe('/a b (c) [d] "q" -/ Ω');
    expect(b.footprints[0].reference).toBe('U [1] "x"');
    expect(b.pads[0].number).toBe('A 1(2)');
    expect(b.pads[0].net).toBe(1);
  });
});

describe('project and custom rules', () => {
  it('an absent .kicad_pro is a warning, and defaults apply', () => {
    const d = loadDesign({ board: board(''), boardName: 'x.kicad_pcb' });
    expect(d.warnings.some((w) => w.message.includes('no .kicad_pro beside the board'))).toBe(true);
    expect(d.rules.netClass(1).name).toBe('Default');
  });

  it('malformed JSON names the line and column', () => {
    expect(() => parseProject('{\n  "board": {\n    "x": ,\n  }\n}', 'p.kicad_pro')).toThrow(ProjectError);
    expect(() => parseProject('{\n  "board": {\n    "x": ,\n  }\n}', 'p.kicad_pro')).toThrow(/p\.kicad_pro: not valid JSON at 3:10/);
  });

  it('net classes by pattern and assignment, highest priority first', () => {
    const pro = JSON.stringify({
      board: { design_settings: { rules: { min_clearance: 0.1, min_track_width: 0.15 } } },
      net_settings: {
        classes: [
          { name: 'Default', clearance: 0.2, track_width: 0.25, via_diameter: 0.6, via_drill: 0.3, priority: 2147483647 },
          { name: 'Power', clearance: 0.3, track_width: 0.5, via_diameter: 0.8, via_drill: 0.4, priority: 1 },
          { name: 'HV', clearance: 0.6, track_width: 0.4, via_diameter: 0.8, via_drill: 0.4, priority: 0 },
        ],
        netclass_patterns: [{ netclass: 'Power', pattern: 'GND*' }, { netclass: 'Nope', pattern: 'X' }],
        netclass_assignments: { GND: 'HV' },
      },
    });
    const d = loadDesign({ board: board(''), project: pro, projectName: 'p.kicad_pro' });
    expect(d.rules.netClass(1).name).toBe('HV');
    expect(d.rules.trackWidth(1, 0)).toBe(400_000);
    expect(d.rules.clearance({ net: 1, layer: 0 }, { net: 0, layer: 0 })).toBe(600_000);
    expect(d.warnings.some((w) => w.message.includes('unknown net class "Nope"'))).toBe(true);
  });

  it('custom rules: supported ones apply, unsupported clauses are warnings that name them', () => {
    const dru = `(version 1)
(rule "wide gnd"
  (condition "A.NetName == 'GND'")
  (constraint track_width (min 0.3mm) (opt 0.5mm)))
(rule "hv gap"
  (condition "A.NetClass == 'Default' && B.NetName == 'GND'")
  (constraint clearance (min 0.45mm)))
(rule "len"
  (constraint length (max 10mm))
  (condition "A.NetName == 'GND'"))
(rule "fancy"
  (condition "A.isPlated()")
  (constraint clearance (min 1mm)))
`;
    const { rules, warnings } = parseDru(dru, 'x.kicad_dru');
    expect(rules.map((r) => r.name)).toEqual(['wide gnd', 'hv gap']);
    expect(warnings.map((w) => `${w.line}: ${w.message}`)).toEqual([
      '9: rule "len": constraint length is not supported and is ignored',
      expect.stringMatching(/^12: rule "fancy": condition "A\.isPlated\(\)" is not supported/),
    ]);
    const d = loadDesign({ board: board(''), dru, druName: 'x.kicad_dru' });
    expect(d.rules.trackWidth(1, 0)).toBe(500_000);
    expect(d.rules.clearance({ net: 0, layer: 0 }, { net: 1, layer: 0 })).toBe(450_000);
  });
});
