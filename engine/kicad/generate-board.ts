// Synthetic boards for router tests, benchmarks and the demo: parts with real pad shapes (0603,
// 0805, SOT-23, SOIC-8, DIP-8, 1×4 header) placed at random without overlap on a rectangular
// board, and N nets of 2..K pads each, in the manner of the PCBWorld gridless generator; on asking,
// differential pairs on neighbouring pins and their length rules (a `.kicad_dru`).
// Pure: options in, KiCad 9 `.kicad_pcb` and `.kicad_pro` texts out; the same seed gives the
// same bytes. Units: the options speak mm, the text is KiCad's mm.

import { stableUuid } from './write-board.ts';
import { Prng } from '../geom/prng.ts';

export interface GenerateOptions {
  nets: number;
  padsPerNet: number;
  layers: number;
  /** Board size, mm. */
  width: number;
  height: number;
  seed: number;
  /** Project rules that allow blind/buried vias and micro-vias (Board Setup → Constraints). */
  blindVias?: boolean;
  microVias?: boolean;
  /** Differential pairs `/DPk_P`, `/DPk_N` (k = 1…), each from two neighbouring pins of one part
   *  to two of another, in a `DiffPair` net class; placed before the other nets, numbered first. */
  pairs?: number;
  /** Length rules for the pairs, mm, written as `.kicad_dru` custom rules (`skew` within each
   *  pair; `min`/`max` length of each net). */
  lengthRules?: { skew?: number; min?: number; max?: number };
}

/** The name of net `code` on a board generated with `pairs` pairs. */
function netName(code: number, pairs: number): string {
  if (code > 2 * pairs) return `N${code - 2 * pairs}`;
  return `/DP${Math.ceil(code / 2)}_${code % 2 === 1 ? 'P' : 'N'}`;
}

interface PadTemplate {
  number: string;
  x: number;
  y: number;
  w: number;
  h: number;
  kind: 'smd' | 'thru_hole';
  shape: 'roundrect' | 'rect' | 'circle' | 'oval';
  drill?: number;
}

interface PartTemplate {
  lib: string;
  prefix: string;
  /** Courtyard half extents, mm. */
  cx: number;
  cy: number;
  pads: PadTemplate[];
}

const smd = (number: string, x: number, y: number, w: number, h: number): PadTemplate => ({ number, x, y, w, h, kind: 'smd', shape: 'roundrect' });
const th = (number: string, x: number, y: number, d: number, drill: number, first: boolean): PadTemplate => ({
  number,
  x,
  y,
  w: d,
  h: d,
  kind: 'thru_hole',
  shape: first ? 'rect' : 'circle',
  drill,
});

const PARTS: PartTemplate[] = [
  { lib: 'Resistor_SMD:R_0603_1608Metric', prefix: 'R', cx: 1.5, cy: 0.75, pads: [smd('1', -0.825, 0, 0.8, 0.95), smd('2', 0.825, 0, 0.8, 0.95)] },
  { lib: 'Capacitor_SMD:C_0805_2012Metric', prefix: 'C', cx: 1.7, cy: 1.0, pads: [smd('1', -0.95, 0, 1.0, 1.45), smd('2', 0.95, 0, 1.0, 1.45)] },
  {
    lib: 'Package_TO_SOT_SMD:SOT-23',
    prefix: 'Q',
    cx: 1.9,
    cy: 1.7,
    pads: [smd('1', -1.1, -0.95, 1.06, 0.65), smd('2', -1.1, 0.95, 1.06, 0.65), smd('3', 1.1, 0, 1.06, 0.65)],
  },
  {
    lib: 'Package_SO:SOIC-8_3.9x4.9mm_P1.27mm',
    prefix: 'U',
    cx: 3.7,
    cy: 2.7,
    pads: [0, 1, 2, 3]
      .flatMap((i) => [smd(String(i + 1), -2.475, -1.905 + 1.27 * i, 1.95, 0.6)])
      .concat([0, 1, 2, 3].map((i) => smd(String(8 - i), 2.475, -1.905 + 1.27 * i, 1.95, 0.6))),
  },
  {
    lib: 'Package_DIP:DIP-8_W7.62mm',
    prefix: 'U',
    cx: 5.1,
    cy: 5.1,
    pads: [0, 1, 2, 3]
      .map((i) => th(String(i + 1), -3.81, -3.81 + 2.54 * i, 1.6, 0.8, i === 0))
      .concat([0, 1, 2, 3].map((i) => th(String(8 - i), 3.81, -3.81 + 2.54 * i, 1.6, 0.8, false))),
  },
  {
    lib: 'Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical',
    prefix: 'J',
    cx: 1.3,
    cy: 5.1,
    pads: [0, 1, 2, 3].map((i) => th(String(i + 1), 0, -3.81 + 2.54 * i, 1.7, 1.0, i === 0)),
  },
];

/** mm to text with at most 4 decimals (KiCad writes up to 6). */
/** A footprint property shown on F.Fab, `y` mm from the footprint's origin. */
function fabText(name: string, value: string, y: string, r: string, uuid: string): string {
  return [
    `\t\t(property "${name}" "${value}"`,
    `\t\t\t(at 0 ${y}${r})`,
    '\t\t\t(layer "F.Fab")',
    `\t\t\t(uuid "${uuid}")`,
    '\t\t\t(effects',
    '\t\t\t\t(font',
    '\t\t\t\t\t(size 0.6 0.6)',
    '\t\t\t\t\t(thickness 0.1)',
    '\t\t\t\t)',
    '\t\t\t)',
    '\t\t)',
  ].join('\n');
}

function mm(v: number): string {
  const r = Math.round(v * 1e4) / 1e4;
  return String(Object.is(r, -0) ? 0 : r);
}

interface Placed {
  part: PartTemplate;
  ref: string;
  x: number;
  y: number;
  rot: number;
  /** Net code per pad (0 = none). */
  nets: number[];
}

function rotated(x: number, y: number, rot: number): [number, number] {
  // KiCad's RotatePoint for multiples of 90° (counter-clockwise on screen, y down).
  switch (rot) {
    case 90:
      return [y, -x];
    case 180:
      return [-x, -y];
    case 270:
      return [-y, x];
    default:
      return [x, y];
  }
}

function copperNames(layers: number): string[] {
  const names = ['F.Cu'];
  for (let i = 1; i < layers - 1; i++) names.push(`In${i}.Cu`);
  names.push('B.Cu');
  return names;
}

/** Places parts and nets; throws when the board cannot hold the pads the nets need. */
function layout(o: GenerateOptions, rng: Prng): Placed[] {
  const pairs = o.pairs ?? 0;
  const need = Math.ceil((o.nets * (2 + o.padsPerNet) * 0.5 + 4 * pairs) * 1.4);
  const placed: Placed[] = [];
  const counters = new Map<string, number>();
  let pads = 0;
  let misses = 0;
  const margin = 1.0;
  while (pads < need && misses < 4000) {
    const part = PARTS[rng.int(PARTS.length)];
    const rot = [0, 90, 180, 270][rng.int(4)];
    const hx = rot % 180 === 0 ? part.cx : part.cy;
    const hy = rot % 180 === 0 ? part.cy : part.cx;
    const x = Math.round((margin + hx + rng.next() * (o.width - 2 * (margin + hx))) / 0.05) * 0.05;
    const y = Math.round((margin + hy + rng.next() * (o.height - 2 * (margin + hy))) / 0.05) * 0.05;
    const fits = o.width - 2 * (margin + hx) > 0 && o.height - 2 * (margin + hy) > 0;
    const clash = placed.some((p) => {
      const px = p.rot % 180 === 0 ? p.part.cx : p.part.cy;
      const py = p.rot % 180 === 0 ? p.part.cy : p.part.cx;
      return Math.abs(p.x - x) < px + hx + 0.6 && Math.abs(p.y - y) < py + hy + 0.6;
    });
    if (!fits || clash) {
      misses++;
      continue;
    }
    const n = (counters.get(part.prefix) ?? 0) + 1;
    counters.set(part.prefix, n);
    placed.push({ part, ref: `${part.prefix}${n}`, x, y, rot, nets: part.pads.map(() => 0) });
    pads += part.pads.length;
  }
  const free: [number, number][] = [];
  placed.forEach((p, i) => p.part.pads.forEach((_, j) => free.push([i, j])));
  const pos = (f: [number, number]) => {
    const p = placed[f[0]];
    const [dx, dy] = rotated(p.part.pads[f[1]].x, p.part.pads[f[1]].y, p.rot);
    return [p.x + dx, p.y + dy];
  };
  for (let k = 1; k <= pairs; k++) placePair(placed, free, pos, 2 * k - 1, rng, pads, o);
  for (let net = 2 * pairs + 1; net <= 2 * pairs + o.nets; net++) {
    const k = 2 + rng.int(Math.max(1, o.padsPerNet - 1));
    if (free.length < k)
      throw new RangeError(`generate: the board holds ${pads} pads, too few for ${o.nets} nets of up to ${o.padsPerNet} pads; make it larger`);
    const first = free.splice(rng.int(free.length), 1)[0];
    placed[first[0]].nets[first[1]] = net;
    const [fx, fy] = pos(first);
    for (let m = 1; m < k; m++) {
      // One of the nearest free pads on other parts: nets stay local, as on real boards.
      const cand = free
        .map((f, i) => ({ i, d: f[0] === first[0] ? Infinity : Math.hypot(pos(f)[0] - fx, pos(f)[1] - fy) }))
        .sort((a, b) => a.d - b.d || a.i - b.i)
        .slice(0, 6);
      const pick = cand[rng.int(cand.length)];
      const f = free.splice(pick.i, 1)[0];
      placed[f[0]].nets[f[1]] = net;
    }
  }
  return placed;
}

/** Two free neighbouring pins of one part (same row, one pitch apart), as [part, pad, pad]. */
function neighbours(placed: Placed[], free: [number, number][]): [number, number, number][] {
  const isFree = new Set(free.map(([i, j]) => `${i}|${j}`));
  const out: [number, number, number][] = [];
  placed.forEach((p, i) => {
    if (p.part.pads.length < 3) return;
    const pads = p.part.pads;
    for (let a = 0; a < pads.length; a++)
      for (let b = a + 1; b < pads.length; b++) {
        const dx = Math.abs(pads[a].x - pads[b].x);
        const dy = Math.abs(pads[a].y - pads[b].y);
        // In a row or a column at most 2.54 mm apart, and no pin of the part between them.
        const row = (dx < 1e-6 && dy > 0 && dy <= 2.55) || (dy < 1e-6 && dx > 0 && dx <= 2.55);
        const between = (c: PadTemplate) =>
          dx < 1e-6
            ? Math.abs(c.x - pads[a].x) < 1e-6 && (c.y - pads[a].y) * (c.y - pads[b].y) < 0
            : Math.abs(c.y - pads[a].y) < 1e-6 && (c.x - pads[a].x) * (c.x - pads[b].x) < 0;
        if (row && !pads.some(between) && isFree.has(`${i}|${a}`) && isFree.has(`${i}|${b}`)) out.push([i, a, b]);
      }
  });
  return out;
}

/** Nets `p` (…_P) and `p + 1` (…_N) on two neighbouring pins of one part and two of another
 *  nearby, each net's ends chosen so that the two do not cross. */
function placePair(
  placed: Placed[],
  free: [number, number][],
  pos: (f: [number, number]) => number[],
  p: number,
  rng: Prng,
  pads: number,
  o: GenerateOptions,
): void {
  const all = neighbours(placed, free);
  const tooFew = () =>
    new RangeError(`generate: the board holds ${pads} pads, too few neighbouring free pins for ${o.pairs} differential pairs; make it larger`);
  if (all.length < 2) throw tooFew();
  const a = all[rng.int(all.length)];
  const [ax, ay] = pos([a[0], a[1]]);
  const others = all
    .filter((b) => b[0] !== a[0])
    .map((b) => ({ b, d: Math.hypot(pos([b[0], b[1]])[0] - ax, pos([b[0], b[1]])[1] - ay) }))
    .sort((x, y) => x.d - y.d)
    .slice(0, 4);
  if (others.length === 0) throw tooFew();
  const b = others[rng.int(others.length)].b;
  const d = (i: number, j: number, k: number, l: number) => Math.hypot(pos([i, j])[0] - pos([k, l])[0], pos([i, j])[1] - pos([k, l])[1]);
  const straight = d(a[0], a[1], b[0], b[1]) + d(a[0], a[2], b[0], b[2]) <= d(a[0], a[1], b[0], b[2]) + d(a[0], a[2], b[0], b[1]);
  const ends: [number, number, number][] = [
    [a[0], a[1], p],
    [a[0], a[2], p + 1],
    [b[0], straight ? b[1] : b[2], p],
    [b[0], straight ? b[2] : b[1], p + 1],
  ];
  for (const [i, j, net] of ends) {
    placed[i].nets[j] = net;
    free.splice(
      free.findIndex((f) => f[0] === i && f[1] === j),
      1,
    );
  }
}

/** The `.kicad_dru` text of the pairs' length rules, or undefined when none are asked for. */
function lengthRules(o: GenerateOptions): string | undefined {
  const r = o.lengthRules;
  if (!r || !o.pairs) return undefined;
  const lines = ['(version 1)'];
  if (r.skew !== undefined)
    lines.push(`(rule "pair skew"\n\t(condition "A.inDiffPair('/DP*')")\n\t(constraint skew (max ${mm(r.skew)}mm) (within_diff_pairs)))`);
  if (r.min !== undefined || r.max !== undefined) {
    const bounds = [r.min !== undefined ? `(min ${mm(r.min)}mm)` : '', r.max !== undefined ? `(max ${mm(r.max)}mm)` : ''].filter(Boolean).join(' ');
    lines.push(`(rule "pair length"\n\t(condition "A.inDiffPair('/DP*')")\n\t(constraint length ${bounds}))`);
  }
  return lines.join('\n') + '\n';
}

/** Throws a RangeError naming the first option outside what the generator makes. */
function checkOptions(o: GenerateOptions, pairs: number): void {
  if (!(o.layers >= 2 && o.layers <= 8 && o.layers % 2 === 0)) throw new RangeError(`generate: layers must be 2, 4, 6 or 8, got ${o.layers}`);
  if (!(o.nets >= 1 && o.nets <= 2000)) throw new RangeError(`generate: nets must be 1..2000, got ${o.nets}`);
  if (!(o.padsPerNet >= 2 && o.padsPerNet <= 16)) throw new RangeError(`generate: pads-per-net must be 2..16, got ${o.padsPerNet}`);
  if (!(Number.isInteger(pairs) && pairs >= 0 && pairs <= 200)) throw new RangeError(`generate: pairs must be 0..200, got ${o.pairs}`);
  for (const [k, v] of Object.entries(o.lengthRules ?? {}))
    if (!(typeof v === 'number' && v > 0 && v <= 10_000)) throw new RangeError(`generate: length rule ${k} must be a length in mm above 0, got ${v}`);
  if (o.lengthRules && !pairs) throw new RangeError('generate: length rules are for differential pairs: ask for some with pairs');
  if (!(o.width >= 5 && o.height >= 5 && o.width <= 500 && o.height <= 500))
    throw new RangeError(`generate: size must be 5..500 mm each way, got ${o.width}x${o.height}`);
}

/** The board's opening lines: version, layer table, setup and net table. */
function headerLines(o: GenerateOptions, pairs: number): string[] {
  const cu = copperNames(o.layers);
  const cuIds = cu.map((name, i) => (i === 0 ? 0 : i === cu.length - 1 ? 2 : 2 + 2 * i));
  const out: string[] = [];
  out.push(
    '(kicad_pcb',
    '\t(version 20241229)',
    '\t(generator "tracemaker")',
    '\t(generator_version "9.0")',
    '\t(general',
    '\t\t(thickness 1.6)',
    '\t\t(legacy_teardrops no)',
    '\t)',
    '\t(paper "A4")',
    '\t(layers',
  );
  cu.forEach((name, i) => out.push(`\t\t(${cuIds[i]} "${name}" signal)`));
  for (const [id, name] of [
    [9, 'F.Adhes'],
    [11, 'B.Adhes'],
    [13, 'F.Paste'],
    [15, 'B.Paste'],
    [5, 'F.SilkS'],
    [7, 'B.SilkS'],
    [1, 'F.Mask'],
    [3, 'B.Mask'],
    [17, 'Dwgs.User'],
    [19, 'Cmts.User'],
    [25, 'Edge.Cuts'],
    [27, 'Margin'],
    [31, 'F.CrtYd'],
    [29, 'B.CrtYd'],
    [35, 'F.Fab'],
    [33, 'B.Fab'],
  ] as const)
    out.push(`\t\t(${id} "${name}" user)`);
  out.push('\t)', '\t(setup', '\t\t(pad_to_mask_clearance 0)', '\t\t(allow_soldermask_bridges_in_footprints no)', '\t\t(tenting front back)', '\t)');
  out.push('\t(net 0 "")');
  for (let n = 1; n <= 2 * pairs + o.nets; n++) out.push(`\t(net ${n} "${netName(n, pairs)}")`);
  return out;
}

/** One placed part's footprint: its texts, courtyard and pads, drawing uuids in file order. */
function footprintLines(p: Placed, pairs: number, uuid: () => string): string[] {
  const out: string[] = [];
  const r = p.rot ? ` ${p.rot}` : '';
  out.push(`\t(footprint "${p.part.lib}"`, '\t\t(layer "F.Cu")', `\t\t(uuid "${uuid()}")`, `\t\t(at ${mm(p.x)} ${mm(p.y)}${r})`);
  out.push(fabText('Reference', p.ref, mm(-p.part.cy - 0.8), r, uuid()), fabText('Value', p.part.prefix, mm(p.part.cy + 0.8), r, uuid()));
  const isTh = p.part.pads.some((q) => q.kind === 'thru_hole');
  out.push(`\t\t(attr ${isTh ? 'through_hole' : 'smd'})`);
  out.push(
    '\t\t(fp_rect',
    `\t\t\t(start ${mm(-p.part.cx)} ${mm(-p.part.cy)})`,
    `\t\t\t(end ${mm(p.part.cx)} ${mm(p.part.cy)})`,
    '\t\t\t(stroke',
    '\t\t\t\t(width 0.05)',
    '\t\t\t\t(type solid)',
    '\t\t\t)',
    '\t\t\t(fill no)',
    '\t\t\t(layer "F.CrtYd")',
    `\t\t\t(uuid "${uuid()}")`,
    '\t\t)',
  );
  p.part.pads.forEach((q, j) => {
    const net = p.nets[j];
    const angle = p.rot ? ` ${p.rot}` : '';
    out.push(`\t\t(pad "${q.number}" ${q.kind} ${q.shape}`, `\t\t\t(at ${mm(q.x)} ${mm(q.y)}${angle})`, `\t\t\t(size ${mm(q.w)} ${mm(q.h)})`);
    if (q.kind === 'thru_hole') out.push(`\t\t\t(drill ${mm(q.drill!)})`, '\t\t\t(layers "*.Cu" "*.Mask")', '\t\t\t(remove_unused_layers no)');
    else out.push('\t\t\t(layers "F.Cu" "F.Paste" "F.Mask")');
    if (q.shape === 'roundrect') out.push('\t\t\t(roundrect_rratio 0.25)');
    if (net) out.push(`\t\t\t(net ${net} "${netName(net, pairs)}")`);
    out.push(`\t\t\t(uuid "${uuid()}")`, '\t\t)');
  });
  out.push('\t)');
  return out;
}

/** The `.kicad_pro` settings: the design rules and the net classes (a pair class with pairs). */
function projectSettings(o: GenerateOptions, pairs: number): object {
  return {
    board: {
      design_settings: {
        defaults: {},
        rules: {
          min_clearance: 0.15,
          min_track_width: 0.15,
          min_via_diameter: 0.5,
          min_through_hole_diameter: 0.3,
          min_hole_to_hole: 0.25,
          min_hole_clearance: 0.2,
          min_copper_edge_clearance: 0.3,
          min_via_annular_width: 0.1,
          max_error: 0.005,
          ...(o.blindVias ? { allow_blind_buried_vias: true } : {}),
          ...(o.microVias ? { allow_microvias: true } : {}),
        },
        rule_severities: {
          silk_over_copper: 'ignore',
          silk_overlap: 'ignore',
          silk_edge_clearance: 'ignore',
          lib_footprint_issues: 'ignore',
          lib_footprint_mismatch: 'ignore',
          missing_courtyard: 'ignore',
        },
      },
    },
    meta: { filename: 'board.kicad_pro', version: 3 },
    net_settings: {
      classes: [
        {
          name: 'Default',
          clearance: 0.2,
          track_width: 0.25,
          via_diameter: 0.6,
          via_drill: 0.3,
          microvia_diameter: 0.3,
          microvia_drill: 0.1,
          diff_pair_gap: 0.25,
          diff_pair_width: 0.2,
          priority: 2147483647,
        },
        ...(pairs
          ? [
              {
                name: 'DiffPair',
                clearance: 0.2,
                track_width: 0.2,
                via_diameter: 0.6,
                via_drill: 0.3,
                microvia_diameter: 0.3,
                microvia_drill: 0.1,
                diff_pair_gap: 0.2,
                diff_pair_width: 0.2,
                diff_pair_via_gap: 0.25,
                priority: 0,
              },
            ]
          : []),
      ],
      ...(pairs ? { netclass_patterns: [{ netclass: 'DiffPair', pattern: '/DP*' }] } : {}),
      meta: { version: 4 },
    },
  };
}

/** The `.kicad_pcb` and `.kicad_pro` texts of a synthetic board (and its `.kicad_dru`, with length rules). */
export function generateBoard(o: GenerateOptions): { board: string; project: string; rules?: string } {
  const pairs = o.pairs ?? 0;
  checkOptions(o, pairs);
  // Its own salt keeps the boards this generator has always made for a seed.
  const rng = new Prng(o.seed, 0x2545f491);
  const placed = layout(o, rng);
  // Boards without pairs keep the uuids they always had.
  const key = `gen|${o.nets}|${o.padsPerNet}|${o.layers}|${o.width}|${o.height}|${o.seed}${pairs ? `|pairs ${pairs}` : ''}`;
  let uid = 0;
  const uuid = () => stableUuid(`${key}|${uid++}`);
  const out = headerLines(o, pairs);
  for (const p of placed) out.push(...footprintLines(p, pairs, uuid));
  out.push(
    '\t(gr_rect',
    '\t\t(start 0 0)',
    `\t\t(end ${mm(o.width)} ${mm(o.height)})`,
    '\t\t(stroke',
    '\t\t\t(width 0.05)',
    '\t\t\t(type default)',
    '\t\t)',
    '\t\t(fill no)',
    '\t\t(layer "Edge.Cuts")',
    `\t\t(uuid "${uuid()}")`,
    '\t)',
  );
  out.push('\t(embedded_fonts no)', ')', '');
  const project = projectSettings(o, pairs);
  const rules = lengthRules(o);
  return { board: out.join('\n'), project: JSON.stringify(project, null, 2) + '\n', ...(rules ? { rules } : {}) };
}
