// Pins that the DRC sees pad copper as KiCad builds it (engine/geom/pad-shape.ts, the one code
// path for pad shapes): a chamfered pad keeps its rounded uncut corners, so copper may come
// nearer there than a sharp corner would allow.
import { describe, expect, it } from 'vitest';
import { runDrc } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';

const PRO = JSON.stringify({
  board: { design_settings: { rules: { min_clearance: 0.2 }, rule_severities: { clearance: 'error', via_dangling: 'ignore' } } },
  net_settings: { classes: [{ name: 'Default', clearance: 0.2, track_width: 0.25, via_diameter: 0.6, via_drill: 0.3 }] },
});

function clearances(viaAt: number): number {
  const text = `(kicad_pcb (version 20241229) (generator "pcbnew")
\t(layers (0 "F.Cu" signal) (2 "B.Cu" signal) (25 "Edge.Cuts" user))
\t(net 0 "") (net 1 "A") (net 2 "B")
\t(footprint "t" (layer "F.Cu") (uuid "00000000-0000-4000-8000-000000000001") (at 10 10)
\t\t(pad "1" smd chamfered_rect (at 0 0) (size 2 2) (layers "F.Cu") (roundrect_rratio 0.25) (chamfer_ratio 0.2) (chamfer top_left) (net 1 "A") (uuid "00000000-0000-4000-8000-000000000002")))
\t(via (at ${viaAt} ${viaAt}) (size 0.6) (drill 0.3) (layers "F.Cu" "B.Cu") (net 2) (uuid "00000000-0000-4000-8000-000000000003"))
)\n`;
  const r = runDrc(loadDesign({ board: text, boardName: 't.kicad_pcb', project: PRO, projectName: 't.kicad_pro' }));
  return r.violations.filter((v) => v.type === 'clearance').length;
}

describe('pad copper', () => {
  it('a chamfered pad\u2019s uncut corner is rounded by roundrect_rratio', () => {
    // Corner disc centre (10.5, 10.5), r 0.5 mm: a 0.6 mm via at (11.35, 11.35) clears it by
    // 0.40 mm, though it would be 0.195 mm from a sharp corner at (11, 11).
    expect(clearances(11.35)).toBe(0);
    // At (11.2, 11.2): 0.7 × √2 − 0.5 − 0.3 ≈ 0.19 mm, under the 0.2 mm rule.
    expect(clearances(11.2)).toBe(1);
  });
});
