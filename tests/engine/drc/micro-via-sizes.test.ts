// The least size of a micro-via, as kicad-cli 9.0.8 and 10.0.7 judge it: its diameter against its
// own net class's micro-via diameter (not the board's micro-via minimum, which they do not apply),
// its drill against the board's micro-via drill minimum. And the router's micro-vias under a rule
// on the via's type (`A.Via_Type == 'Micro'`): drilled as the rule asks, so KiCad finds nothing.
import { describe, expect, it } from 'vitest';
import { runDrc } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { kicads } from '../../support/kicad.ts';
import { edgeRect, smallProject, uuidCounter } from '../../support/small-board.ts';
import { kicadFindings, type Finding } from '../../support/kicad-findings.ts';
import { expectNoErrorAdded, routeGenerated } from '../../support/judge-generated.ts';

const TYPES = ['via_diameter', 'microvia_drill_out_of_range', 'drill_out_of_range', 'annular_width'];

/** Board minimums under every class's size, and a second class (net B) with larger micro-vias. */
const PRO = (() => {
  const p = JSON.parse(
    smallProject(
      {
        min_clearance: 0.1,
        min_track_width: 0.1,
        min_through_hole_diameter: 0.15,
        min_via_diameter: 0.2,
        min_microvia_diameter: 0.25,
        min_microvia_drill: 0.09,
        min_via_annular_width: 0.01,
        allow_microvias: true,
        max_error: 0.005,
      },
      { lib_footprint_issues: 'ignore' },
    ),
  ) as { net_settings: { classes: Record<string, unknown>[]; netclass_patterns?: unknown[] } };
  p.net_settings.classes.push({ ...p.net_settings.classes[0], name: 'Wide', microvia_diameter: 0.4, priority: 0 });
  p.net_settings.netclass_patterns = [{ netclass: 'Wide', pattern: 'B' }];
  return JSON.stringify(p);
})();

const uuid = uuidCounter();
const via = (x: number, net: number, size: number, drill: number, micro = true) =>
  `\t(via${micro ? ' micro' : ''} (at ${x} 5) (size ${size}) (drill ${drill}) (layers "F.Cu" "${micro ? 'In1.Cu' : 'B.Cu'}") (net ${net}) (uuid "${uuid()}"))\n`;

const BOARD = `(kicad_pcb (version 20241229) (generator "pcbnew")
\t(general (thickness 1.6))
\t(layers (0 "F.Cu" signal) (4 "In1.Cu" signal) (6 "In2.Cu" signal) (2 "B.Cu" signal) (25 "Edge.Cuts" user))
\t(setup (pad_to_mask_clearance 0))
\t(net 0 "") (net 1 "A") (net 2 "B")
${edgeRect(40, 30, uuid)}${via(4, 1, 0.22, 0.1)}${via(8, 1, 0.3, 0.1)}${via(12, 2, 0.35, 0.1)}${via(16, 2, 0.4, 0.1)}${via(20, 1, 0.3, 0.08)}${via(24, 1, 0.35, 0.2, false)})
`;

/** Each finding as its type, the least it asks and the size it found, in order. */
function sizes(findings: readonly Finding[]): string[] {
  return findings
    .map((f) => `${f.type} ${/min (?:diameter |hole |annular width )?([0-9.]+) mm/.exec(f.description)?.[1]} ${/actual ([0-9.]+) mm/.exec(f.description)?.[1]}`)
    .sort();
}

function engineSizes(text: string): string[] {
  const d = loadDesign({ board: text, boardName: 'b.kicad_pcb', project: PRO, projectName: 'b.kicad_pro', dru: '', druName: 'b.kicad_dru' });
  return sizes(runDrc(d).violations.filter((v) => TYPES.includes(v.type)));
}

const EXPECTED = [
  // Class Default's 0.3 mm, not the board's 0.25 mm micro-via minimum.
  'via_diameter 0.3000 0.2200',
  // Class Wide's 0.4 mm.
  'via_diameter 0.4000 0.3500',
  'microvia_drill_out_of_range 0.0900 0.0800',
].sort();

describe('micro-via sizes, engine alone', () => {
  it('holds a micro-via’s diameter to its class and its drill to the board minimum', () => {
    expect(engineSizes(BOARD)).toEqual(EXPECTED);
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('micro-via sizes agree with kicad-cli %s', (_v, k) => {
  it('finds the same three vias too small, each by the same least size', () => {
    const judged = kicadFindings(k, { board: BOARD, project: PRO, dru: '' }, TYPES);
    expect(sizes(judged.findings)).toEqual(EXPECTED);
    expect(engineSizes(judged.board)).toEqual(EXPECTED);
  });
});

// A micro-via's least drill set by a rule on its type, a through via's larger by another: the
// router drills each by its own rule, where it drilled its micro-vias at the class's 0.1 mm.
const DRU = `
(rule "micro drill" (condition "A.Via_Type == 'Micro'") (constraint hole_size (min 0.15mm)))
(rule "through drill" (condition "A.Via_Type == 'Through'") (constraint hole_size (min 0.35mm)))
`;

describe('the router’s micro-vias under a rule on their type', () => {
  const routed = routeGenerated({ nets: 45, padsPerNet: 4, layers: 4, width: 55, height: 45, seed: 22, microVias: true }, DRU);

  it('drills them as the rule asks, and routes everything clean', () => {
    const { result, after } = routed;
    expect(result.open).toEqual([]);
    expect(result.vias.length).toBeGreaterThan(0);
    for (const v of result.vias) expect([v.type, v.drill]).toEqual(['micro', 150_000]);
    expect(after.errors).toEqual({});
  });

  it.each(kicads().map((k) => [k.version, k] as const))('kicad-cli %s adds no error', async (_v, k) => {
    await expectNoErrorAdded(k, routed.g, routed.dru, routed.design, routed.result);
  });
});
