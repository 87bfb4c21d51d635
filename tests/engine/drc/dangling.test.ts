// Pins KiCad 9's dangling-end rule (CONNECTIVITY_DATA::TestTrackEndpointDangling) on hand-made
// boards: an item both ends touch serves the end nearer its own position — for a track, the
// nearer of its two ends —, a track with both ends in one zone fill is never dangling, and a
// pad without a net still holds a track's end.
// Found on the reference boards (kitspace_glasgow, kitspace_d20_tri_r0.3, opendous_Upconverter …)
// and on Blink-Eras's dangling-stub fault.
import { describe, expect, it } from 'vitest';
import { runDrc } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';

const PRO = JSON.stringify({
  board: { design_settings: { rules: { min_clearance: 0.2 }, rule_severities: { track_dangling: 'error', via_dangling: 'ignore' } } },
  net_settings: { classes: [{ name: 'Default', clearance: 0.2, track_width: 0.25, via_diameter: 0.6, via_drill: 0.3 }] },
});

let uuid = 0;
const id = () => `00000000-0000-4000-8000-${String(++uuid).padStart(12, '0')}`;
const seg = (x0: number, y0: number, x1: number, y1: number) =>
  `\t(segment (start ${x0} ${y0}) (end ${x1} ${y1}) (width 0.25) (layer "F.Cu") (net 1) (uuid "${id()}"))\n`;

function dangling(body: string): number[] {
  const text = `(kicad_pcb (version 20241229) (generator "pcbnew")
\t(layers (0 "F.Cu" signal) (2 "B.Cu" signal) (25 "Edge.Cuts" user))
\t(net 0 "") (net 1 "A")
${body})\n`;
  const r = runDrc(loadDesign({ board: text, boardName: 't.kicad_pcb', project: PRO, projectName: 't.kicad_pro' }));
  return r.violations.filter((v) => v.type === 'track_dangling').map((v) => v.items[0].index);
}

describe('track_dangling end points', () => {
  it('a stub laid back along a longer track from that track\u2019s end dangles (Blink-Eras dangling-stub)', () => {
    // Track 0 ends on a via; stub 1 starts there and runs 3 mm back over track 0's middle. Track 0
    // serves the stub's start (its own end is 0 away there, 3 mm from the stub's far end), so the
    // stub's far end touches nothing of its own.
    const via = `\t(via (at 10 20) (size 0.6) (drill 0.3) (layers "F.Cu" "B.Cu") (net 1) (uuid "${id()}"))\n`;
    expect(dangling(seg(10, 10, 10, 20) + seg(10, 20, 10, 17) + via)).toContain(1);
  });

  it('a track between two tracks\u2019 ends is connected at both', () => {
    expect(dangling(seg(0, 0, 5, 0) + seg(5, 0, 10, 0) + seg(10, 0, 15, 0))).toEqual([0, 2]);
  });

  it('a track ending on a pad without a net is connected there (KiCad joins tracks to any copper)', () => {
    const fp = `\t(footprint "t" (layer "F.Cu") (uuid "${id()}") (at 10 10)
\t\t(pad "1" smd rect (at 0 0) (size 1 1) (layers "F.Cu") (uuid "${id()}")))
`;
    expect(dangling(fp + seg(10, 10, 15, 10) + seg(15, 10, 20, 10))).toEqual([1]);
  });

  it('a track with both ends inside one zone fill is not dangling', () => {
    const zone = `\t(zone (net 1) (net_name "A") (layer "F.Cu") (uuid "${id()}") (hatch edge 0.5)
\t\t(connect_pads (clearance 0.2)) (min_thickness 0.25) (filled_areas_thickness no)
\t\t(fill yes (thermal_gap 0.5) (thermal_bridge_width 0.5))
\t\t(polygon (pts (xy 0 0) (xy 20 0) (xy 20 20) (xy 0 20)))
\t\t(filled_polygon (layer "F.Cu") (pts (xy 0 0) (xy 20 0) (xy 20 20) (xy 0 20))))
`;
    expect(dangling(zone + seg(5, 5, 5, 15))).toEqual([]);
    expect(dangling(zone + seg(5, 5, 5, 25))).toEqual([0]);
  });
});
