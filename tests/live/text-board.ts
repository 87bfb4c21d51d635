// A board with copper text of every kind for the live text tests: the bench board
// kicad-demo_sonde-xilinx (in the KiCad under test's own format) with the copper texts of the other
// bench boards that have any copied in, and texts that try each justification, rotation and mirroring,
// wide and tall glyphs, two lines, and footprint texts on copper (one kept upright at 180°).
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { head, parseSexpr, child, atomAt } from '../../engine/kicad/sexpr.ts';
import type { Kicad } from '../support/kicad.ts';
import { benchBoard } from './kicad-harness.ts';

/** Bench boards whose copper texts are copied in (sonde-xilinx itself is the base). */
export const TEXT_BENCH_BOARDS: [string, string][] = [
  ['C', 'kicad-demo_carte_test'],
  ['C', 'kicad-demo_flat_hierarchy'],
  ['C', 'kicad-demo_video'],
];

const COPPER = /^(F|B|In\d+)\.Cu$/;

function uuid(n: number): string {
  return `7d1e6c2a-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

function grText(n: number, value: string, x: number, y: number, angle: number, layer: string, justify: string, size = 1.5, thick = 0.3): string {
  const j = justify ? ` (justify ${justify})` : '';
  return `\t(gr_text "${value}" (at ${x} ${y} ${angle}) (layer "${layer}") (uuid "${uuid(n)}")\n\t\t(effects (font (size ${size} ${size}) (thickness ${thick}))${j})\n\t)\n`;
}

/** The calibration texts: around (60, 40) mm and below the board, off the base board's copper. */
function calibrationTexts(): string {
  const out: string[] = [];
  let n = 0x7e00;
  const justifies = ['', 'left', 'right', 'top', 'bottom', 'left top', 'right bottom', 'mirror', 'left mirror', 'right mirror', 'left bottom mirror'];
  let y = 30;
  for (const j of justifies) {
    for (const [k, angle] of [0, 90, 30, 180, 270].entries()) {
      const layer = j.includes('mirror') ? 'B.Cu' : 'F.Cu';
      out.push(grText(n++, 'Ag_Wy', 40 + 14 * k, y, angle, layer, j));
    }
    y += 12;
  }
  // Every printable ASCII character, four times over, for the widest advance of each.
  for (let c = 33; c < 127; c++) {
    const ch = String.fromCharCode(c);
    const esc = ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    out.push(grText(n++, esc.repeat(4), 20 + 8 * ((c - 33) % 10), 200 + 4 * Math.floor((c - 33) / 10), 0, 'F.Cu', 'left'));
  }
  out.push(grText(n++, 'WWMM@@%%', 40, y, 0, 'F.Cu', 'left'));
  out.push(grText(n++, 'mmww||jj', 40, y + 6, 0, 'F.Cu', 'left', 2, 0.4));
  out.push(grText(n++, 'two\\nlines~{OV}', 40, y + 14, 0, 'F.Cu', '', 1.2, 0.2));
  out.push(grText(n++, 'two\\nlines', 70, y + 14, 45, 'F.Cu', 'left bottom', 1.2, 0.2));
  return out.join('');
}

/** Footprint texts on copper, spliced into the first two footprints (the first is rotated 180°). */
function footprintTexts(text: string): string {
  const root = parseSexpr(text, 'board', () => {});
  const fps = root.items.filter((it) => it.kind === 'list' && head(it) === 'footprint');
  const inserts: [number, string][] = [];
  const texts = [
    `\t\t(fp_text user "UPRIGHT" (at -2 0 180) (layer "F.Cu") (uuid "${uuid(0x7f00)}")\n\t\t\t(effects (font (size 1 1) (thickness 0.15)) (justify left))\n\t\t)\n`,
    `\t\t(property "TM_CU" "FIELD_B" (at 1 1 90) (layer "B.Cu") (uuid "${uuid(0x7f01)}")\n\t\t\t(effects (font (size 1.2 1.2) (thickness 0.2)) (justify right mirror))\n\t\t)\n`,
  ];
  for (const [k, t] of texts.entries()) {
    const fp = fps[k];
    if (!fp || fp.kind !== 'list') throw new Error('the base board has too few footprints');
    // After the footprint's (uuid …) line, where the file's own fields follow.
    const u = child(fp, 'uuid') ?? child(fp, 'at');
    if (!u) throw new Error('a footprint without (uuid) or (at)');
    inserts.push([u.end, `\n${t}`]);
  }
  let out = text;
  for (const [at, t] of inserts.sort((a, b) => b[0] - a[0])) out = out.slice(0, at) + t + out.slice(at);
  return out;
}

/** The copper gr_texts of a board file, as their source text. */
function copperTexts(text: string): string[] {
  const root = parseSexpr(text, 'board', () => {});
  const out: string[] = [];
  for (const it of root.items) {
    if (it.kind !== 'list' || head(it) !== 'gr_text') continue;
    const layer = child(it, 'layer');
    if (layer && COPPER.test(atomAt(layer, 1) ?? '')) out.push(`\t${text.slice(it.start, it.end)}\n`);
  }
  return out;
}

/** Writes the text board for `kicad` (with the base board's project file) into a temp folder; its path. */
export function writeTextBoard(kicad: Kicad): string {
  const base = benchBoard('B', 'kicad-demo_sonde-xilinx', kicad);
  let text = footprintTexts(readFileSync(base, 'utf8'));
  const extra = TEXT_BENCH_BOARDS.flatMap(([tier, name]) => copperTexts(readFileSync(benchBoard(tier, name, kicad), 'utf8')));
  const end = text.lastIndexOf(')');
  text = text.slice(0, end) + extra.join('') + calibrationTexts() + text.slice(end);
  const dir = mkdtempSync(join(tmpdir(), `tm-textboard${kicad.major}-`));
  const path = join(dir, 'text-board.kicad_pcb');
  writeFileSync(path, text);
  copyFileSync(base.replace(/\.kicad_pcb$/, '.kicad_pro'), join(dir, 'text-board.kicad_pro'));
  return path;
}
