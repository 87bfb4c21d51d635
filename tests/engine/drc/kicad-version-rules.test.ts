// Where KiCad 10 judges a board differently from KiCad 9, the engine follows the KiCad that wrote
// the file (engine/board/kicad-version.ts). Small boards, written in each version's own format, are
// judged by that version's kicad-cli and read by its pcbnew, and by the engine: the DRC counts
// agree, and so does the net KiCad gives a via that touches nothing but zone fills.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../../../engine/drc/connectivity.ts';
import { CopperItems } from '../../../engine/drc/copper-items.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { compare, engineDrc } from '../../support/drc-agreement.ts';
import { kicadDrc } from '../../support/kicad-drc.ts';
import { kicads, type Kicad } from '../../support/kicad.ts';

const COPPER = join(import.meta.dirname, '..', '..', 'oracle', 'pcbnew_copper.py');
const dir = mkdtempSync(join(tmpdir(), 'tm-rules-'));

interface Zone {
  net: string;
  layer: 'F.Cu' | 'B.Cu';
}

interface Spec {
  zones?: Zone[];
  /** Through-hole pads of one footprint: [x, y, net] in mm. */
  pads?: [number, number, string][];
  /** Segments: [x1, y1, x2, y2, layer, net]; a layer the board does not enable stays as written. */
  tracks?: [number, number, number, number, string, string][];
  /** Vias: [x, y, net], F.Cu to B.Cu. */
  vias?: [number, number, string][];
}

let uid = 0;
const uuid = () => `7d1e6c2a-0000-4000-8000-${String(++uid).padStart(12, '0')}`;

/**
 * A 40 × 40 mm two-layer board in `major`'s own format: KiCad 9's net table and codes, or KiCad
 * 10's nets by name. Zones cover the board and carry their fill (kicad-cli does not refill).
 */
function boardText(major: number, s: Spec): string {
  const names = [
    ...new Set([
      ...(s.zones ?? []).map((z) => z.net),
      ...(s.pads ?? []).map((p) => p[2]),
      ...(s.tracks ?? []).map((t) => t[5]),
      ...(s.vias ?? []).map((v) => v[2]),
    ]),
  ];
  const code = (n: string) => names.indexOf(n) + 1;
  const net = (n: string, pad = false) => (major >= 10 ? `(net "${n}")` : pad ? `(net ${code(n)} "${n}")` : `(net ${code(n)})`);
  const out = [
    '(kicad_pcb',
    `\t(version ${major >= 10 ? 20260206 : 20241229})`,
    '\t(generator "pcbnew")',
    `\t(generator_version "${major}.0")`,
    '\t(general (thickness 1.6))',
    '\t(layers (0 "F.Cu" signal) (2 "B.Cu" signal) (5 "F.SilkS" user) (25 "Edge.Cuts" user))',
  ];
  if (major < 10) out.push('\t(net 0 "")', ...names.map((n) => `\t(net ${code(n)} "${n}")`));
  if (s.pads?.length) {
    out.push(
      `\t(footprint "t:TH" (layer "F.Cu") (uuid "${uuid()}") (at 0 0)`,
      `\t\t(property "Reference" "J1" (at 10 8 0) (layer "F.SilkS") (uuid "${uuid()}") (effects (font (size 1 1) (thickness 0.15))))`,
    );
    s.pads.forEach(([x, y, n], i) =>
      out.push(`\t\t(pad "${i + 1}" thru_hole circle (at ${x} ${y}) (size 1.7 1.7) (drill 1) (layers "*.Cu" "*.Mask") ${net(n, true)} (uuid "${uuid()}"))`),
    );
    out.push('\t)');
  }
  out.push(`\t(gr_rect (start 0 0) (end 40 40) (stroke (width 0.1) (type solid)) (fill no) (layer "Edge.Cuts") (uuid "${uuid()}"))`);
  for (const z of s.zones ?? []) {
    const pts = '(xy 5 5) (xy 35 5) (xy 35 35) (xy 5 35)';
    const zn = major >= 10 ? net(z.net) : `${net(z.net)} (net_name "${z.net}")`;
    out.push(
      `\t(zone ${zn} (layer "${z.layer}") (uuid "${uuid()}") (hatch edge 0.5) (connect_pads (clearance 0.5)) (min_thickness 0.25) (fill yes (thermal_gap 0.5) (thermal_bridge_width 0.5))`,
    );
    out.push(`\t\t(polygon (pts ${pts})) (filled_polygon (layer "${z.layer}") (pts ${pts}))`, '\t)');
  }
  for (const [x1, y1, x2, y2, layer, n] of s.tracks ?? [])
    out.push(`\t(segment (start ${x1} ${y1}) (end ${x2} ${y2}) (width 0.25) (layer "${layer}") ${net(n)} (uuid "${uuid()}"))`);
  for (const [x, y, n] of s.vias ?? []) out.push(`\t(via (at ${x} ${y}) (size 0.6) (drill 0.3) (layers "F.Cu" "B.Cu") ${net(n)} (uuid "${uuid()}"))`);
  out.push(')', '');
  return out.join('\n');
}

interface Case {
  name: string;
  spec: Spec;
  /** The net KiCad gives the board's last via, per major version; absent when the case has none. */
  viaNet?: Record<number, string>;
  /** KiCad's unconnected count, per major version, where the versions differ. */
  unconnected?: Record<number, number>;
}

const CASES: Case[] = [
  // KiCad 10 puts a via that joins only fills on a fill's net: the first zone in the file's order
  // where they differ (pcbnew 10 on these boards); KiCad 9 leaves its net alone.
  {
    name: 'a via alone in two fills takes the first zone\u2019s net in KiCad 10',
    spec: {
      zones: [
        { net: 'X', layer: 'F.Cu' },
        { net: 'Y', layer: 'B.Cu' },
      ],
      vias: [[20, 20, 'A']],
    },
    viaNet: { 9: 'A', 10: 'X' },
  },
  {
    name: 'the same with the zones in the other order',
    spec: {
      zones: [
        { net: 'Y', layer: 'B.Cu' },
        { net: 'X', layer: 'F.Cu' },
      ],
      vias: [[20, 20, 'A']],
    },
    viaNet: { 9: 'A', 10: 'Y' },
  },
  {
    name: 'a via ending a track of its own net keeps it',
    spec: { zones: [{ net: 'X', layer: 'B.Cu' }], tracks: [[20, 20, 22, 20, 'F.Cu', 'A']], vias: [[20, 20, 'A']] },
    viaNet: { 9: 'A', 10: 'A' },
  },
  // KiCad 9 gives a through-hole pad copper on disabled layers too, so a track on In5.Cu from it
  // is joined to it; KiCad 10 does not, and the track is a ratsnest node of its own.
  {
    name: 'a track on a disabled layer from a through-hole pad',
    spec: {
      pads: [
        [10, 10, 'A'],
        [20, 10, 'A'],
      ],
      tracks: [
        [10, 10, 20, 10, 'F.Cu', 'A'],
        [10, 10, 10, 12, 'In5.Cu', 'A'],
      ],
    },
    unconnected: { 9: 0, 10: 1 },
  },
];

describe.each(kicads().map((k) => [k.version, k] as const))('KiCad %s rules on small boards', (_version, k: Kicad) => {
  const sub = join(dir, `kicad${k.major}`);
  mkdirSync(sub, { recursive: true });
  const files = CASES.map((c, i) => {
    const board = join(sub, `case${i}.kicad_pcb`);
    const pro = join(sub, `case${i}.kicad_pro`);
    writeFileSync(board, boardText(k.major, c.spec));
    writeFileSync(pro, '{}\n');
    return { board, pro };
  });

  it.each(CASES.map((c, i) => [c.name, c, files[i]] as const))(
    '%s',
    async (_name, c, f) => {
      const design = loadDesign({ board: readFileSync(f.board, 'utf8'), boardName: f.board, project: '{}', projectName: f.pro });
      expect(design.board.dialect).toBe(k.major >= 10 ? 'net-names' : 'net-codes');
      const kicad = await kicadDrc(k, f);
      expect(compare(c.name, kicad, engineDrc(f))).toEqual([]);
      if (c.unconnected) expect(kicad.unconnected).toBe(c.unconnected[k.major]);
      if (!c.viaNet) return;
      const read = JSON.parse(
        execFileSync(k.python, [COPPER, f.board], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
          .trim()
          .split('\n')
          .pop()!,
      ) as { items: { kind: string; net: string }[] };
      const via = read.items.filter((it) => it.kind === 'via').at(-1)!;
      expect(via.net).toBe(c.viaNet[k.major]);
      const copper = new CopperItems(design.board, 0);
      const { nets } = connect(copper);
      expect(design.board.nets[nets[copper.viaItem.at(-1)!]].name).toBe(c.viaNet[k.major]);
    },
    120_000,
  );
});
