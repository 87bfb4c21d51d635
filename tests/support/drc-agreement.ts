// The cases of the DRC agreement suite for one KiCad version (every bench board bare and routed in
// that version's own format, faulty copies of a spread of them, and the router's own output for
// that spread's tiers A and B with zones refilled by KiCad) and the comparison of the
// engine's counts with KiCad's per "type:severity".
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDrc } from '../../engine/drc/drc.ts';
import { errorLimit, VIOLATION_TYPES, type ViolationType } from '../../engine/drc/violation.ts';
import { loadDesign } from '../../engine/kicad/load.ts';
import { benchBoards, benchOf } from './bench.ts';
import { FAULT_KINDS, writeFault } from './faults.ts';
import { routedCase } from './routed-cases.ts';
import type { Kicad } from './kicad.ts';
import type { DrcInput, KicadDrc } from './kicad-drc.ts';

export interface AgreementCase extends DrcInput {
  name: string;
  pro: string;
}

/** Boards the faults are made from: every tier, 2 and 4 layers, with and without zones. */
export const FAULT_SOURCES = [
  'A/Blink-Eras_AVR_ISP_Pogo',
  'A/kicad-demo_ecc83-pp',
  'B/kitspace_led_driver',
  'B/kicad-demo_sonde-xilinx',
  'C/rxadc_14_rxadc_14',
  'C/LibreSolar_bms-c1',
];

/** The cases for `kicad`: its copy of the bench, and faults made from that copy's files;
 *  `unpinned` adds the widened copies, whose counts the suite does not pin (bench figures). */
export function agreementCases(kicad: Kicad, unpinned = false): AgreementCase[] {
  const out: AgreementCase[] = [];
  const boards = benchBoards(benchOf(kicad));
  for (const b of boards) {
    out.push({ name: `${b.tier}/${b.name}/bare`, board: b.bare, pro: b.pro });
    out.push({ name: `${b.tier}/${b.name}/ref`, board: b.ref, pro: b.pro });
  }
  const dir = mkdtempSync(join(tmpdir(), `tm-faults${kicad.major}-`));
  for (const src of FAULT_SOURCES) {
    const b = boards.find((x) => `${x.tier}/${x.name}` === src);
    if (!b) throw new Error(`fault source ${src} is not in the bench at ${benchOf(kicad)}`);
    for (const kind of FAULT_KINDS) {
      // Which neighbour a widened track reports first follows KiCad's R-tree walk (and kicad-cli
      // 10's thread pool), which the engine does not repeat: their counts are not pinned here.
      if (kind === 'widened' && !unpinned) continue;
      const f = writeFault({ name: `${b.tier}/${b.name}/ref`, board: b.ref, pro: b.pro }, kind, dir);
      if (f) out.push(f);
    }
    // What the router itself writes for the board, refilled by KiCad (tiers A and B: a tier C
    // route takes minutes; bench/drc-agreement.ts --routed judges every board's).
    if (b.tier !== 'C') out.push(routedCase(kicad, `${b.tier}/${b.name}/routed`, b.bare, b.pro, dir));
  }
  return out;
}

export interface EngineCounts {
  counts: Record<string, number>;
  unconnected: number;
  ms: number;
}

export function engineDrc(c: DrcInput): EngineCounts {
  const t0 = performance.now();
  const design = loadDesign({
    board: readFileSync(c.board, 'utf8'),
    boardName: c.board,
    project: c.pro ? readFileSync(c.pro, 'utf8') : undefined,
    projectName: c.pro,
    dru: c.dru ? readFileSync(c.dru, 'utf8') : undefined,
    druName: c.dru,
  });
  const r = runDrc(design);
  const counts: Record<string, number> = {};
  for (const v of r.violations) counts[`${v.type}:${v.severity}`] = (counts[`${v.type}:${v.severity}`] ?? 0) + 1;
  return { counts, unconnected: r.unconnected, ms: performance.now() - t0 };
}

/** One disagreement: a "type:severity" key (or "unconnected_items") and both counts. */
export interface Mismatch {
  case: string;
  key: string;
  kicad: number;
  engine: number;
}

const CHECKED = new Set<string>(VIOLATION_TYPES);

/** The keys compared: the engine's types at either severity, and the unconnected count. A type
 *  both sides stopped at KiCad's limit agrees whatever KiCad's count: its provider threads check the
 *  limit before they report, so a race can add one or two past it (500 clearance items on one
 *  machine, 499 on another, for the same board). */
export function compare(name: string, kicad: KicadDrc, engine: EngineCounts): Mismatch[] {
  const out: Mismatch[] = [];
  const keys = new Set<string>();
  for (const k of Object.keys(kicad.counts)) if (CHECKED.has(k.split(':')[0])) keys.add(k);
  for (const k of Object.keys(engine.counts)) keys.add(k);
  for (const key of [...keys].sort()) {
    const a = kicad.counts[key] ?? 0;
    const b = engine.counts[key] ?? 0;
    const limit = errorLimit(key.split(':')[0] as ViolationType);
    if (a !== b && !(b === limit && a >= limit)) out.push({ case: name, key, kicad: a, engine: b });
  }
  if (kicad.unconnected !== engine.unconnected) out.push({ case: name, key: 'unconnected_items', kicad: kicad.unconnected, engine: engine.unconnected });
  return out;
}
