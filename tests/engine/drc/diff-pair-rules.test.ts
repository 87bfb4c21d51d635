// A differential pair's gap and uncoupled-length rules against kicad-cli 9.0.8 and 10.0.7 on one
// hand-made board: a pair coupled at a gap inside the rule with a stretch of one net alone past it,
// a pair coupled at a gap outside it over part of their length, and a pair whose parallel tracks
// have another net's track between them (not coupled). KiCad files an item under both of a rule's
// pair constraints twice (the gap's group, then both), so a gap out of range comes out twice when
// the uncoupled length is too long as well: every finding's text must be the same on both sides.
// A second board holds pairs of arcs: KiCad couples an arc only with an arc round (nearly) the same
// centre, over the sweep both share, and works that out from its own centre for each arc (moved to
// a round number of nanometres), so arcs whose ends were rounded to the nanometre still couple.
import { describe, expect, it } from 'vitest';
import { generateBoard } from '../../../engine/kicad/generate-board.ts';
import { kicads } from '../../support/kicad.ts';
import { kicadFindings } from '../../support/kicad-findings.ts';
import { enginePairFindings, PAIR_TYPES, STRICT_PAIR_RULE } from '../../support/strict-pair-rule.ts';

const DRU = `(version 1)
(rule "dp"
\t(condition "A.inDiffPair('/DP*')")
\t(constraint diff_pair_gap (min 0.2mm) (max 0.3mm))
\t(constraint diff_pair_uncoupled (max 2mm)))
`;

let uid = 0;
const seg = (x0: number, y0: number, x1: number, y1: number, net: number) =>
  `\t(segment (start ${x0} ${y0}) (end ${x1} ${y1}) (width 0.2) (layer "F.Cu") (net ${net}) (uuid "00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}"))\n`;

function boardText(): { board: string; project: string } {
  const g = generateBoard({ nets: 6, padsPerNet: 2, layers: 2, width: 40, height: 30, seed: 3, pairs: 3 });
  // Nets 1–6 are /DP1_P, /DP1_N … /DP3_N; net 7 is N1.
  const copper =
    // Pair 1: 10 mm at a 0.25 mm gap (inside the rule), then 3 mm of /DP1_P alone.
    seg(60, 1, 70, 1, 1) +
    seg(60, 1.45, 70, 1.45, 2) +
    seg(70, 1, 73, 1, 1) +
    // Pair 2: a 0.5 mm gap over the 8 mm the two share.
    seg(60, 5, 70, 5, 3) +
    seg(62, 5.7, 74, 5.7, 4) +
    // Pair 3: parallel at 0.6 mm, N1 running between them: not coupled at all.
    seg(60, 9, 70, 9, 5) +
    seg(60, 9.8, 70, 9.8, 6) +
    seg(59, 9.4, 71, 9.4, 7);
  return { board: g.board.trimEnd().replace(/\)$/, `${copper})\n`), project: g.project };
}

describe('the engine on the hand-made pairs', () => {
  it('finds what the rules say of each pair', () => {
    const { board, project } = boardText();
    const found = enginePairFindings({ board, project, dru: DRU })
      .map((v) => `${v.nets.join(' ')}: ${v.description}`)
      .sort();
    expect(found).toEqual([
      '/DP1_P /DP1_N: Differential uncoupled length too long (dp maximum uncoupled length 2.0000 mm; actual 3.0000 mm)',
      '/DP2_P /DP2_N: Differential pair gap out of range (dp maximum gap 0.3000 mm; actual 0.5000 mm)',
      '/DP2_P /DP2_N: Differential pair gap out of range (dp maximum gap 0.3000 mm; actual 0.5000 mm)',
      '/DP2_P /DP2_N: Differential uncoupled length too long (dp maximum uncoupled length 2.0000 mm; actual 12.0000 mm)',
      '/DP3_P /DP3_N: Differential uncoupled length too long (dp maximum uncoupled length 2.0000 mm; actual 10.0000 mm)',
    ]);
  });
});

/** An arc centred (cx, cy) mm of radius r from angle a0 to a1 (degrees, drawn that way). */
const arc = (cx: number, cy: number, r: number, a0: number, a1: number, net: number) => {
  const at = (a: number) => [cx + r * Math.cos((a * Math.PI) / 180), cy + r * Math.sin((a * Math.PI) / 180)].map((v) => +v.toFixed(6)).join(' ');
  return `\t(arc (start ${at(a0)}) (mid ${at((a0 + a1) / 2)}) (end ${at(a1)}) (width 0.2) (layer "F.Cu") (net ${net}) (uuid "00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}"))\n`;
};

function arcBoardText(): { board: string; project: string } {
  const g = generateBoard({ nets: 12, padsPerNet: 2, layers: 2, width: 40, height: 30, seed: 3, pairs: 6 });
  // Nets 1–12 are /DP1_P, /DP1_N … /DP6_N; net 13 is N1.
  const copper =
    // Pair 1: quarter arcs 0.45 mm apart (a 0.25 mm gap), one drawn each way, and two arcs from
    // 22.5° to 67.5° whose ends, rounded to the nanometre, put their true centres nanometres apart.
    arc(60, 2, 1, 90, 0, 1) +
    arc(60, 2, 1.45, 0, 90, 2) +
    arc(70, 2.3, 1, 22.5, 67.5, 1) +
    arc(70, 2.3, 1.45, 22.5, 67.5, 2) +
    // Pair 2: 0.75 mm apart (a gap out of range), and two arcs that couple at 0.25 mm.
    arc(60, 8, 1, 0, 90, 3) +
    arc(60, 8, 1.75, 0, 90, 4) +
    arc(70, 8.7, 1, 112.5, 157.5, 3) +
    arc(70, 8.7, 1.45, 112.5, 157.5, 4) +
    // Pair 3: N1 runs between the arcs' middles: not coupled.
    arc(60, 14, 1.45, 45, 135, 6) +
    arc(60, 14, 1, 45, 135, 5) +
    seg(59.9, 15.225, 60.1, 15.225, 13) +
    // Pair 4: sweeps that share 30° only, centres 0.05 mm apart.
    arc(60, 20, 1, 0, 60, 7) +
    arc(60.05, 20, 1.45, 30, 120, 8) +
    // Pair 5: a stub of the pair's own net between the middles does not break the coupling.
    arc(60, 26, 1, 22.5, 67.5, 9) +
    arc(60, 26, 1.45, 22.5, 67.5, 10) +
    seg(60.707107, 26.707107, 60.78, 26.78, 9) +
    // Pair 6: 135° arcs off any round centre, whose KiCad centres land on different round numbers.
    arc(70.10791, 3.000562, 2.591516, 6.567507, 141.567507, 11) +
    arc(70.10791, 3.000562, 2.141516, 141.567507, 6.567507, 12);
  return { board: g.board.trimEnd().replace(/\)$/, `${copper})\n`), project: g.project };
}

describe('the engine on the hand-made pairs of arcs', () => {
  it('couples arcs round one centre over the sweep they share', () => {
    const { board, project } = arcBoardText();
    const found = enginePairFindings({ board, project, dru: STRICT_PAIR_RULE })
      .map((v) => `${v.nets.join(' ')}: ${v.description.replace(/.*\((.*)\)$/, '$1')}`)
      .sort();
    expect(found).toEqual([
      '/DP2_P /DP2_N: dp maximum gap 0.3000 mm; actual 0.5500 mm',
      '/DP2_P /DP2_N: dp maximum gap 0.3000 mm; actual 0.5500 mm',
      '/DP2_P /DP2_N: dp maximum uncoupled length 0.0010 mm; actual 2.7489 mm',
      '/DP3_P /DP3_N: dp maximum uncoupled length 0.0010 mm; actual 2.2777 mm',
      '/DP4_P /DP4_N: dp maximum uncoupled length 0.0010 mm; actual 1.5184 mm',
      '/DP6_P /DP6_N: dp maximum uncoupled length 0.0010 mm; actual 1.0604 mm',
    ]);
  });
});

// Both boards judged by each KiCad: the same findings, word for word.
const boards = [
  ['straight tracks', boardText, DRU, 5],
  ['arcs', arcBoardText, STRICT_PAIR_RULE, 6],
] as const;
describe.each(kicads().flatMap((k) => boards.map((b) => [k.version, b[0], k, b] as const)))('diff-pair rules agree with kicad-cli %s on %s', (_v, _b, k, b) => {
  it('finds the same, word for word', () => {
    const [, text, dru, count] = b;
    const { board, project } = text();
    const judged = kicadFindings(k, { board, project, dru }, PAIR_TYPES);
    const kicad = judged.findings.map((v) => v.description).sort();
    const engine = enginePairFindings({ board: judged.board, project, dru })
      .map((v) => v.description)
      .sort();
    expect(kicad.length).toBe(count);
    expect(engine).toEqual(kicad);
  });
});
