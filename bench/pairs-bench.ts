// Differential pairs as the router leaves them: on every dev board with pairs (KiCad's naming rule)
// and on generated boards with pairs and length rules, each board routed whole by the built CLI,
// then per pair: both nets made, whether the router laid it as a coupled pair (and why not, or why
// not all of it), each net's track length and their difference, the share of the longer net
// coupled at the class's pair gap (± 10 %, as KiCad's coupling check pairs tracks:
// engine/drc/pair-coupling.ts), the uncoupled length; on boards with length rules each net's
// length as KiCad measures it (tracks and vias through the stack-up: engine/drc/net-length.ts),
// the pair's skew, and the rules; per board the errors KiCad's DRC finds on the routed board beyond
// the bare one, by type (../shared/bench/tools/judge.py: the project's rules, zones refilled).
// On dev boards each pair's coupled share is given beside the person's routing of it.
// --selected: the plugin's case instead — each pair the person routed is stripped from their
// routing (both nets) and routed back alone with --nets, judged against the stripped board.
// Figures, not pass/fail.
//   npm run bench:pairs -- [--kicad 9|10] [--selected] [--only SUBSTR] [--out FILE]   (bench/out/pairs-bench.json)
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Design } from '../engine/board/design.ts';
import { diffPairOf } from '../engine/board/diff-pairs.ts';
import { COUPLED_SHARE, gapTolerance, pairCoupling } from '../engine/drc/pair-coupling.ts';
import { measureNets } from '../engine/drc/net-length.ts';
import { loadDesign } from '../engine/kicad/load.ts';
import { generateBoard } from '../engine/kicad/generate-board.ts';
import { readDesignFiles } from '../plugin/design-files.ts';
import { benchBoards, benchOf } from '../tests/support/bench.ts';
import { stripBoard } from './strip-board.ts';
import { kicadMajor } from '../tests/support/kicad.ts';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
// Only the KiCad that judges need be installed.
process.env.TRACEMAKER_KICAD = opt('kicad') ?? '9';
const kicad = kicadMajor(Number(process.env.TRACEMAKER_KICAD))!;
const only = opt('only');
const selected = args.includes('--selected');
const outFile = resolve(opt('out') ?? join(ROOT, 'bench', 'out', 'pairs-bench.json'));
const work = join(resolve(outFile, '..'), 'pairs-boards');
mkdirSync(work, { recursive: true });
const cli = join(ROOT, 'dist', 'tracemaker.js');
const JUDGE = join(resolve(process.env.TRACEMAKER_SHARED ?? join(ROOT, '..', 'shared')), 'bench', 'tools', 'judge.py');

interface Board {
  name: string;
  bare: string;
  pro: string;
  dru?: string;
  /** The person's routing of a dev board, for the share of each pair they coupled. */
  ref?: string;
  /** With --selected: the pair (+ net, - net) stripped from the person's routing and routed back. */
  nets?: [string, string];
}

/** The person's routing of a dev board, read once however many of its pairs are measured. */
const people = new Map<string, Design['board']>();
const personBoard = (ref: string) => people.get(ref) ?? people.set(ref, loadDesign(readDesignFiles(ref)).board).get(ref)!;

/** A name made safe for a file name. */
const fileName = (name: string) => name.replace(/[^\w.+-]+/g, '_');

/** Every dev board with a pair, then the generated ones (written under `work`); with --selected,
 *  each pair the person routed, stripped from their routing (written under `work`). */
function boards(): Board[] {
  const out: Board[] = [];
  // The dev boards in the judging KiCad's own format (KiCad 10's copy: node scripts/kicad10-corpus.mjs).
  for (const b of benchBoards(benchOf(kicad))) {
    const { board } = loadDesign(readDesignFiles(b.bare));
    if (!board.nets.some((n) => diffPairOf(n.name, board.netByName))) continue;
    const name = `${b.tier}/${b.name}`;
    if (!selected) {
      out.push({ name, bare: b.bare, pro: b.pro, ref: b.ref });
      continue;
    }
    const text = readFileSync(b.ref, 'utf8');
    const person = personBoard(b.ref);
    for (const n of person.nets) {
      const p = diffPairOf(n.name, person.netByName);
      if (p?.polarity !== '+') continue;
      const nets: [string, string] = [n.name, p.partner];
      if (!nets.every((m) => person.tracks.some((t) => t.net === person.netByName.get(m)))) continue;
      const stem = join(work, 'selected', fileName(`${name} ${n.name}`));
      mkdirSync(stem, { recursive: true });
      const file = join(stem, `${b.name}.kicad_pcb`);
      writeFileSync(file, stripBoard(text, b.ref, nets).text);
      // The rules go with the board, as the route reads them from beside it.
      for (const ext of ['.kicad_pro', '.kicad_dru']) {
        const from = b.pro.replace(/\.kicad_pro$/, ext);
        if (existsSync(from)) copyFileSync(from, join(stem, `${b.name}${ext}`));
      }
      out.push({ name: `${name} ${n.name}`, bare: file, pro: b.pro, ref: b.ref, nets });
    }
  }
  if (selected) return out.filter((b) => !only || b.name.includes(only));
  const generated = [
    { seed: 1, pairs: 4 },
    { seed: 2, pairs: 4 },
    { seed: 3, pairs: 6 },
    { seed: 4, pairs: 4, lengthRules: { skew: 0.5, max: 80 } },
    { seed: 5, pairs: 4, lengthRules: { skew: 0.2, min: 30, max: 60 } },
    { seed: 6, pairs: 4, lengthRules: { min: 15 } },
  ];
  for (const g of generated) {
    const name = `gen/pairs${g.pairs}-seed${g.seed}${g.lengthRules ? '-length' : ''}`;
    const text = generateBoard({ nets: 20, padsPerNet: 3, layers: 2, width: 50, height: 40, ...g });
    const stem = join(work, name.replace('/', '_'));
    writeFileSync(`${stem}.kicad_pcb`, text.board);
    writeFileSync(`${stem}.kicad_pro`, text.project);
    if (text.rules) writeFileSync(`${stem}.kicad_dru`, text.rules);
    out.push({ name, bare: `${stem}.kicad_pcb`, pro: `${stem}.kicad_pro`, ...(text.rules ? { dru: `${stem}.kicad_dru` } : {}) });
  }
  return out.filter((b) => !only || b.name.includes(only));
}

interface PairFigures {
  pair: string;
  made: boolean;
  held: boolean;
  /** The connections left open, each with its stuck reason. */
  open?: string[];
  /** Left open by the length rules (the route was found but could not be brought to them). */
  unmatched: boolean;
  length_mm: [number, number];
  /** As KiCad measures them for length and skew rules (vias included); with length rules only. */
  kicad_length_mm?: [number, number];
  skew_mm?: number;
  difference_mm: number;
  coupled_fraction: number;
  uncoupled_mm: number;
  /** The share of the person's routing of the pair coupled, measured the same way (dev boards). */
  person_coupled_fraction?: number;
  /** Whether the router laid it as a coupled pair, and why not or why not all of it. */
  routed_coupled?: boolean;
  why?: string;
}

/** What the route said of a pair. */
const routedAs = (p: { coupled: boolean; why?: string } | undefined) => (p ? { routed_coupled: p.coupled, ...(p.why ? { why: p.why } : {}) } : {});

const mm = (nm: number) => Math.round(nm / 1000) / 1000;

async function measure(b: Board): Promise<Record<string, unknown>> {
  const routed = join(work, `${fileName(b.name)}.routed.kicad_pcb`);
  const r = spawnSync(process.execPath, [cli, 'route', b.bare, '--out', routed, ...(b.nets ? ['--nets', b.nets.join(',')] : []), '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) return { board: b.name, error: (r.stderr || r.stdout).trim().split('\n').pop() };
  const result = JSON.parse(r.stdout) as {
    open_connections: { net: string; from: string; to: string; reason: string }[];
    pairs: { net: string; coupled: boolean; why?: string }[];
    seconds: number;
  };
  const design = loadDesign(readDesignFiles(routed));
  const { board, rules } = design;
  const person = b.ref ? personBoard(b.ref) : undefined;
  /** The share of the longer net coupled at the pair's class gap, of `on`'s tracks. */
  const coupling = (on: typeof board, plus: string, minus: string) =>
    pairCoupling(
      on.tracks.filter((t) => t.net === on.netByName.get(plus)),
      on.tracks.filter((t) => t.net === on.netByName.get(minus)),
      gapTolerance(rules.netClass(board.netByName.get(plus)!).diffPairGap),
    );
  const pairs: PairFigures[] = [];
  const measured = b.dru
    ? measureNets(
        design,
        board.nets.map((n) => n.code),
      )
    : undefined;
  for (const net of board.nets) {
    const p = diffPairOf(net.name, board.netByName);
    if (!p || p.polarity !== '+' || (b.nets && b.nets[0] !== net.name)) continue;
    const plus = board.netByName.get(net.name)!;
    const minus = board.netByName.get(p.partner)!;
    const open = result.open_connections.filter((c) => c.net === net.name || c.net === p.partner);
    const c = coupling(board, net.name, p.partner);
    pairs.push({
      pair: `${net.name} ${p.partner}`,
      made: open.length === 0,
      held: open.some((o) => o.reason === 'rule_not_supported'),
      unmatched: open.some((o) => o.reason === 'length_rule'),
      ...(open.length > 0 ? { open: open.map((o) => `${o.net} ${o.from}–${o.to}: ${o.reason}`) } : {}),
      length_mm: [mm(c.lengthP), mm(c.lengthN)],
      difference_mm: mm(Math.abs(c.lengthP - c.lengthN)),
      coupled_fraction: Math.round(1000 * c.share) / 1000,
      uncoupled_mm: mm(c.uncoupled),
      ...(person ? { person_coupled_fraction: Math.round(1000 * coupling(person, net.name, p.partner).share) / 1000 } : {}),
      ...routedAs(result.pairs.find((x) => x.net === net.name)),
    });
    if (measured) {
      const [lp, ln] = [measured.get(plus)!.total, measured.get(minus)!.total];
      Object.assign(pairs[pairs.length - 1], { kicad_length_mm: [mm(lp), mm(ln)], skew_mm: mm(Math.abs(lp - ln)) });
    }
  }
  // The bench's judge: KiCad's DRC of both boards with the project's rules, zones refilled.
  const reports = join(work, 'reports', fileName(b.name));
  mkdirSync(reports, { recursive: true });
  execFileSync('/usr/bin/python3', [JUDGE, b.bare, routed, '--pro', b.pro, ...(b.dru ? ['--dru', b.dru] : []), '--keep-reports', reports], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, KICAD_CLI: kicad.cli, PCBNEW_PYTHON: kicad.python },
  });
  const errors = (report: string) => {
    const c: Record<string, number> = {};
    for (const v of JSON.parse(readFileSync(join(reports, report), 'utf8')).violations as { type: string; severity: string }[])
      if (v.severity === 'error') c[v.type] = (c[v.type] ?? 0) + 1;
    return c;
  };
  const bare = errors('bare.drc.json');
  const added: Record<string, number> = {};
  for (const [t, n] of Object.entries(errors('routed.drc.json'))) if (n > (bare[t] ?? 0)) added[t] = n - (bare[t] ?? 0);
  return {
    board: b.name,
    seconds: result.seconds,
    rules: b.dru ? readFileSync(b.dru, 'utf8').match(/\(constraint [^\n]*\)(?=\))/g) : undefined,
    pairs,
    drc_added: added,
  };
}

const records: Record<string, unknown>[] = [];
console.log(
  `pairs: made (both nets complete) · held (a rule the router does not model) · unmatched (left open by a length or skew rule) · coupled = share of the longer net within the class gap ± 10 %`,
);
for (const b of boards()) {
  const rec = await measure(b);
  records.push(rec);
  if ('error' in rec) {
    console.log(`${b.name.padEnd(44)} failed: ${rec.error}`);
    continue;
  }
  const ps = rec.pairs as PairFigures[];
  const added = Object.entries(rec.drc_added as Record<string, number>).map(([t, n]) => `${t} +${n}`);
  console.log(
    `${b.name.padEnd(44)} pairs ${String(ps.length).padStart(2)}  made ${ps.filter((p) => p.made).length}  held ${ps.filter((p) => p.held).length}  unmatched ${ps.filter((p) => p.unmatched).length}  ` +
      `coupled ≥ ${COUPLED_SHARE}: ${ps.filter((p) => p.coupled_fraction >= COUPLED_SHARE).length}  DRC added: ${added.length ? added.join(', ') : 'none'}`,
  );
  if (rec.rules) console.log(`    rules: ${(rec.rules as string[]).join('; ')}`);
  for (const p of ps) {
    const kicadLength = p.kicad_length_mm ? `  as KiCad measures ${p.kicad_length_mm[0]} / ${p.kicad_length_mm[1]} mm  skew ${p.skew_mm} mm` : '';
    const state = p.made ? 'made' : p.held ? 'held' : p.unmatched ? 'unmatched' : 'open';
    console.log(
      `    ${p.pair.padEnd(40)} ${state}${p.routed_coupled ? ' as a pair' : ''}  length ${p.length_mm[0]} / ${p.length_mm[1]} mm  difference ${p.difference_mm} mm${kicadLength}  coupled ${p.coupled_fraction}${p.person_coupled_fraction !== undefined ? ` (the person's ${p.person_coupled_fraction})` : ''}  uncoupled ${p.uncoupled_mm} mm`,
    );
    if (p.why && p.coupled_fraction < COUPLED_SHARE) console.log(`        why: ${p.why}`);
    if (p.open) console.log(`        open: ${p.open.join('; ')}`);
  }
}
const all = records.flatMap((r) => (r.pairs as PairFigures[] | undefined) ?? []);
const routedPairs = all.filter((p) => p.made);
const sorted = routedPairs.map((p) => p.coupled_fraction).sort((a, b) => a - b);
const beside = routedPairs.filter((p) => p.person_coupled_fraction !== undefined);
console.log(
  `\n${records.length} boards, ${all.length} pairs: ${routedPairs.length} made, ${all.filter((p) => p.held).length} held, ${all.filter((p) => p.unmatched).length} unmatched; ` +
    `coupled ≥ ${COUPLED_SHARE} in ${routedPairs.filter((p) => p.coupled_fraction >= COUPLED_SHARE).length} of the made; ` +
    `laid as a pair ${routedPairs.filter((p) => p.routed_coupled).length}; below ${COUPLED_SHARE} with a reason ${routedPairs.filter((p) => p.coupled_fraction < COUPLED_SHARE && p.why).length} of ${routedPairs.filter((p) => p.coupled_fraction < COUPLED_SHARE).length}; median coupled share ${sorted.length ? sorted[Math.floor(sorted.length / 2)] : '—'}; ` +
    `on dev boards coupled as much as the person's routing or more in ${beside.filter((p) => p.coupled_fraction >= p.person_coupled_fraction!).length} of ${beside.length} made, the person's ≥ ${COUPLED_SHARE} in ${beside.filter((p) => p.person_coupled_fraction! >= COUPLED_SHARE).length}; ` +
    `boards with DRC errors added: ${records.filter((r) => r.drc_added && Object.keys(r.drc_added).length > 0).length} (judged by KiCad ${kicad.version})`,
);
mkdirSync(resolve(outFile, '..'), { recursive: true });
writeFileSync(outFile, JSON.stringify(records, null, 1));
console.log(`records: ${outFile}`);
