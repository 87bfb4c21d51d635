// Does more work buy routability? Routes each bare bench board (or, with --selected, each reference
// board with its selected nets stripped, as the route bench makes them) at a ladder of work
// budgets per call (--work) and prints, per tier, the connections left open at each rung, the boards
// where a rung left more open than the rung below it (losses) and fewer (gains). The router's own
// open count is used (it agrees with KiCad's, tests/engine/drc/agreement.test.ts); nothing is judged.
//   npm run bench:ladder -- [--rungs 1e6,4e6,16e6,64e6,256e6] [--tier B] [--every N] [--offset K] [--only SUBSTR] [--selected] [--out FILE]
// A script that prints figures, not a pass/fail test.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SHARED } from './kicad-choice.mjs';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const rungs = opt('rungs', '1e6,4e6,16e6,64e6,256e6').split(',').map(Number);
const onlyTier = opt('tier', undefined);
const only = opt('only', undefined);
const every = Math.max(1, Number(opt('every', 1)));
const offset = Number(opt('offset', 0));
const selected = args.includes('--selected');
const outFile = resolve(opt('out', join(root, 'bench', 'out', 'work-ladder.json')));
const setDir = join(SHARED, 'bench', 'boards');
const tmp = join(dirname(outFile), 'ladder');
mkdirSync(tmp, { recursive: true });

const boards = [];
for (const tier of readdirSync(setDir).sort()) {
  if (onlyTier && tier !== onlyTier) continue;
  for (const [k, name] of readdirSync(join(setDir, tier)).sort().entries()) {
    if ((only && !name.includes(only)) || k % every !== offset) continue;
    const file = join(setDir, tier, name, `${name}${selected ? '.ref' : ''}.kicad_pcb`);
    if (existsSync(file)) boards.push({ tier, name, file });
  }
}
if (selected && boards.length) {
  const stripped = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'strip-nets.ts'), join(tmp, 'stripped'), ...boards.map((b) => b.file)], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    }),
  );
  for (const b of boards) Object.assign(b, { file: stripped[b.file].board, nets: stripped[b.file].nets });
}

const cli = join(root, 'dist', 'tracemaker.js');
const records = [];
for (const b of boards) {
  const open = [];
  const work = [];
  for (const w of rungs) {
    const r = spawnSync(
      'node',
      [cli, 'route', b.file, '--out', join(tmp, `${b.name}.kicad_pcb`), '--json', '--work', String(w), ...(b.nets ? ['--nets', b.nets.join(',')] : [])],
      { encoding: 'utf8', maxBuffer: 1 << 28 },
    );
    let s = null;
    try {
      s = JSON.parse(r.stdout);
    } catch {
      s = null;
    }
    open.push(s ? s.open : null);
    work.push(s ? s.work : null);
  }
  records.push({ tier: b.tier, name: b.name, rungs, open, work });
  console.log(
    `${b.tier} ${b.name.padEnd(44)} open ${open.map((o) => (o ?? '-').toString().padStart(4)).join(' ')}   work ${work.map((x) => (x === null ? '-' : (x / 1e6).toFixed(1) + 'M')).join(' ')}`,
  );
}

console.log(
  `\nopen connections by work per call (${selected ? 'selected nets stripped from the reference routing' : 'bare boards'}); losses/gains: boards where a rung left more/fewer open than the one below`,
);
console.log(`tier  boards  ${rungs.map((w) => `${(w / 1e6).toFixed(0)}M`.padStart(6)).join(' ')}   losses  gains`);
for (const tier of [...new Set(records.map((r) => r.tier))]) {
  const rs = records.filter((r) => r.tier === tier);
  const sums = rungs.map((_, i) => rs.reduce((s, r) => s + (r.open[i] ?? 0), 0));
  let losses = 0;
  let gains = 0;
  for (const r of rs) {
    for (let i = 1; i < rungs.length; i++) {
      if (r.open[i] === null || r.open[i - 1] === null) continue;
      if (r.open[i] > r.open[i - 1]) losses++;
      if (r.open[i] < r.open[i - 1]) gains++;
    }
  }
  console.log(
    `${tier.padEnd(5)} ${String(rs.length).padStart(6)}  ${sums.map((s) => String(s).padStart(6)).join(' ')}   ${String(losses).padStart(6)}  ${String(gains).padStart(5)}`,
  );
}
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify({ rungs, selected, records }, null, 2));
console.log(`\nrecords: ${outFile}`);
