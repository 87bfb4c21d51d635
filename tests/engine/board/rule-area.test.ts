// Custom rules with area conditions (`A.intersectsArea('name')`, `A.enclosedByArea('name')`):
// a pair inside a named rule area gets the rule's clearance and a pair outside does not; asked
// without geometry (the router, per net and layer), such a rule may only raise what applies.
import { describe, expect, it } from 'vitest';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { runDrc } from '../../../engine/drc/drc.ts';
import { parseCondition } from '../../../engine/kicad/read-dru.ts';
import { segment } from '../../../engine/geom/shapes.ts';
import { smallBoardHead } from '../../support/small-board.ts';

// Two parallel tracks 0.15 mm apart (edge to edge) inside the area (y 2 and 2.35) and two outside
// it (y 20 and 20.35); the area covers x 0..10, y 0..10 on both layers.
const track = (x1: number, y: number, x2: number, net: number, n: number) =>
  `\t(segment (start ${x1} ${y}) (end ${x2} ${y}) (width 0.2) (layer "F.Cu") (net ${net}) (uuid "00000000-0000-0000-0000-00000000000${n}"))\n`;
const BOARD = `${smallBoardHead(['A', 'B'])}${track(2, 2, 8, 1, 1)}${track(2, 2.35, 8, 2, 2)}${track(2, 20, 8, 1, 3)}${track(2, 20.35, 8, 2, 4)}\t(zone (net 0) (net_name "") (layers "F.Cu" "B.Cu") (uuid "00000000-0000-0000-0000-0000000000aa") (name "underFPGA")
\t\t(hatch edge 0.5) (connect_pads (clearance 0)) (min_thickness 0.25) (filled_areas_thickness no)
\t\t(keepout (tracks allowed) (vias allowed) (pads allowed) (copperpour allowed) (footprints allowed))
\t\t(fill (thermal_gap 0.5) (thermal_bridge_width 0.5))
\t\t(polygon (pts (xy 0 0) (xy 10 0) (xy 10 10) (xy 0 10)))
\t)
)
`;

const PRO = JSON.stringify({
  board: { design_settings: { rules: { min_clearance: 0.125 } } },
  net_settings: { classes: [{ name: 'Default', clearance: 0.2, track_width: 0.2, via_diameter: 0.6, via_drill: 0.3, priority: 2147483647 }] },
});

function design(condition: string, clearance = '0.1mm') {
  return loadDesign({
    board: BOARD,
    project: PRO,
    projectName: 'b.kicad_pro',
    dru: `(version 1)\n(rule "under" (constraint clearance (min ${clearance})) (condition "${condition}"))`,
    druName: 'b.kicad_dru',
  });
}

const mm = (v: number) => Math.round(v * 1e6);
const inside = { net: 1, layer: 0, shape: segment(mm(2), mm(2), mm(8), mm(2), mm(0.2)) };
const insideB = { net: 2, layer: 0, shape: segment(mm(2), mm(2.35), mm(8), mm(2.35), mm(0.2)) };
const outside = { net: 1, layer: 0, shape: segment(mm(2), mm(20), mm(8), mm(20), mm(0.2)) };
const outsideB = { net: 2, layer: 0, shape: segment(mm(2), mm(20.35), mm(8), mm(20.35), mm(0.2)) };
// Crosses the area's border at x = 10.
const across = { net: 1, layer: 0, shape: segment(mm(8), mm(5), mm(14), mm(5), mm(0.2)) };
// Ends 0.2 nm short of the border: within the DRC epsilon, so it does not intersect.
const touching = { net: 1, layer: 0, shape: segment(mm(10.1) + 200, mm(5), mm(14), mm(5), mm(0.2)) };

describe('area conditions', () => {
  it('are read', () => {
    expect(parseCondition("A.intersectsArea('underFPGA') || B.enclosedByArea('u*')")).toEqual({
      cond: { kind: 'or', a: { kind: 'area', item: 'A', test: 'intersects', name: 'underFPGA' }, b: { kind: 'area', item: 'B', test: 'enclosed', name: 'u*' } },
    });
    expect('error' in parseCondition("A.intersectsArea('B')")).toBe(true);
  });

  it('intersectsArea: the rule applies to a pair in the area, not to one outside', () => {
    const d = design("A.intersectsArea('underFPGA')");
    expect(d.warnings).toEqual([]);
    // A custom rule decides outright, below the board minimum (0.125 mm) too.
    expect(d.rules.clearance(inside, insideB)).toBe(mm(0.1));
    expect(d.rules.clearance(outside, outsideB)).toBe(mm(0.2));
    // One item of the pair in the area is enough: KiCad asks (A, B) and (B, A).
    expect(d.rules.clearance(outside, insideB)).toBe(mm(0.1));
    expect(d.rules.clearance(across, outsideB)).toBe(mm(0.1));
    expect(d.rules.clearance(touching, outsideB)).toBe(mm(0.2));
    // On the area's other layer too.
    expect(d.rules.clearance({ ...inside, layer: 1, layers: 1 << 1 }, { ...insideB, layer: 1, layers: 1 << 1 })).toBe(mm(0.1));
    const v = runDrc(d).violations.filter((x) => x.type === 'clearance');
    expect(v.map((x) => x.pos.y)).toEqual([mm(20.175)]);
  });

  it('enclosedByArea: only items wholly inside', () => {
    const d = design("A.enclosedByArea('under*')");
    expect(d.rules.clearance(inside, outsideB)).toBe(mm(0.1));
    expect(d.rules.clearance(across, outsideB)).toBe(mm(0.2));
    expect(d.rules.clearance(outside, outsideB)).toBe(mm(0.2));
  });

  it('without geometry a rule may raise a minimum but not lower it', () => {
    const lower = design("A.intersectsArea('underFPGA')");
    expect(lower.rules.clearance({ net: 1, layer: 0 }, { net: 2, layer: 0 })).toBe(mm(0.2));
    const raise = design("A.intersectsArea('underFPGA')", '0.3mm');
    expect(raise.rules.clearance({ net: 1, layer: 0 }, { net: 2, layer: 0 })).toBe(mm(0.3));
    // With geometry, the raising rule holds only in the area.
    expect(raise.rules.clearance(outside, outsideB)).toBe(mm(0.2));
    expect(raise.rules.clearance(inside, insideB)).toBe(mm(0.3));
    // A condition the net alone decides is not weakened: && with a false net test is false.
    const other = design("A.intersectsArea('underFPGA') && A.NetName == 'nothing'", '0.3mm');
    expect(other.rules.clearance({ net: 1, layer: 0 }, { net: 2, layer: 0 })).toBe(mm(0.2));
  });
});
