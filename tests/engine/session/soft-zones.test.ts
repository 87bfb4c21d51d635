// With soft zones the session's verify leaves findings against another net's zone fill to
// KiCad's refill, as the router's final gate does; without, the fill as written is a wall.
import { describe, expect, it } from 'vitest';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { sessionDrc } from '../../../engine/session/drc-summary.ts';

const BOARD = `(kicad_pcb (version 20241229) (generator "pcbnew")
  (layers (0 "F.Cu" signal) (2 "B.Cu" signal) (25 "Edge.Cuts" user))
  (net 0 "") (net 1 "GND") (net 2 "SIG")
  (gr_rect (start 0 0) (end 20 20) (stroke (width 0.1) (type solid)) (fill no) (layer "Edge.Cuts"))
  (zone (net 1) (net_name "GND") (layer "F.Cu") (hatch edge 0.5) (connect_pads (clearance 0.3)) (min_thickness 0.25)
    (fill yes (thermal_gap 0.5) (thermal_bridge_width 0.5))
    (polygon (pts (xy 1 1) (xy 19 1) (xy 19 19) (xy 1 19)))
    (filled_polygon (layer "F.Cu") (pts (xy 1 1) (xy 19 1) (xy 19 19) (xy 1 19)))))
`;

describe('session verify and zone fills', () => {
  const design = loadDesign({ board: BOARD, boardName: 'soft.kicad_pcb' });
  const copper = { tracks: [{ start: { x: 5_000_000, y: 10_000_000 }, end: { x: 15_000_000, y: 10_000_000 }, width: 250_000, layer: 0, net: 2 }], vias: [] };

  it("counts a track through another net's fill when zones are hard", () => {
    const hard = sessionDrc(design, copper, false, false);
    expect([...hard.errors.keys()].length).toBeGreaterThan(0);
  });

  it('leaves it to the refill when zones are soft', () => {
    const soft = sessionDrc(design, copper, false, true);
    expect([...soft.errors.keys()]).toEqual([]);
  });
});
