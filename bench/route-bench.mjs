// Routes every bare board of a benchmark set with the built CLI, judges each output with
// ../shared/bench/tools/judge.py (KiCad's DRC is the judge) and prints the PCBWorld table per
// tier: CP, Rout., DRV, WL, Via, Seg/100mm (track items per 100 mm of track), Time, beside the reference
// routing's WL, Via and Seg/100mm.
// Each board is judged once, with its project's rules but every DRC type added copper could cause
// raised to error (engine/drc/kicad-audit.json): CP, DRV and DRV+ are by the project's own
// severities, DRV+s counts every such type. An error (by the project's severities) KiCad finds more
// of on the routed board than on the bare one, of a type the engine does not model, fails the run
// (exit 1), loudly.
//   npm run bench -- [--kicad 9|10] [--cli DIST/tracemaker.js] [--set DIR] [--out FILE] [--tier A] [--only SUBSTR[,SUBSTR…]] [--every N] [--threads T] [--variants V] [--work W]
// --kicad 10 routes the bench's KiCad 10 copy and judges with KiCad 10 (default 9, or TRACEMAKER_KICAD).
// --selected: the plugin's everyday case instead of bare boards: from each reference board a stable
// quarter of its routed signal nets (at most 10, no zone nets; bench/strip-nets.ts) is stripped and
// routed back with --nets; judged against the stripped board, length against the person's.
// --every N [--offset K] keeps the boards of each tier whose index by name is K mod N (a fixed
// subset when time is short; offsets 0..N-1 together cover the tier).
// A script that prints figures, not a pass/fail test.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kicadChoice, SHARED } from './kicad-choice.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const kicad = kicadChoice(args);
const setDir = resolve(opt('set', kicad.boards));
const outFile = resolve(opt('out', join(root, 'bench', 'out', 'route-bench.json')));
const onlyTier = opt('tier', undefined);
// A board runs where its name holds any of the comma-separated substrings.
const only = opt('only', undefined)?.split(',');
const every = Math.max(1, Number(opt('every', 1)));
const offset = Number(opt('offset', 0));
const extra = [];
for (const f of ['threads', 'variants', 'work', 'seed']) if (opt(f)) extra.push(`--${f}`, opt(f));
const judge = join(SHARED, 'bench', 'tools', 'judge.py');
// The judge itself is plain python; KiCad's programs reach it through kicad.env.
const python = '/usr/bin/python3';
const cli = resolve(opt('cli', join(root, 'dist', 'tracemaker.js')));
const GNU_TIME = '/usr/bin/time';
const work = join(dirname(outFile), 'boards');
mkdirSync(work, { recursive: true });

const manifest = new Map();
// A set's own manifest beside it, else the shared bench's (the KiCad 10 copy has the same boards).
const own = resolve(setDir, '..', 'manifest.jsonl');
const mf = existsSync(own) ? own : join(SHARED, 'bench', 'manifest.jsonl');
if (existsSync(mf))
  for (const line of readFileSync(mf, 'utf8').split('\n'))
    if (line.trim()) {
      const r = JSON.parse(line);
      manifest.set(r.name, r);
    }

const selected = args.includes('--selected');
const boards = [];
for (const tier of readdirSync(setDir).sort()) {
  if (onlyTier && tier !== onlyTier) continue;
  const names = readdirSync(join(setDir, tier)).sort();
  for (const [k, name] of names.entries()) {
    if (only && !only.some((o) => name.includes(o))) continue;
    if (k % every !== offset) continue;
    const bare = join(setDir, tier, name, `${name}${selected ? '.ref' : ''}.kicad_pcb`);
    if (existsSync(bare)) boards.push({ tier, name, bare });
  }
}
if (selected && boards.length > 0) {
  const stripped = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', join(here, 'strip-nets.ts'), join(work, 'stripped'), ...boards.map((b) => b.bare)], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    }),
  );
  for (const b of boards) {
    const s = stripped[b.bare];
    Object.assign(b, { bare: s.board, nets: s.nets, personMm: s.person_mm, personVias: s.person_vias, personSegments: s.person_segments });
  }
}

// Every type added copper could cause, and the ones the engine checks (engine/drc/kicad-audit.json).
const audit = JSON.parse(readFileSync(join(root, 'engine', 'drc', 'kicad-audit.json'), 'utf8')).types;
const causable = audit.filter((e) => e.status !== 'not_from_copper' && !e.reportedOnly).map((e) => e.type);
const modelled = new Set(audit.filter((e) => e.status === 'modelled').map((e) => e.type));
const sidecar = (board, ext) => {
  const stem = board.slice(0, -'.kicad_pcb'.length);
  for (const c of [stem, stem.replace(/\.(ref|bare|nozones|routed)$/, '')]) if (existsSync(c + ext)) return c + ext;
  return null;
};
// The project's severities (KiCad's defaults where it says nothing) and the strict copy of it.
const severities = (pro) => {
  const sev = pro ? (JSON.parse(readFileSync(pro, 'utf8')).board?.design_settings?.rule_severities ?? {}) : {};
  const out = {};
  for (const e of audit) out[e.type] = sev[e.type] ?? (typeof e.severity === 'string' ? e.severity : e.severity[String(kicad.major)]);
  return out;
};
const strictProject = (pro, file) => {
  const data = pro ? JSON.parse(readFileSync(pro, 'utf8')) : {};
  const ds = ((data.board ??= {}).design_settings ??= {});
  ds.rule_severities ??= {};
  for (const t of causable) ds.rule_severities[t] = 'error';
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
};
const countTypes = (report) => {
  const c = {};
  for (const v of JSON.parse(readFileSync(report, 'utf8')).violations ?? []) c[v.type] = (c[v.type] ?? 0) + 1;
  return c;
};
const unmodelledSeen = [];

const records = [];
for (const b of boards) {
  const out = join(work, `${b.name}.routed.kicad_pcb`);
  const t0 = process.hrtime.bigint();
  // GNU time, where the machine has it, reports the route's peak memory (its worker threads
  // included: they share the process).
  const routeArgs = [cli, 'route', b.bare, '--out', out, '--json', ...(b.nets ? ['--nets', b.nets.join(',')] : []), ...extra];
  const r = existsSync(GNU_TIME)
    ? spawnSync(GNU_TIME, ['-f', 'max_rss_kb %M', 'node', ...routeArgs], { encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync('node', routeArgs, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const rss = /max_rss_kb (\d+)/.exec(r.stderr ?? '');
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  let summary = null;
  try {
    summary = JSON.parse(r.stdout);
  } catch {
    summary = null;
  }
  let verdict = null;
  if (r.status === 0) {
    try {
      const pro = sidecar(b.bare, '.kicad_pro');
      const reports = join(work, 'reports', b.name);
      mkdirSync(reports, { recursive: true });
      const strict = strictProject(pro, join(reports, 'strict.kicad_pro'));
      verdict = JSON.parse(
        execFileSync(python, [judge, b.bare, out, '--time', seconds.toFixed(3), '--pro', strict, '--keep-reports', reports], {
          encoding: 'utf8',
          maxBuffer: 1 << 28,
          env: kicad.env,
        }),
      );
      if (verdict.ok) {
        // The judge saw every causable type as an error; the project's own view is recovered per type.
        const sev = severities(pro);
        const bare = countTypes(join(reports, 'bare.drc.json'));
        const routed = countTypes(join(reports, 'routed.drc.json'));
        const own = (c) => Object.entries(c).reduce((n, [t, k]) => n + (sev[t] === 'error' || !(t in sev) ? k : 0), 0);
        const added = {};
        for (const [t, k] of Object.entries(routed)) if (k > (bare[t] ?? 0)) added[t] = k - (bare[t] ?? 0);
        // KiCad's judgement is the project's: an error it reports that the engine cannot see fails
        // the run; the same type at a lower severity is shown (DRV+s) but does not.
        for (const t of Object.keys(added)) if (!modelled.has(t) && sev[t] === 'error') unmodelledSeen.push(`${b.tier}/${b.name}: ${t} +${added[t]}`);
        Object.assign(verdict, {
          drv: own(routed),
          drv_new: Math.max(0, own(routed) - own(bare)),
          drv_by_type: Object.fromEntries(Object.entries(routed).filter(([t]) => sev[t] === 'error' || !(t in sev))),
          strict_added: added,
          clean_pass: verdict.fully_connected && verdict.integrity_ok && own(routed) === 0,
        });
      }
    } catch (e) {
      verdict = { ok: false, error: String(e.message ?? e).slice(0, 300) };
    }
  }
  const m = manifest.get(b.name) ?? {};
  const rec = {
    tier: b.tier,
    name: b.name,
    pins: m.pins,
    ok: r.status === 0 && !!verdict?.ok,
    error: r.status === 0 ? verdict?.error : (r.stderr || '').slice(0, 500),
    seconds,
    // The router's own time inside the process (without node's start-up and the file I/O).
    route_seconds: summary?.seconds ?? null,
    max_rss_mb: rss ? Math.round(Number(rss[1]) / 1024) : null,
    clean_pass: !!verdict?.clean_pass,
    routability: verdict?.routability ?? 0,
    drv: verdict?.drv ?? null,
    drv_new: verdict?.drv_new ?? null,
    drv_by_type: verdict?.drv_by_type ?? {},
    strict_added: verdict?.strict_added ?? {},
    wirelength_mm: verdict?.wirelength_mm ?? 0,
    vias: verdict?.vias ?? 0,
    // Track items added (segments; the router draws no arcs), against the person's segments and arcs.
    segments: summary?.tracks ?? 0,
    // Selected mode compares the added copper with what the person drew for those nets.
    ...(b.nets
      ? {
          nets: b.nets,
          wirelength_mm: summary?.length_mm ?? 0,
          vias: summary?.vias ?? 0,
          ref_wirelength_mm: b.personMm,
          ref_vias: b.personVias,
          ref_segments: b.personSegments,
        }
      : {
          ref_wirelength_mm: m.ref_wirelength_mm ?? null,
          ref_vias: m.ref_vias ?? null,
          ref_segments: m.ref_segments === undefined ? null : m.ref_segments + (m.ref_arcs ?? 0),
        }),
    open: summary?.open ?? null,
    work: summary?.work ?? null,
    reasons: (summary?.open_connections ?? []).map((c) => c.reason),
  };
  records.push(rec);
  console.log(
    `${b.tier} ${b.name.padEnd(44)} CP ${rec.clean_pass ? 1 : 0} rout ${rec.routability.toFixed(3)} drv ${rec.drv ?? '-'} ${JSON.stringify(rec.drv_by_type)} strict+ ${JSON.stringify(rec.strict_added)} WL ${rec.wirelength_mm.toFixed(1)}/${rec.ref_wirelength_mm ?? '-'} via ${rec.vias}/${rec.ref_vias ?? '-'} seg ${rec.segments}/${rec.ref_segments ?? '-'} ${seconds.toFixed(2)} s${rec.max_rss_mb ? ` ${rec.max_rss_mb} MB` : ''}${rec.ok ? '' : ' ERROR ' + (rec.error ?? '')}`,
  );
}

const median = (xs) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const k = Math.floor(s.length / 2);
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
};
console.log(
  `\njudged by KiCad ${kicad.version} on ${setDir}${selected ? ", selected nets stripped from the reference routing and routed back (WL and Via: the added copper against the person's for those nets)" : ''}`,
);
// Seg/100mm: track items per 100 mm of track, over the tier's added copper, beside the person's.
console.log('tier  boards  CP     Rout.  DRV  DRV+ DRV+s WL (ref)            Via (ref)    Seg/100mm (ref)    Time med (max)');
const tiers = [];
for (const tier of [...new Set(records.map((r) => r.tier))]) {
  const rs = records.filter((r) => r.tier === tier);
  const cp = rs.filter((r) => r.clean_pass).length / rs.length;
  const rout = rs.reduce((s, r) => s + r.routability, 0) / rs.length;
  const drv = rs.reduce((s, r) => s + (r.drv ?? 0), 0);
  const added = rs.reduce((s, r) => s + (r.drv_new ?? 0), 0);
  const strictAdded = rs.reduce((s, r) => s + Object.values(r.strict_added ?? {}).reduce((a, k) => a + k, 0), 0);
  const wl = rs.reduce((s, r) => s + r.wirelength_mm, 0);
  const rwl = rs.reduce((s, r) => s + (r.ref_wirelength_mm ?? 0), 0);
  const via = rs.reduce((s, r) => s + r.vias, 0);
  const rvia = rs.reduce((s, r) => s + (r.ref_vias ?? 0), 0);
  const seg = rs.reduce((s, r) => s + (r.segments ?? 0), 0);
  const rseg = rs.reduce((s, r) => s + (r.ref_segments ?? 0), 0);
  const density = (n, mm) => (mm > 0 ? (100 * n) / mm : 0);
  const d = density(seg, wl);
  const rd = density(rseg, rwl);
  const t = rs.map((r) => r.seconds);
  console.log(
    `${tier.padEnd(5)} ${String(rs.length).padEnd(7)} ${cp.toFixed(2).padEnd(6)} ${rout.toFixed(3).padEnd(6)} ${String(drv).padEnd(4)} ${String(added).padEnd(4)} ${String(strictAdded).padEnd(5)} ${wl.toFixed(0).padStart(7)} (${rwl.toFixed(0)}) ${(wl / (rwl || 1)).toFixed(2)}×  ${String(via).padStart(5)} (${rvia}) ${(via / (rvia || 1)).toFixed(2)}×  ${d.toFixed(1).padStart(5)} (${rd.toFixed(1)}) ${(d / (rd || 1)).toFixed(2)}×  ${median(t).toFixed(2)} s (${Math.max(...t).toFixed(1)})`,
  );
  const r3 = (x) => Math.round(x * 1000) / 1000;
  tiers.push({
    tier,
    boards: rs.length,
    clean_pass: r3(cp),
    routability: r3(rout),
    drv,
    drv_added: added,
    drv_strict_added: strictAdded,
    wirelength_mm: r3(wl),
    ref_wirelength_mm: r3(rwl),
    vias: via,
    ref_vias: rvia,
    segments: seg,
    ref_segments: rseg,
    seg_per_100mm: r3(d),
    ref_seg_per_100mm: r3(rd),
    seg_ratio: r3(d / (rd || 1)),
    seconds_median: r3(median(t)),
    seconds_max: r3(Math.max(...t)),
  });
}
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify(records, null, 2) + '\n');
// The per-tier figures of the table beside the records (the records file stays a plain list).
const tiersFile = outFile.replace(/(\.json)?$/, '.tiers.json');
writeFileSync(tiersFile, JSON.stringify(tiers, null, 2) + '\n');
console.log(`\nrecords: ${outFile}\ntiers: ${tiersFile}`);
if (unmodelledSeen.length) {
  console.error(`\nFAIL: KiCad found more of a type the engine does not model on ${unmodelledSeen.length} routed board(s) than on the bare board:`);
  for (const u of unmodelledSeen) console.error(`  ${u}`);
  process.exitCode = 1;
}
