// Routes every dev board, bare and as the plugin meets it (a quarter of a person's signal nets
// stripped and routed back with --nets, bench/strip-nets.ts), and prints one line per route:
// tier, board, case, the SHA-256 of the written board, the work spent. A refactor that must not
// change behaviour runs this on the build before and after and compares the files (--compare).
//   node bench/route-digests.mjs [--cli DIST/tracemaker.js] [--tier A] [--only NAME[,NAME…]] [--case bare|selected] --out FILE
//   node bench/route-digests.mjs --compare BEFORE AFTER
// No KiCad is needed: nothing is judged, only the bytes written are compared.

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { SHARED } from './kicad-choice.mjs';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};

if (args[0] === '--compare') {
  const read = (f) =>
    new Map(
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => l.split('\t'))
        .map(([tier, name, kind, sha, work]) => [`${tier}/${name}/${kind}`, { sha, work }]),
    );
  const [a, b] = [read(args[1]), read(args[2])];
  let same = 0;
  const differ = [];
  for (const [key, x] of a) {
    const y = b.get(key);
    if (!y) differ.push(`${key}: only in ${args[1]}`);
    else if (x.sha !== y.sha || x.work !== y.work) differ.push(`${key}: ${x.sha.slice(0, 12)} ${x.work} → ${y.sha.slice(0, 12)} ${y.work}`);
    else same++;
  }
  for (const key of b.keys()) if (!a.has(key)) differ.push(`${key}: only in ${args[2]}`);
  console.log(`${same} routes identical (bytes and work), ${differ.length} differ`);
  for (const d of differ) console.log(`  ${d}`);
  process.exit(differ.length === 0 ? 0 : 1);
}

const cli = resolve(opt('cli', join(root, 'dist', 'tracemaker.js')));
const outFile = opt('out', undefined);
if (!outFile) {
  console.error('route-digests: --out FILE is required (one line per route is appended as it finishes)');
  process.exit(2);
}
const onlyTier = opt('tier', undefined);
const only = opt('only', undefined)?.split(',');
const cases = opt('case', 'bare,selected').split(',');
const boardsDir = join(SHARED, 'bench', 'boards');
// Each run writes its boards beside its own list, so two builds can run side by side.
const work = join(dirname(resolve(outFile)), `${basename(outFile)}.boards`);
mkdirSync(work, { recursive: true });
writeFileSync(outFile, '');

const boards = [];
for (const tier of readdirSync(boardsDir).sort()) {
  if (onlyTier && tier !== onlyTier) continue;
  for (const name of readdirSync(join(boardsDir, tier)).sort()) {
    if (only && !only.some((o) => name.includes(o))) continue;
    boards.push({ tier, name, dir: join(boardsDir, tier, name) });
  }
}

const routes = [];
for (const b of boards) if (cases.includes('bare')) routes.push({ ...b, kind: 'bare', file: join(b.dir, `${b.name}.kicad_pcb`) });
if (cases.includes('selected')) {
  const refs = boards.map((b) => join(b.dir, `${b.name}.ref.kicad_pcb`)).filter((f) => existsSync(f));
  const stripped = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'strip-nets.ts'), join(work, 'stripped'), ...refs], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    }),
  );
  for (const b of boards) {
    const s = stripped[join(b.dir, `${b.name}.ref.kicad_pcb`)];
    if (s) routes.push({ ...b, kind: 'selected', file: s.board, nets: s.nets });
  }
}

for (const r of routes) {
  const out = join(work, `${r.name}.${r.kind}.kicad_pcb`);
  const t0 = process.hrtime.bigint();
  const run = spawnSync('node', [cli, 'route', r.file, '--out', out, '--json', ...(r.nets ? ['--nets', r.nets.join(',')] : [])], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const seconds = (Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1);
  let workSpent = '?';
  try {
    workSpent = String(JSON.parse(run.stdout).work);
  } catch {
    workSpent = `exit ${run.status}`;
  }
  const sha = run.status === 0 && existsSync(out) ? createHash('sha256').update(readFileSync(out)).digest('hex') : `failed:${run.status}`;
  appendFileSync(outFile, `${r.tier}\t${r.name}\t${r.kind}\t${sha}\t${workSpent}\t${seconds}\n`);
  console.log(`${r.tier}/${r.name} ${r.kind}: ${sha.slice(0, 12)} work ${workSpent} ${seconds} s`);
}
