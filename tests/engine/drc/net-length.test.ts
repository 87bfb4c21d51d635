// A net's length and via count as KiCad's DRC measures them for length, skew and via_count rules,
// against kicad-cli 9.0.8 and 10.0.7 on one hand-made board: vias joining every pair of layers of
// a four-layer board (with the board's own stack-up and with KiCad's default one), a stub via, a
// via with both tracks on one layer and a track ending off a via's centre. KiCad 9.0 counts a via
// only from top to bottom (half of each outer copper), KiCad 10 between any two layers (outer
// copper in full, inner by half): every finding's text, which carries the measured length, must
// be the same on both sides.
import { describe, expect, it } from 'vitest';
import { viaSpanLength } from '../../../engine/board/stackup.ts';
import { runDrc } from '../../../engine/drc/drc.ts';
import { generateBoard } from '../../../engine/kicad/generate-board.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { parseDru } from '../../../engine/kicad/read-dru.ts';
import { kicads } from '../../support/kicad.ts';
import { kicadFindings } from '../../support/kicad-findings.ts';

const TYPES = ['length_out_of_range', 'too_many_vias', 'skew_out_of_range'];

const DRU = `(version 1)
(rule "L"
\t(condition "A.NetName != 'zzz'")
\t(constraint length (max 0.001mm)))
(rule "V"
\t(condition "A.NetName != 'zzz'")
\t(constraint via_count (max 0)))
(rule "S"
\t(condition "A.NetName == 'N1' || A.NetName == 'N3' || A.NetName == 'N9'")
\t(constraint skew (max 0.2mm)))
`;

const STACKUP = `\t\t(stackup
\t\t\t(layer "F.Mask" (type "Top Solder Mask") (thickness 0.01))
\t\t\t(layer "F.Cu" (type "copper") (thickness 0.035))
\t\t\t(layer "dielectric 1" (type "prepreg") (thickness 0.2))
\t\t\t(layer "In1.Cu" (type "copper") (thickness 0.0175))
\t\t\t(layer "dielectric 2" (type "core") (thickness 1.1))
\t\t\t(layer "In2.Cu" (type "copper") (thickness 0.0152))
\t\t\t(layer "dielectric 3" (type "prepreg") (thickness 0.3))
\t\t\t(layer "B.Cu" (type "copper") (thickness 0.04))
\t\t\t(layer "B.Mask" (type "Bottom Solder Mask") (thickness 0.01))
\t\t)
`;

let uid = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`;
const seg = (x0: number, y: number, x1: number, layer: string, net: number) =>
  `\t(segment (start ${x0} ${y}) (end ${x1} ${y}) (width 0.2) (layer "${layer}") (net ${net}) (uuid "${uuid()}"))\n`;
const via = (x: number, y: number, net: number) => `\t(via (at ${x} ${y}) (size 0.6) (drill 0.3) (layers "F.Cu" "B.Cu") (net ${net}) (uuid "${uuid()}"))\n`;

/** Net k: a 5 mm track on layer a to a via, a 5 mm track on layer b from it (b null: a stub). */
function twoLayers(net: number, y: number, a: string, b: string | null, bStart = 65): string {
  return seg(60, y, 65, a, net) + via(65, y, net) + (b ? seg(bStart, y, 70, b, net) : '');
}

function boardText(withStackup: boolean): { board: string; project: string } {
  const g = generateBoard({ nets: 12, padsPerNet: 2, layers: 4, width: 30, height: 25, seed: 5 });
  const copper =
    twoLayers(1, 1, 'F.Cu', 'In1.Cu') +
    twoLayers(2, 3, 'In1.Cu', 'In2.Cu') +
    twoLayers(3, 5, 'F.Cu', 'B.Cu') +
    twoLayers(4, 7, 'F.Cu', null) +
    twoLayers(5, 9, 'F.Cu', 'In1.Cu') +
    seg(65, 9, 70, 'B.Cu', 5) +
    twoLayers(6, 11, 'In2.Cu', 'B.Cu') +
    twoLayers(7, 13, 'F.Cu', 'F.Cu') +
    twoLayers(8, 15, 'F.Cu', 'B.Cu', 65.1) +
    twoLayers(9, 17, 'F.Cu', 'In2.Cu') +
    twoLayers(10, 19, 'In1.Cu', 'B.Cu');
  let board = g.board.trimEnd().replace(/\)$/, `${copper})\n`);
  if (withStackup) board = board.replace('\t(setup\n', `\t(setup\n${STACKUP}`);
  return { board, project: g.project };
}

function engineFindings(board: string, project: string): string[] {
  const d = loadDesign({ board, boardName: 'b.kicad_pcb', project, projectName: 'b.kicad_pro', dru: DRU, druName: 'b.kicad_dru' });
  return runDrc(d)
    .violations.filter((v) => TYPES.includes(v.type))
    .map((v) => `${v.type} ${v.description}`)
    .sort();
}

describe('via length through the stack-up', () => {
  it('counts what each KiCad counts: 9.0 top to bottom only, 10 between any two layers', () => {
    const { board, project } = boardText(false);
    const b = loadDesign({ board, project }).board;
    // KiCad's default 1.6 mm four-layer stack-up: 35 µm copper, 0.48 mm dielectrics.
    expect(viaSpanLength(b, 0, 3, false)).toBe(1_545_000);
    expect(viaSpanLength(b, 0, 3, true)).toBe(1_580_000);
    expect(viaSpanLength(b, 0, 1, true)).toBe(532_500);
    expect(viaSpanLength(b, 1, 2, true)).toBe(515_000);
    expect(viaSpanLength(b, 0, 1, false)).toBe(0);
    expect(viaSpanLength(b, 2, 2, true)).toBe(0);
  });

  it('reads length, skew and via_count constraints, skew within pairs too', () => {
    const { rules, warnings } = parseDru(
      `(version 1)\n(rule "a" (condition "A.NetName == 'x'") (constraint length (min 1mm) (opt 2mm) (max 3mm)) (constraint via_count (max 2)) (constraint skew (max 0.1mm) (within_diff_pairs)))\n(rule "b" (constraint via_count (max 1.5)))\n`,
    );
    expect(rules[0].constraints).toEqual([
      { kind: 'length', min: 1_000_000, opt: 2_000_000, max: 3_000_000 },
      { kind: 'via_count', max: 2 },
      { kind: 'skew', max: 100_000, withinDiffPairs: true },
    ]);
    expect(rules[0].unmodelled).toEqual([]);
    expect(warnings.map((w) => w.message)).toContain('rule "b": via_count max value "1.5" is not a whole number');
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('net lengths agree with kicad-cli %s', (_v, k) => {
  it.each([
    ['its own stack-up', true],
    ['the default stack-up', false],
  ] as const)('with %s', (_name, withStackup) => {
    const { board, project } = boardText(withStackup);
    const judged = kicadFindings(k, { board, project, dru: DRU }, TYPES);
    const kicad = judged.findings.map((v) => `${v.type} ${v.description}`).sort();
    // Ten nets with copper: a length and a via count each, and the skew rule's two shorter nets.
    expect(kicad.filter((t) => t.startsWith('length')).length).toBe(10);
    expect(kicad.filter((t) => t.startsWith('too_many')).length).toBe(10);
    expect(kicad.filter((t) => t.startsWith('skew')).length).toBe(2);
    expect(engineFindings(judged.board, project)).toEqual(kicad);
  });
});
