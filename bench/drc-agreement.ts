// DRC agreement figures: the cases of tests/engine/drc/agreement.test.ts (bench boards bare and
// routed, faulty copies) run through kicad-cli and the engine, printed per type as agreeing/total
// cases, with how many cases have findings of that type on either side; then every mismatch.
// Figures, not pass/fail (the test checks the known list), for one KiCad version: KiCad 9 on the
// shared bench, KiCad 10 on its KiCad 10 copy.
// The widened copies (every seventh track three times as wide), which the suite does not pin, are
// judged here too. --routed DIR judges instead the route benchmark's outputs in DIR (NAME.routed.kicad_pcb, as
// `npm run bench -- --out DIR/../x.json` leaves them), each with its zones refilled by KiCad first.
//   npx tsx bench/drc-agreement.ts [--kicad 9|10] [--routed DIR]     (or TRACEMAKER_KICAD; default 9)
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { agreementCases, compare, engineDrc, type AgreementCase, type Mismatch } from '../tests/support/drc-agreement.ts';
import { benchBoards, benchOf } from '../tests/support/bench.ts';
import { refilledCase } from '../tests/support/routed-cases.ts';
import { kicadDrc } from '../tests/support/kicad-drc.ts';
import { kicads } from '../tests/support/kicad.ts';
import { VIOLATION_TYPES } from '../engine/drc/violation.ts';

const flag = process.argv.indexOf('--kicad');
const want = flag >= 0 ? process.argv[flag + 1] : (process.env.TRACEMAKER_KICAD ?? '9');
if (want !== '9' && want !== '10') {
  console.error(`--kicad (or TRACEMAKER_KICAD) is "${want}": expected 9 or 10`);
  process.exit(2);
}
// kicads() reads the versions from the environment; this run is about one.
process.env.TRACEMAKER_KICAD = want;
const [kicad] = kicads();
const routedFlag = process.argv.indexOf('--routed');
let cases: AgreementCase[];
if (routedFlag >= 0) {
  const dir = resolve(process.argv[routedFlag + 1] ?? '');
  const tmp = mkdtempSync(join(tmpdir(), 'tm-routed-'));
  cases = [];
  for (const b of benchBoards(benchOf(kicad))) {
    const routed = join(dir, `${b.name}.routed.kicad_pcb`);
    if (existsSync(routed)) cases.push(refilledCase(kicad, `${b.tier}/${b.name}/routed`, routed, b.pro, tmp));
  }
  if (!cases.length) {
    console.error(`--routed ${dir}: no NAME.routed.kicad_pcb of a bench board there`);
    process.exit(2);
  }
} else cases = agreementCases(kicad, true);
console.log(`KiCad ${kicad.version} (${kicad.cli}), ${cases.length} cases`);
const mismatches: Mismatch[] = [];
const present = new Map<string, number>();
// Types KiCad reported that the engine does not check (not routing checks, or new in a version).
const others = new Map<string, number>();
const checked = new Set<string>(VIOLATION_TYPES);
let allAgree = 0;
await Promise.all(
  cases.map(async (c) => {
    const k = await kicadDrc(kicad, c);
    const e = engineDrc(c);
    const m = compare(c.name, k, e);
    mismatches.push(...m);
    if (m.length === 0) allAgree++;
    for (const t of new Set(Object.keys(k.counts).map((key) => key.split(':')[0]))) if (!checked.has(t)) others.set(t, (others.get(t) ?? 0) + 1);
    const types = new Set<string>();
    for (const key of [...Object.keys(k.counts), ...Object.keys(e.counts)]) types.add(key.split(':')[0]);
    if (k.unconnected > 0 || e.unconnected > 0) types.add('unconnected_items');
    for (const t of types) present.set(t, (present.get(t) ?? 0) + 1);
  }),
);
const n = cases.length;
console.log(`${'type'.padEnd(24)}${'agree'.padStart(10)}${'with findings'.padStart(15)}`);
for (const t of [...VIOLATION_TYPES, 'unconnected_items']) {
  const bad = new Set(mismatches.filter((m) => m.key.split(':')[0] === t).map((m) => m.case)).size;
  console.log(`${t.padEnd(24)}${`${n - bad}/${n}`.padStart(10)}${String(present.get(t) ?? 0).padStart(15)}`);
}
console.log(`all types: ${allAgree}/${n} cases agree`);
console.log(
  `types KiCad ${kicad.version} reported that the engine does not check (cases): ${
    [...others]
      .sort()
      .map(([t, c]) => `${t} ${c}`)
      .join(', ') || 'none'
  }`,
);
for (const m of mismatches.sort((a, b) => (a.case < b.case ? -1 : a.case > b.case ? 1 : a.key < b.key ? -1 : 1))) {
  console.log(`  ${m.case}  ${m.key}  kicad ${m.kicad}  engine ${m.engine}`);
}
