// Does the scripted repair agent beat more compute? Three arms per board, all through the built
// command: plain (`route --variants V`), control (`route --variants V+4`: more compute, no agent)
// and agent (`agent --variants V --work-limit W`, W = the control's measured work). Every
// written board is judged by the bench's judge (../shared/bench/tools/judge.py: kicad-cli's DRC by
// the bare board's rules, zones refilled as KiCad would).
//   npm run bench:agent -- [--variants V] [--max-pads N] [--min-pads M] [--tiers B,C] [--out FILE] [--cap-s S] [--selected] [--only A,B]
// Boards: the tiers' bare boards with at most N pads (a fixed rule); of those, the ones the plain
// route leaves connections open on get the other two arms. --selected: the plugin's case instead,
// from each reference board a stable quarter of its signal nets stripped (bench/strip-nets.ts),
// routed back by each arm. Figures, not pass/fail.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = resolve(process.env.TRACEMAKER_SHARED ?? join(ROOT, '..', 'shared'));
const BENCH = join(SHARED, 'bench', 'boards');
const CLI = join(ROOT, 'dist', 'tracemaker.js');
const JUDGE = join(SHARED, 'bench', 'tools', 'judge.py');

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const V = Number(opt('variants', 2));
// Every board by default. On two cores the boards up to 160 pads take about ten minutes (a
// plain route up to ~15 s, the arms about six times that); above 400 pads a plain route takes
// minutes, and the arms of one board most of an hour.
const MAX_PADS = Number(opt('max-pads', Infinity));
// --min-pads: only boards above M pads (a run that extends an earlier one to larger boards).
const MIN_PADS = Number(opt('min-pads', 0));
const TIERS = String(opt('tiers', 'B,C')).split(',');
const OUT = resolve(opt('out', join(ROOT, 'bench', 'out', 'agent-bench.json')));
// A safety stop for a loaded machine: boards not started by then are listed as not run.
const CAP_S = Number(opt('cap-s', Infinity));
const WORK = join(dirname(OUT), 'agent-boards');
mkdirSync(WORK, { recursive: true });

function tm(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`tracemaker ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return { out: r.stdout, seconds: Math.round(seconds * 100) / 100 };
}

/** The DRC's verdict on a written board: unconnected items and error-level violations. */
/** KiCad's verdict on a written board (the bench's judge: kicad-cli's DRC by the bare board's
 *  rules, zones refilled as KiCad would): unconnected items and error-level violations, and the
 *  bare board's own. */
function judge(bare, file) {
  const r = spawnSync('python3', [JUDGE, bare, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`judge.py ${file} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  const d = JSON.parse(r.stdout);
  return { unconnected: d.unconnected_routed, errors: d.drv, input: { unconnected: d.unconnected_bare, errors: d.drv_bare } };
}

const SELECTED = argv.includes('--selected');
// --only: these boards alone (a quick look at a few; the figures of record come from all).
const ONLY = opt('only', '') ? new Set(String(opt('only', '')).split(',')) : undefined;
const candidates = [];
for (const tier of TIERS) {
  const dir = join(BENCH, tier);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).sort()) {
    const bare = join(dir, name, `${name}${SELECTED ? '.ref' : ''}.kicad_pcb`);
    if (!existsSync(bare) || (ONLY && !ONLY.has(name))) continue;
    const pads = JSON.parse(tm(['info', bare, '--json']).out).counts.pads;
    if (pads <= MAX_PADS && pads > MIN_PADS) candidates.push({ tier, name, bare, pads });
  }
}
if (SELECTED && candidates.length) {
  const out = join(WORK, 'stripped');
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'strip-nets.ts'), out, ...candidates.map((b) => b.bare)], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`strip-nets exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  const stripped = JSON.parse(r.stdout);
  // strip-nets puts the project's rules beside each stripped board.
  for (const b of candidates) Object.assign(b, { bare: stripped[b.bare].board, nets: stripped[b.bare].nets });
}

const t0 = Date.now();
const elapsed = () => (Date.now() - t0) / 1000;
const records = [];
for (const b of candidates) {
  const rec = { tier: b.tier, name: b.name, pads: b.pads };
  records.push(rec);
  if (elapsed() > CAP_S) {
    rec.skipped = 'time cap';
    continue;
  }
  // Each written board gets the project's rules beside it, so the DRC judges it by them.
  const file = (arm) => {
    const out = join(WORK, `${b.name}.${arm}.kicad_pcb`);
    for (const ext of ['.kicad_pro', '.kicad_dru']) {
      const side = b.bare.replace(/\.kicad_pcb$/, ext);
      if (existsSync(side)) copyFileSync(side, out.replace(/\.kicad_pcb$/, ext));
    }
    return out;
  };
  const nets = b.nets ? ['--nets', b.nets.join(',')] : [];
  const plain = tm(['route', b.bare, '--out', file('plain'), '--variants', String(V), ...nets, '--json']);
  const p = JSON.parse(plain.out);
  rec.plain = { open: p.open, work: p.work, seconds: plain.seconds };
  if (p.open === 0) continue;
  // With the bare board's own verdict, so what the arms changed can be told from what was there.
  const { input, ...plainVerdict } = judge(b.bare, file('plain'));
  rec.input = input;
  Object.assign(rec.plain, plainVerdict);
  const control = tm(['route', b.bare, '--out', file('control'), '--variants', String(V + 4), ...nets, '--json']);
  const c = JSON.parse(control.out);
  const verdict = (f) => {
    const { input: _, ...v } = judge(b.bare, f);
    return v;
  };
  rec.control = { open: c.open, work: c.work, seconds: control.seconds, ...verdict(file('control')) };
  const agent = tm(['agent', b.bare, '--out', file('agent'), '--variants', String(V), '--work-limit', String(c.work)]);
  const a = JSON.parse(agent.out);
  rec.agent = {
    open: a.open_after,
    work: a.work_used,
    limit: c.work,
    rounds: a.rounds,
    tries: a.tries,
    kept: a.kept,
    seconds: agent.seconds,
    ...verdict(file('agent')),
  };
}

const armed = records.filter((r) => r.agent);
// A win: fewer unconnected items than the control and no more errors; a loss: more of either.
const wins = armed.filter((r) => r.agent.unconnected < r.control.unconnected && r.agent.errors <= r.control.errors).length;
const losses = armed.filter((r) => r.agent.unconnected > r.control.unconnected || r.agent.errors > r.control.errors).length;
const over = armed.filter((r) => r.agent.work > r.agent.limit).map((r) => r.name);
const sum = (arm, k) => armed.reduce((s, r) => s + r[arm][k], 0);

const pad = (s, n) => String(s).padEnd(n);
const cell = (x) => (x ? `${x.unconnected}/${x.errors} ${(x.work / 1e6).toFixed(1)}M ${x.seconds}s` : '-');
const range = Number.isFinite(MAX_PADS)
  ? MIN_PADS
    ? `${MIN_PADS} < pads ≤ ${MAX_PADS}`
    : `≤ ${MAX_PADS} pads`
  : MIN_PADS
    ? `> ${MIN_PADS} pads`
    : 'any number of pads';
console.log(
  `agent bench: tiers ${TIERS.join(',')}, ${SELECTED ? 'selected nets stripped from the reference routing' : 'bare'} boards with ${range} (${candidates.length}); V = ${V}, control V+4 = ${V + 4}`,
);
console.log(`cells: unconnected/errors (DRC), work, seconds`);
console.log(`${pad('board', 52)}${pad('pads', 6)}${pad('input', 8)}${pad('plain', 24)}${pad('control', 24)}${pad('agent', 24)}tries/kept`);
for (const r of armed)
  console.log(
    `${pad(`${r.tier} ${r.name}`, 52)}${pad(r.pads, 6)}${pad(`${r.input.unconnected}/${r.input.errors}`, 8)}${pad(cell(r.plain), 24)}${pad(cell(r.control), 24)}${pad(cell(r.agent), 24)}${r.agent.tries}/${r.agent.kept}`,
  );
const full = records.filter((r) => r.plain && r.plain.open === 0).length;
const skipped = records.filter((r) => r.skipped).map((r) => r.name);
console.log(
  `plain routed ${full} of ${records.length - skipped.length} boards fully (no arms needed)${skipped.length ? `; not run (time cap): ${skipped.join(', ')}` : ''}`,
);
if (armed.length) {
  console.log(
    `totals over ${armed.length} boards: unconnected plain ${sum('plain', 'unconnected')}, control ${sum('control', 'unconnected')}, agent ${sum('agent', 'unconnected')}; work control ${(sum('control', 'work') / 1e6).toFixed(1)}M, agent ${(sum('agent', 'work') / 1e6).toFixed(1)}M`,
  );
  const ties = armed.length - wins - losses;
  const beats = wins > losses && sum('agent', 'unconnected') < sum('control', 'unconnected');
  console.log(`agent vs control at equal compute: ${wins} wins, ${ties} ties, ${losses} losses; agent beats control: ${beats ? 'yes' : 'no'}`);
  if (over.length) console.log(`the agent's last call overran its work limit on: ${over.join(', ')}`);
} else console.log('no board left connections open under the plain route: nothing to compare');

writeFileSync(
  OUT,
  JSON.stringify(
    {
      selected: SELECTED,
      variants: V,
      control_variants: V + 4,
      max_pads: MAX_PADS,
      min_pads: MIN_PADS,
      tiers: TIERS,
      seconds: Math.round(elapsed()),
      wins,
      losses,
      overran_limit: over,
      boards: records,
    },
    null,
    2,
  ) + '\n',
);
console.log(`record: ${OUT}`);
