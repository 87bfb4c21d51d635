// Makes the KiCad 10 copy of the benchmark: every bench board (bare and reference) saved again by
// KiCad 10's own `kicad-cli pcb upgrade`, with its project files beside it, in the same layout as
// ../shared/bench/boards. Generated, never committed; a board is redone only when its source changed.
//   node scripts/kicad10-corpus.mjs [--out DIR]      (default .tmp/kicad10-bench/boards)
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(process.env.TRACEMAKER_SHARED ?? join(ROOT, '..', 'shared'));
const SRC = join(SHARED, 'bench', 'boards');
const CLI = join(ROOT, 'scripts', 'kicad10', 'kicad-cli');

const args = process.argv.slice(2);
const outIdx = args.indexOf('--out');
export const OUT = resolve(outIdx >= 0 ? args[outIdx + 1] : join(ROOT, '.tmp', 'kicad10-bench', 'boards'));

if (!existsSync(SRC)) {
  console.error(`kicad10-corpus: benchmark boards not found at ${SRC} (set TRACEMAKER_SHARED)`);
  process.exit(2);
}

const jobs = [];
for (const tier of readdirSync(SRC).sort()) {
  for (const name of readdirSync(join(SRC, tier)).sort()) {
    const from = join(SRC, tier, name);
    const to = join(OUT, tier, name);
    for (const f of readdirSync(from).sort()) {
      if (f.endsWith('.kicad_pcb')) jobs.push({ from: join(from, f), to: join(to, f) });
      else if (/\.(kicad_pro|kicad_dru|json)$/.test(f)) jobs.push({ from: join(from, f), to: join(to, f), copy: true });
    }
  }
}

const digest = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
let made = 0;
let kept = 0;

async function one(job) {
  const stamp = `${job.to}.source-sha256`;
  const sum = digest(job.from);
  if (existsSync(job.to) && existsSync(stamp) && readFileSync(stamp, 'utf8') === sum) {
    kept++;
    return;
  }
  mkdirSync(dirname(job.to), { recursive: true });
  // Upgrade a copy in a fresh folder, so KiCad's side files (.kicad_prl) stay out of the corpus.
  const tmp = `${job.to}.tmp-dir`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  const file = join(tmp, 'board' + (job.copy ? '' : '.kicad_pcb'));
  copyFileSync(job.from, file);
  chmodSync(file, 0o644);
  if (!job.copy) {
    try {
      await run(CLI, ['pcb', 'upgrade', '--force', file], { maxBuffer: 16 << 20 });
    } catch (err) {
      throw new Error(`kicad-cli 10 pcb upgrade failed on ${job.from}: ${String(err.stderr || err.message).trim()}`);
    }
    if (!readFileSync(file, 'utf8').includes('(generator_version "10.')) throw new Error(`${job.from}: kicad-cli 10 did not write a KiCad 10 file`);
  }
  renameSync(file, job.to);
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(stamp, sum);
  made++;
}

const queue = [...jobs];
await Promise.all(
  [0, 1].map(async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await one(job);
  }),
);
console.log(`kicad10-corpus: ${made} made, ${kept} up to date, in ${OUT}`);
