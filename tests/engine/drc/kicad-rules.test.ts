// Pins KiCad 9 DRC rules the agreement suite found, each on a hand-made board: the keep-out
// border (rule area shrunk by the DRC epsilon, contact counts), hole-to-hole counted from both
// the via and the pad pass, one clearance finding per track, the per-type error limit, and a
// track on a disabled layer (kept apart by the reader, reported and dangling).
import { describe, expect, it } from 'vitest';
import { withCopper } from '../../../engine/board/added-copper.ts';
import { checkAdded, runDrc } from '../../../engine/drc/drc.ts';
import { deflateRing } from '../../../engine/drc/keepout.ts';
import { errorLimit } from '../../../engine/drc/violation.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';

const PRO = JSON.stringify({
  board: {
    design_settings: {
      rules: { min_clearance: 0.2, min_hole_to_hole: 0.25, min_track_width: 0.1 },
      rule_severities: { items_not_allowed: 'error', hole_to_hole: 'error', item_on_disabled_layer: 'error', track_dangling: 'error', clearance: 'error' },
    },
  },
  net_settings: { classes: [{ name: 'Default', clearance: 0.2, track_width: 0.25, via_diameter: 0.6, via_drill: 0.3 }] },
});

function board(body: string): string {
  return `(kicad_pcb (version 20241229) (generator "pcbnew")
\t(layers (0 "F.Cu" signal) (2 "B.Cu" signal) (25 "Edge.Cuts" user))
\t(net 0 "") (net 1 "A") (net 2 "B")
${body})\n`;
}

function drc(body: string) {
  return runDrc(loadDesign({ board: board(body), boardName: 't.kicad_pcb', project: PRO, projectName: 't.kicad_pro' }));
}

const KEEPOUT = `\t(zone (net 0) (net_name "") (layers "F.Cu") (uuid "00000000-0000-4000-8000-000000000001") (name "ko") (hatch edge 0.5)
\t\t(connect_pads (clearance 0)) (min_thickness 0.25)
\t\t(keepout (tracks not_allowed) (vias not_allowed) (pads allowed) (copperpour allowed) (footprints allowed))
\t\t(fill (thermal_gap 0.5) (thermal_bridge_width 0.5))
\t\t(polygon (pts (xy 10 10) (xy 20 10) (xy 20 20) (xy 10 20))))
`;

describe('keep-out areas (items_not_allowed)', () => {
  it('deflates a ring inward by the epsilon whatever its orientation', () => {
    const cw = [
      { x: 0, y: 0 },
      { x: 10_000, y: 0 },
      { x: 10_000, y: 10_000 },
      { x: 0, y: 10_000 },
    ];
    const inner = [
      { x: 500, y: 500 },
      { x: 9_500, y: 500 },
      { x: 9_500, y: 9_500 },
      { x: 500, y: 9_500 },
    ];
    expect(deflateRing(cw, 500)).toEqual(inner);
    expect(deflateRing([...cw].reverse(), 500)).toEqual([...inner].reverse());
    expect(deflateRing(cw, 6_000)).toBeNull();
  });

  it('a track whose edge only meets the border is allowed (led_driver y = 90.5)', () => {
    const r = drc(`${KEEPOUT}\t(segment (start 12 9.5) (end 18 9.5) (width 1) (layer "F.Cu") (net 1) (uuid "00000000-0000-4000-8000-000000000002"))\n`);
    expect(r.errors.items_not_allowed).toBeUndefined();
  });

  it('a track reaching 1 µm past the border is reported once', () => {
    const r = drc(`${KEEPOUT}\t(segment (start 12 9.501) (end 18 9.501) (width 1) (layer "F.Cu") (net 1) (uuid "00000000-0000-4000-8000-000000000002"))\n`);
    expect(r.errors.items_not_allowed).toBe(1);
  });

  it('a track on a layer the area does not cover is allowed', () => {
    const r = drc(`${KEEPOUT}\t(segment (start 12 15) (end 18 15) (width 0.25) (layer "B.Cu") (net 1) (uuid "00000000-0000-4000-8000-000000000002"))\n`);
    expect(r.errors.items_not_allowed).toBeUndefined();
  });
});

describe('hole_to_hole', () => {
  const pad = (x: number) => `\t(footprint "t:P" (layer "F.Cu") (at ${x} 50) (property "Reference" "P${x}")
\t\t(pad "1" thru_hole circle (at 0 0) (size 0.6 0.6) (drill 0.4) (layers "*.Cu") (net 1 "A")))\n`;
  const via = (x: number) => `\t(via (at ${x} 50) (size 0.6) (drill 0.4) (layers "F.Cu" "B.Cu") (net 1) (uuid "00000000-0000-4000-8000-0000000001${x}"))\n`;

  it('two vias too close (same net) are one finding', () => {
    expect(drc(via(10) + via(10.6)).errors.hole_to_hole).toBe(1);
  });

  it('a via and a pad too close are two findings: KiCad tests them from both passes', () => {
    expect(drc(via(10) + pad(10.6)).errors.hole_to_hole).toBe(2);
  });

  it('a gap within the epsilon of the rule passes', () => {
    // 0.65 mm apart, holes 0.4 mm: gap 0.25 mm exactly.
    expect(drc(via(10) + via(10.65)).errors.hole_to_hole).toBeUndefined();
  });
});

describe('one clearance finding per track (kicad-cli without --all-track-errors)', () => {
  it('a track too close to two tracks of another net reports once; each of those once more', () => {
    const seg = (y: number, net: number, k: number) =>
      `\t(segment (start 0 ${y}) (end 10 ${y}) (width 0.25) (layer "F.Cu") (net ${net}) (uuid "00000000-0000-4000-8000-00000000020${k}"))\n`;
    // Middle track (net 2) 0.3 mm from its neighbours (net 1): gap 0.05 < 0.2 on each side.
    const r = drc(seg(10, 1, 1) + seg(10.3, 2, 2) + seg(10.6, 1, 3));
    expect(r.errors.clearance).toBe(2);
  });
});

describe('error limits', () => {
  it('KiCad stops each type at 199 findings, clearance at 499', () => {
    expect(errorLimit('clearance')).toBe(499);
    expect(errorLimit('items_not_allowed')).toBe(199);
    let body = KEEPOUT;
    for (let k = 0; k < 250; k++) body += `\t(segment (start 11 ${10.5 + k * 0.03}) (end 19 ${10.5 + k * 0.03}) (width 0.01) (layer "F.Cu") (net 0))\n`;
    expect(drc(body).errors.items_not_allowed).toBe(199);
  });

  it('a run on new copper (the router’s gate) reports every finding: the 500th clearance is not lost', () => {
    // 500 short tracks of net 1, each across a long track of net 2: one clearance each. As new
    // copper, the last of them is the one the gate must see.
    const design = loadDesign({
      board: board(`\t(segment (start 0 10) (end 600 10) (width 0.25) (layer "F.Cu") (net 2))\n`),
      boardName: 't.kicad_pcb',
      project: PRO,
      projectName: 't.kicad_pro',
    });
    const tracks = Array.from({ length: 500 }, (_, k) => ({
      start: { x: k * 1_000_000, y: 10_300_000 },
      end: { x: k * 1_000_000 + 500_000, y: 10_300_000 },
      width: 250_000,
      layer: 0,
      net: 1,
    }));
    const full = runDrc({ ...design, board: withCopper(design.board, tracks, []) });
    expect(full.errors.clearance).toBe(499);
    const gate = checkAdded(design, tracks, []);
    expect(gate.errors.clearance).toBe(500);
    expect(gate.violations.some((v) => v.items.some((it) => it.kind === 'track' && it.index === 500))).toBe(true);
  });
});

describe('item_on_disabled_layer', () => {
  it('a track on In5.Cu of a 2-layer board is reported, and dangles: nothing is on that layer', () => {
    const r = drc(`\t(segment (start 0 0) (end 2 0) (width 0.25) (layer "In5.Cu") (net 1) (uuid "00000000-0000-4000-8000-000000000301"))\n`);
    expect(r.errors.item_on_disabled_layer).toBe(1);
    expect(r.errors.track_dangling).toBe(1);
    expect(r.violations.find((v) => v.type === 'item_on_disabled_layer')!.description).toBe('Item on a disabled copper layer (layer In5.Cu)');
  });
});
