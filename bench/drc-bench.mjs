// DRC speed: kicad-cli pcb drc against `tracemaker drc` on the same routed bench boards, both
// from a cold process start, plus the engine's in-process time (parse + check, warm). Prints a
// table per tier and the ratios; figures, not pass/fail. Run with `npm run bench:drc [-- --kicad 9|10]`
// (KiCad 10 checks the bench's KiCad 10 copy with its own kicad-cli).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kicadChoice } from './kicad-choice.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const choice = kicadChoice(process.argv.slice(2));
const BENCH = choice.boards;
const CLI = join(ROOT, 'dist', 'tracemaker.js');
const KICAD_CLI = choice.cli;
const PER_TIER = Number(process.env.DRC_BENCH_PER_TIER ?? 3);

// The largest boards of each tier (by file size), routed.
function pick(tier) {
  const dir = join(BENCH, tier);
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, board: join(dir, name, `${name}.ref.kicad_pcb`), pro: join(dir, name, `${name}.kicad_pro`) }))
    .filter((b) => existsSync(b.board))
    .map((b) => ({ ...b, size: Number(execFileSync('stat', ['-c', '%s', b.board], { encoding: 'utf8' })) }))
    .sort((a, b) => b.size - a.size || (a.name < b.name ? -1 : 1))
    .slice(0, PER_TIER);
}

function time(cmd, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0 && r.status !== 5) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return s;
}

function kicad(b) {
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-'));
  try {
    copyFileSync(b.board, join(dir, 'b.kicad_pcb'));
    copyFileSync(b.pro, join(dir, 'b.kicad_pro'));
    return time(KICAD_CLI, ['pcb', 'drc', '--format', 'json', '-o', join(dir, 'o.json'), join(dir, 'b.kicad_pcb')]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const tier of readdirSync(BENCH).sort()) {
  const boards = pick(tier);
  const inproc = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'drc-inprocess.ts'), ...boards.map((b) => b.board)], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 16 << 20,
    }),
  );
  for (const b of boards) {
    const k = Math.min(kicad(b), kicad(b));
    const e = Math.min(time(process.execPath, [CLI, 'drc', b.board, '--json']), time(process.execPath, [CLI, 'drc', b.board, '--json']));
    const ip = inproc[b.board];
    rows.push({ tier, name: b.name, kicad: k, cold: e, inproc: (ip.loadMs + ip.drcMs) / 1000, drcOnly: ip.drcMs / 1000 });
  }
}

const f = (s) => s.toFixed(3).padStart(8);
console.log(`kicad-cli ${choice.version} on ${BENCH}`);
console.log(
  `${'tier'.padEnd(5)}${'board'.padEnd(44)}${'kicad s'.padStart(8)}${'cold s'.padStart(8)}${'in-proc'.padStart(8)}${'drc s'.padStart(8)}  cold/kicad  in-proc/kicad`,
);
for (const r of rows) {
  console.log(
    `${r.tier.padEnd(5)}${r.name.slice(0, 42).padEnd(44)}${f(r.kicad)}${f(r.cold)}${f(r.inproc)}${f(r.drcOnly)}  ${(r.cold / r.kicad).toFixed(2).padStart(10)}  ${(r.inproc / r.kicad).toFixed(2).padStart(13)}`,
  );
}
for (const tier of [...new Set(rows.map((r) => r.tier))]) {
  const t = rows.filter((r) => r.tier === tier);
  const sum = (k) => t.reduce((a, r) => a + r[k], 0);
  console.log(
    `tier ${tier}: kicad ${sum('kicad').toFixed(2)} s, cold ${sum('cold').toFixed(2)} s (ratio ${(sum('cold') / sum('kicad')).toFixed(2)}), in-process ${sum('inproc').toFixed(2)} s (ratio ${(sum('inproc') / sum('kicad')).toFixed(2)})`,
  );
}
