// Custom rules conditioned on a via's type (`A.Via_Type`), judged by the engine's DRC and by
// kicad-cli 9.0.8 and 10.0.7 on a four-layer board with a through via, a micro-via and three blind
// vias (one between inner layers). KiCad 9 names blind and buried vias alike, "Blind/buried"; KiCad
// 10 names them apart, "Blind" for a via its file calls blind and "Buried" for one it calls
// buried (KiCad 10 writes `(via buried …)`, which the reader took for a through via). Each rule sets
// its own least drill, so each finding names the rule that matched: both sides must agree.
import { describe, expect, it } from 'vitest';
import { runDrc } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { addCopper } from '../../../engine/kicad/write-board.ts';
import { withCopper, type NewVia } from '../../../engine/board/added-copper.ts';
import type { Design } from '../../../engine/board/design.ts';
import { kicads } from '../../support/kicad.ts';
import { edgeRect, smallProject, uuidCounter } from '../../support/small-board.ts';
import { kicadFindings, type Finding } from '../../support/kicad-findings.ts';

const TYPES = ['drill_out_of_range', 'microvia_drill_out_of_range'];

const RULES: [string, number][] = [
  ['Through', 0.31],
  ['Blind/buried', 0.32],
  ['Blind', 0.33],
  ['Buried', 0.34],
  ['Micro', 0.35],
];
const DRU = `(version 1)\n${RULES.map(([type, min]) => `(rule "${type}"\n\t(condition "A.Via_Type == '${type}'")\n\t(constraint hole_size (min ${min}mm)))\n`).join('')}`;

const PRO = smallProject(
  {
    min_clearance: 0.1,
    min_track_width: 0.1,
    min_through_hole_diameter: 0.1,
    min_microvia_drill: 0.1,
    min_microvia_diameter: 0.2,
    min_via_diameter: 0.3,
    allow_blind_buried_vias: true,
    allow_microvias: true,
    max_error: 0.005,
  },
  { lib_footprint_issues: 'ignore' },
);

const uuid = uuidCounter();
const via = (x: number, type: string, from: string, to: string) =>
  `\t(via${type ? ` ${type}` : ''} (at ${x} 5) (size 0.6) (drill 0.2) (layers "${from}" "${to}") (net 1) (uuid "${uuid()}"))\n`;

/** The board, its via between inner layers written `buried` (KiCad 10's word) or `blind` (9's),
 *  or left out. */
function board(inner: 'blind' | 'buried' | undefined): string {
  const edge = edgeRect(40, 30, uuid);
  return `(kicad_pcb (version 20241229) (generator "pcbnew")
\t(general (thickness 1.6))
\t(layers (0 "F.Cu" signal) (4 "In1.Cu" signal) (6 "In2.Cu" signal) (2 "B.Cu" signal) (25 "Edge.Cuts" user))
\t(setup (pad_to_mask_clearance 0))
\t(net 0 "") (net 1 "A")
${edge}${via(5, '', 'F.Cu', 'B.Cu')}${via(10, 'blind', 'F.Cu', 'In1.Cu')}${inner ? via(15, inner, 'In1.Cu', 'In2.Cu') : ''}${via(20, 'micro', 'F.Cu', 'In1.Cu')}${via(25, 'blind', 'F.Cu', 'In2.Cu')})
`;
}

/** "type least-drill" of each finding: the rule that matched, by the drill it asks. */
function matched(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.type} ${/min (?:hole )?([0-9.]+ mm)/.exec(f.description)?.[1] ?? f.description}`).sort();
}

function design(text: string): Design {
  const d = loadDesign({ board: text, boardName: 'b.kicad_pcb', project: PRO, projectName: 'b.kicad_pro', dru: DRU, druName: 'b.kicad_dru' });
  expect(d.warnings.filter((w) => w.source === 'b.kicad_dru')).toEqual([]);
  return d;
}

function engineMatched(d: Design | string): string[] {
  return matched(runDrc(typeof d === 'string' ? design(d) : d).violations.filter((v) => TYPES.includes(v.type)));
}

describe('rules on a via’s type, engine alone', () => {
  it('reads A.Via_Type and names the vias of a KiCad 9 file as KiCad 9 does', () => {
    expect(engineMatched(board('blind'))).toEqual(
      [
        'drill_out_of_range 0.3100 mm',
        // Blind and buried alike, by KiCad 9's one name.
        'drill_out_of_range 0.3200 mm',
        'drill_out_of_range 0.3200 mm',
        'drill_out_of_range 0.3200 mm',
        'microvia_drill_out_of_range 0.3500 mm',
      ].sort(),
    );
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('rules on a via’s type agree with kicad-cli %s', (_v, k) => {
  it('each via matched by the same rule', () => {
    // KiCad 10 judges its own file (kicadFindings upgrades it), its via between inner layers buried.
    const judged = kicadFindings(k, { board: board(k.major >= 10 ? 'buried' : 'blind'), project: PRO, dru: DRU }, TYPES);
    const kicad = matched(judged.findings);
    expect(kicad.length).toBe(5);
    expect(kicad).toContain(k.major >= 10 ? 'drill_out_of_range 0.3400 mm' : 'drill_out_of_range 0.3200 mm');
    expect(engineMatched(judged.board)).toEqual(kicad);
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('a via the engine adds between inner layers, judged by kicad-cli %s', (_v, k) => {
  it('is named as KiCad names it, in the file written and in the DRC that gates it', () => {
    // KiCad's own file of the board without its inner via, and the router's via in its place.
    const base = design(kicadFindings(k, { board: board(undefined), project: PRO, dru: DRU }, TYPES).board);
    const added: NewVia = { at: { x: 15_000_000, y: 5_000_000 }, size: 600_000, drill: 200_000, layerFrom: 1, layerTo: 2, net: 1, type: 'blind' };
    const written = addCopper(base.board, [], [added]);
    expect(written).toContain(k.major >= 10 ? '(via buried' : '(via blind');
    const kicad = matched(kicadFindings(k, { board: written, project: PRO, dru: DRU }, TYPES).findings);
    expect(kicad.length).toBe(5);
    // The added via: KiCad 10's "Buried" (0.34), KiCad 9's "Blind/buried" (0.32, as its two blind vias).
    expect(kicad.filter((f) => f === `drill_out_of_range ${k.major >= 10 ? '0.3400' : '0.3200'} mm`).length).toBe(k.major >= 10 ? 1 : 3);
    expect(engineMatched(written)).toEqual(kicad);
    expect(engineMatched({ ...base, board: withCopper(base.board, [], [added]) })).toEqual(kicad);
  });
});
