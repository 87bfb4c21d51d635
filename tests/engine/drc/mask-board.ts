// Small synthetic KiCad 9 boards for the solder mask tests: nets A–D, an outline, and whatever
// footprints, tracks, vias, zones and mask graphics a case adds (mm, as KiCad writes them).
// Each case's expected count is what kicad-cli 9.0.8 reported on the same board.
import { loadDesign } from '../../../engine/kicad/load.ts';
import type { Design } from '../../../engine/board/design.ts';

const NETS = ['', 'A', 'B', 'C', 'D'];
let uid = 0;
const u = () => `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`;

export const seg = (x1: number, y1: number, x2: number, y2: number, net: number, layer = 'F.Cu', w = 0.2) =>
  `(segment (start ${x1} ${y1}) (end ${x2} ${y2}) (width ${w}) (layer "${layer}") (net ${net}) (uuid "${u()}"))\n`;
export const via = (x: number, y: number, net: number, extra = '') =>
  `(via (at ${x} ${y}) (size 0.6) (drill 0.3) (layers "F.Cu" "B.Cu") ${extra} (net ${net}) (uuid "${u()}"))\n`;
export const circle = (x: number, y: number, r: number, layer = 'F.Mask', fill = 'yes', w = 0, kind = 'gr') =>
  `(${kind}_circle (center ${x} ${y}) (end ${x + r} ${y}) (stroke (width ${w}) (type solid)) (fill ${fill}) (layer "${layer}") (uuid "${u()}"))\n`;
export const pad = (
  num: string,
  x: number,
  y: number,
  w: number,
  h: number,
  net: number,
  layers = '"F.Cu" "F.Mask"',
  kind = 'smd',
  shape = 'rect',
  extra = '',
) => `(pad "${num}" ${kind} ${shape} (at ${x} ${y}) (size ${w} ${h}) (layers ${layers}) ${net ? `(net ${net} "${NETS[net]}")` : ''} ${extra} (uuid "${u()}"))`;
export const fp = (ref: string, x: number, y: number, pads: string[], attr = 'smd', extra = '') =>
  `(footprint "T:${ref}" (layer "F.Cu") (uuid "${u()}") (at ${x} ${y}) ${extra}\n (property "Reference" "${ref}" (at 0 -3 0) (layer "F.Fab") (uuid "${u()}") (effects (font (size 1 1) (thickness 0.15))))\n (attr ${attr})\n ${pads.join('\n ')}\n)\n`;
export const zone = (net: number, pts: [number, number][]) => {
  const p = pts.map(([x, y]) => `(xy ${x} ${y})`).join(' ');
  return `(zone (net ${net}) (net_name "${NETS[net]}") (layer "F.Cu") (uuid "${u()}") (hatch edge 0.5) (connect_pads (clearance 0.2)) (min_thickness 0.2) (fill yes (thermal_gap 0.5) (thermal_bridge_width 0.5)) (polygon (pts ${p})) (filled_polygon (layer "F.Cu") (pts ${p})))\n`;
};

export interface MaskBoard {
  body: string;
  /** Board setup `pad_to_mask_clearance`, mm. */
  p2m?: number;
  /** Extra setup entries. */
  setup?: string;
  tenting?: string;
  /** `solder_mask_to_copper_clearance` of the project, mm. */
  toCopper?: number;
  /** File format (KiCad 10 writes a later one). */
  version?: number;
}

export function maskBoardText(b: MaskBoard): string {
  const layers = [
    '(0 "F.Cu" signal)',
    '(2 "B.Cu" signal)',
    '(1 "F.Mask" user)',
    '(3 "B.Mask" user)',
    '(5 "F.SilkS" user)',
    '(25 "Edge.Cuts" user)',
    '(35 "F.Fab" user)',
  ];
  return `(kicad_pcb (version ${b.version ?? 20241229}) (generator "pcbnew") (generator_version "9.0")
(general (thickness 1.6) (legacy_teardrops no)) (paper "A4")
(layers ${layers.join(' ')})
(setup (pad_to_mask_clearance ${b.p2m ?? 0}) ${b.setup ?? '(allow_soldermask_bridges_in_footprints no)'} ${b.tenting ?? '(tenting front back)'})
${NETS.map((n, i) => `(net ${i} "${n}")`).join('\n')}
(gr_rect (start 0 0) (end 60 60) (stroke (width 0.05) (type solid)) (fill no) (layer "Edge.Cuts") (uuid "${u()}"))
${b.body})
`;
}

export function maskProject(toCopper = 0, bridge = 'error'): string {
  return JSON.stringify({
    board: { design_settings: { rules: { solder_mask_to_copper_clearance: toCopper }, rule_severities: { solder_mask_bridge: bridge } } },
  });
}

/** The board with its project; `bridge` is the project's solder_mask_bridge severity (default error). */
export function maskDesign(b: MaskBoard, bridge = 'error'): Design {
  return loadDesign({ board: maskBoardText(b), boardName: 'mask.kicad_pcb', project: maskProject(b.toCopper, bridge), projectName: 'mask.kicad_pro' });
}
