// Pins KiCad rules found on crafted boards judged by kicad-cli 9.0.8 and 10.0.7 alike: a
// non-plated hole is a hole (hole_clearance, reported even with no hole clearance when copper
// lies over it) and a non-plated slot is board edge as well; a no-net pad with copper shorts; a
// pad or footprint clearance override wins over a zone's own clearance; a net-less copper
// graphic takes the net of the track that touches it.
import { describe, expect, it } from 'vitest';
import { runDrc } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';

function pro(rules: Record<string, number>): string {
  return JSON.stringify({
    board: {
      design_settings: {
        rules: { min_clearance: 0.2, min_track_width: 0.1, ...rules },
        rule_severities: { hole_clearance: 'error', copper_edge_clearance: 'error', clearance: 'error', shorting_items: 'error' },
      },
    },
    net_settings: { classes: [{ name: 'Default', clearance: 0.2, track_width: 0.25, via_diameter: 0.6, via_drill: 0.3 }] },
  });
}

let uuid = 0;
const id = () => `00000000-0000-4000-8000-${String(++uuid).padStart(12, '0')}`;

function drc(body: string, rules: Record<string, number> = {}) {
  const text = `(kicad_pcb (version 20241229) (generator "pcbnew")
\t(layers (0 "F.Cu" signal) (2 "B.Cu" signal) (25 "Edge.Cuts" user))
\t(net 0 "") (net 1 "A") (net 2 "B")
\t(gr_rect (start 0 0) (end 60 60) (stroke (width 0.1) (type solid)) (fill no) (layer "Edge.Cuts") (uuid "${id()}"))
${body})\n`;
  return runDrc(loadDesign({ board: text, boardName: 't.kicad_pcb', project: pro(rules), projectName: 't.kicad_pro' }));
}

function hole(shape: string): string {
  return `\t(footprint "MH" (layer "F.Cu") (uuid "${id()}") (at 30 30)
\t\t(property "Reference" "H1" (at 0 -4) (layer "F.SilkS") (uuid "${id()}") (effects (font (size 1 1) (thickness 0.15))))
\t\t${shape})\n`;
}

const ROUND = `(pad "" np_thru_hole circle (at 0 0) (size 3 3) (drill 3) (layers "*.Cu" "*.Mask") (uuid "${id()}"))`;
const SLOT = `(pad "" np_thru_hole oval (at 0 0) (size 3 5) (drill oval 3 5) (layers "*.Cu" "*.Mask") (uuid "${id()}"))`;
const RING = `(pad "" np_thru_hole circle (at 0 0) (size 4 4) (drill 3) (layers "*.Cu" "*.Mask") (uuid "${id()}"))`;

function track(x1: number, y1: number, x2: number, y2: number, net = 1, layer = 'F.Cu', width = 0.25): string {
  return `\t(segment (start ${x1} ${y1}) (end ${x2} ${y2}) (width ${width}) (layer "${layer}") (net ${net}) (uuid "${id()}"))\n`;
}

describe('non-plated holes', () => {
  it('copper over a round hole is a hole_clearance error even with no hole clearance; beside it, none', () => {
    expect(drc(hole(ROUND) + track(26, 30, 34, 30), { min_hole_clearance: 0 }).errors).toEqual({ hole_clearance: 1 });
    // 0.1 mm from the hole's edge.
    expect(drc(hole(ROUND) + track(26, 31.725, 34, 31.725), { min_hole_clearance: 0 }).errors).toEqual({});
    expect(drc(hole(ROUND) + track(26, 31.725, 34, 31.725), { min_hole_clearance: 0.25 }).errors).toEqual({ hole_clearance: 1 });
  });

  it('a slot is board edge as well: copper within edge clearance of it is reported, of a round hole not', () => {
    // 0.3 mm from the hole's edge: clear of the 0.25 mm hole clearance, inside the 0.5 mm edge clearance.
    const beside = track(31.925, 29, 31.925, 31, 1, 'B.Cu');
    expect(drc(hole(SLOT) + beside, { min_hole_clearance: 0.25, min_copper_edge_clearance: 0.5 }).errors).toEqual({ copper_edge_clearance: 1 });
    expect(drc(hole(ROUND) + beside, { min_hole_clearance: 0.25, min_copper_edge_clearance: 0.5 }).errors).toEqual({});
    expect(drc(hole(SLOT) + track(26, 30, 34, 30), { min_hole_clearance: 0.25, min_copper_edge_clearance: 0.5 }).errors).toEqual({
      hole_clearance: 1,
      copper_edge_clearance: 1,
    });
  });

  it('a non-plated pad with a copper ring and no net shorts a track across it', () => {
    expect(drc(hole(RING) + track(26, 30, 34, 30)).errors).toMatchObject({ shorting_items: 1 });
  });
});

describe('clearance overrides against a zone', () => {
  // A B-net fill 0.5 mm from an A-net pad; the zone asks 1 mm.
  const fill = `\t(zone (net 2) (net_name "B") (layer "F.Cu") (uuid "${id()}") (hatch edge 0.5)
\t\t(connect_pads (clearance 1)) (min_thickness 0.25) (fill yes (thermal_gap 0.5) (thermal_bridge_width 0.5))
\t\t(polygon (pts (xy 10 10) (xy 20 10) (xy 20 20) (xy 10 20)))
\t\t(filled_polygon (layer "F.Cu") (pts (xy 10 10) (xy 20 10) (xy 20 20) (xy 10 20))))\n`;
  const pad = (override: string) => `\t(footprint "R" (layer "F.Cu") (uuid "${id()}") (at 21 15)${override}
\t\t(property "Reference" "R1" (at 0 -2) (layer "F.SilkS") (uuid "${id()}") (effects (font (size 1 1) (thickness 0.15))))
\t\t(pad "1" smd rect (at 0 0) (size 1 1) (layers "F.Cu" "F.Mask") (net 1 "A") (uuid "${id()}")))\n`;

  it('without an override the zone\u2019s clearance is raised above the rules', () => {
    expect(drc(fill + pad('')).errors).toEqual({ clearance: 1 });
  });

  it('a footprint clearance override wins outright, even below the zone\u2019s', () => {
    expect(drc(fill + pad('\n\t\t(clearance 0.2)')).errors).toEqual({});
  });
});

describe('net-less copper graphics', () => {
  const line = `\t(gr_line (start 29 20) (end 31 20) (stroke (width 0.3) (type solid)) (layer "F.Cu") (uuid "${id()}"))\n`;
  it('take the net of a track that ends on them: no clearance finding', () => {
    expect(drc(line + track(30, 18, 30, 20)).errors).toEqual({});
  });
  it('a track that stops short of one is a clearance finding', () => {
    expect(drc(line + track(30, 18, 30, 19.7)).errors).toEqual({ clearance: 1 });
  });
});
