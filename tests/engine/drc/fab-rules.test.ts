// Custom rules of the kind fab templates write — conditions on an item's kind (`A.Type`,
// `A.Pad_Type`, `A.isPlated()`) and the ring and hole-to-hole minimums — judged by the engine's
// DRC and by kicad-cli 9.0.8 and 10.0.7 on one hand-made board with planted faults: a via and
// plated pads with thin rings, holes too close under a custom minimum (and a pair a lower custom
// minimum lets pass), thin tracks and arcs under a track-only width rule, and a track too near an
// SMD pad under a pad-to-track clearance rule. Every finding of those types, with its measured
// value, must be the same on both sides.
import { describe, expect, it } from 'vitest';
import { runDrc } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { kicads } from '../../support/kicad.ts';
import { edgeRect, smallProject, uuidCounter } from '../../support/small-board.ts';
import { kicadFindings, type Finding } from '../../support/kicad-findings.ts';

const TYPES = ['annular_width', 'hole_to_hole', 'track_width', 'clearance', 'drill_out_of_range'];

const DRU = `(version 1)
# Fab limits written for this test.
(rule "plated ring"
\t(condition "A.isPlated()")
\t(constraint annular_width (min 0.13mm)))
(rule "drills apart"
\t(constraint hole_to_hole (min 0.5mm)))
(rule "mounting holes may crowd"
\t(condition "A.Pad_Type == 'NPTH, mechanical' || B.Pad_Type == 'NPTH, mechanical'")
\t(constraint hole_to_hole (min 0.1mm)))
(rule "tracks"
\t(condition "A.Type == 'TRACK'")
\t(constraint track_width (min 0.2mm)))
(rule "pads keep off tracks"
\t(condition "A.Type == 'Pad' && B.Type == 'Tr*'")
\t(constraint clearance (min 0.2mm)))
(rule "unplated pads but SMD ones"
\t(condition "!A.isPlated() && A.Pad_Type != 'SMD'")
\t(constraint track_width (min 5mm)))
`;

const PRO = smallProject(
  {
    min_clearance: 0.1,
    min_track_width: 0.1,
    min_hole_to_hole: 0.25,
    min_via_annular_width: 0.05,
    min_through_hole_diameter: 0.2,
    min_via_diameter: 0.3,
    min_hole_clearance: 0.1,
    min_copper_edge_clearance: 0.1,
    max_error: 0.005,
  },
  { hole_to_hole: 'error', lib_footprint_issues: 'ignore', lib_footprint_mismatch: 'ignore', missing_courtyard: 'ignore' },
);

const uuid = uuidCounter();
const via = (x: number, y: number, size: number, drill: number) =>
  `\t(via (at ${x} ${y}) (size ${size}) (drill ${drill}) (layers "F.Cu" "B.Cu") (net 1) (uuid "${uuid()}"))\n`;
const pad = (num: string, kind: string, shape: string, x: number, w: number, h: number, drill: number | null, net: number) =>
  `\t\t(pad "${num}" ${kind} ${shape} (at ${x} 0) (size ${w} ${h})${drill ? ` (drill ${drill})` : ''} (layers ${kind === 'smd' ? '"F.Cu"' : '"*.Cu"'})${net ? ` (net ${net} "${net === 1 ? 'A' : 'B'}")` : ''} (uuid "${uuid()}"))\n`;

function board(): string {
  const edge = edgeRect(60, 50, uuid);
  return `(kicad_pcb (version 20241229) (generator "pcbnew")
\t(general (thickness 1.6))
\t(layers (0 "F.Cu" signal) (2 "B.Cu" signal) (25 "Edge.Cuts" user))
\t(setup (pad_to_mask_clearance 0))
\t(net 0 "") (net 1 "A") (net 2 "B")
${edge}${
    // A via whose ring is 0.1 mm.
    via(10, 10, 0.5, 0.3) +
    // Two vias 0.4 mm apart (drills 0.3 mm), under the 0.5 mm rule; two more 0.6 mm apart.
    via(10, 20, 0.6, 0.3) +
    via(10.7, 20, 0.6, 0.3) +
    via(20, 20, 0.6, 0.3) +
    via(20.9, 20, 0.6, 0.3) +
    // A via 0.15 mm from a mounting hole: the NPTH rule lets it pass.
    via(40, 30, 0.6, 0.3)
  }\t(footprint "t:P" (layer "F.Cu") (at 30 10) (uuid "${uuid()}")
\t\t(property "Reference" "P1" (at 0 -2 0) (layer "F.SilkS") (uuid "${uuid()}") (effects (font (size 1 1) (thickness 0.15))))
${pad('1', 'thru_hole', 'circle', 0, 0.6, 0.6, 0.4, 2)}${pad('2', 'thru_hole', 'oval', 3, 1.2, 0.8, 0.6, 2)}${pad('3', 'thru_hole', 'rect', 6, 1.5, 1.5, 0.8, 2)}${pad('', 'np_thru_hole', 'circle', 9, 1, 1, 1, 0)}${pad('4', 'smd', 'rect', 12, 1, 1, null, 2)}\t)
\t(footprint "t:H" (layer "F.Cu") (at 40.9 30) (uuid "${uuid()}")
\t\t(property "Reference" "H1" (at 0 -2 0) (layer "F.SilkS") (uuid "${uuid()}") (effects (font (size 1 1) (thickness 0.15))))
${pad('', 'np_thru_hole', 'circle', 0, 1.2, 1.2, 1.2, 0)}\t)
\t(segment (start 10 30) (end 15 30) (width 0.15) (layer "F.Cu") (net 1) (uuid "${uuid()}"))
\t(arc (start 10 33) (mid 12.5 32) (end 15 33) (width 0.15) (layer "B.Cu") (net 1) (uuid "${uuid()}"))
\t(segment (start 41 10.75) (end 43 10.75) (width 0.2) (layer "F.Cu") (net 1) (uuid "${uuid()}"))
\t(segment (start 20 40) (end 25 40) (width 0.25) (layer "F.Cu") (net 1) (uuid "${uuid()}"))
)
`;
}

/** "type actual" of each finding: the texts differ in how they name the rule, not in what they measured. */
function measured(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.type} ${/actual ([0-9.]+ mm)/.exec(f.description)?.[1] ?? f.description}`).sort();
}

function engineFindings(text: string): string[] {
  const d = loadDesign({ board: text, boardName: 'b.kicad_pcb', project: PRO, projectName: 'b.kicad_pro', dru: DRU, druName: 'b.kicad_dru' });
  expect(d.warnings.filter((w) => w.source === 'b.kicad_dru')).toEqual([]);
  return measured(runDrc(d).violations.filter((v) => TYPES.includes(v.type)));
}

describe('fab template rules, engine alone', () => {
  it('finds each planted fault', () => {
    expect(engineFindings(board())).toEqual(
      [
        // The thin via, and the circle and oval pads: 0.1 mm rings; the NPTH and SMD pads are not
        // plated, and no ring is asked of them.
        'annular_width 0.1000 mm',
        'annular_width 0.1000 mm',
        'annular_width 0.1000 mm',
        // The two close vias; the via by the mounting hole passes under the NPTH rule.
        'hole_to_hole 0.4000 mm',
        // The straight track and the arc under the track-only rule (a pad type asked of a track
        // is neither equal nor unequal to anything: the last rule never matches one).
        'track_width 0.1500 mm',
        'track_width 0.1500 mm',
        // The track 0.15 mm from the SMD pad (P1 pad 4 at x 42).
        'clearance 0.1500 mm',
      ].sort(),
    );
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('fab template rules agree with kicad-cli %s', (_v, k) => {
  it('the same findings, measured alike', () => {
    const judged = kicadFindings(k, { board: board(), project: PRO, dru: DRU }, TYPES);
    const kicad = measured(judged.findings);
    expect(kicad.length).toBe(7);
    expect(engineFindings(judged.board)).toEqual(kicad);
  });
});
