// The router on real files, judged by KiCad, once per KiCad version under test: generated boards
// and small bench boards, in that version's own format (KiCad 10: the bench's KiCad 10 copy, and
// generated boards upgraded by kicad-cli 10), route with zero added DRC errors by that version's
// kicad-cli (through the bench judge); and the output is byte-identical for the same board,
// options, seed and work, whatever the thread count.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateBoard } from '../../../../engine/kicad/generate-board.ts';
import { loadDesign } from '../../../../engine/kicad/load.ts';
import { addCopper } from '../../../../engine/kicad/write-board.ts';
import { pickBest, routeDesign, routeVariant, variantRequest, type RouteResult } from '../../../../engine/route/index.ts';
import { BENCH, benchOf } from '../../../support/bench.ts';
import { kicads, type Kicad } from '../../../support/kicad.ts';

const JUDGE = resolve(BENCH, '..', 'tools', 'judge.py');
const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'dist', 'tracemaker.js');
const tmp = mkdtempSync(join(tmpdir(), 'tm-route-'));

interface Verdict {
  kicad_version: string;
  clean_pass: boolean;
  drv_new: number;
  unconnected_routed: number;
  integrity_ok: boolean;
}

/** The bench judge (plain Python) with `kicad`'s kicad-cli and pcbnew, which it takes from its
 *  environment; it checks the verdict came from that version. */
function judge(kicad: Kicad, bare: string, routed: string): Verdict {
  const env = { ...process.env, KICAD_CLI: kicad.cli, PCBNEW_PYTHON: kicad.python };
  const v = JSON.parse(execFileSync('/usr/bin/python3', [JUDGE, bare, routed], { encoding: 'utf8', maxBuffer: 64 << 20, env })) as Verdict;
  expect(v.kicad_version).toBe(kicad.version);
  return v;
}

/** The project as `kicad` judges it: under KiCad 10 a track ending inside a via off its centre
 *  (track_not_centered_on_via, a check KiCad 10 added and ignores by default) is an error too, so
 *  the router's vias are judged by it. */
function projectFor(kicad: Kicad, project: string): string {
  if (kicad.major < 10) return project;
  const pro = JSON.parse(project);
  pro.board.design_settings.rule_severities.track_not_centered_on_via = 'error';
  return JSON.stringify(pro, null, 2);
}

/** A board file in `kicad`'s own format: KiCad 9 texts as they are, KiCad 10 after kicad-cli 10's
 *  upgrade (nets by name), so the router reads and writes what a KiCad 10 user has. */
function inFormatOf(kicad: Kicad, file: string): string {
  if (kicad.major < 10) return readFileSync(file, 'utf8');
  execFileSync(kicad.cli, ['pcb', 'upgrade', '--force', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(`(generator_version "${kicad.major}.`);
  return text;
}

/** The clean-up's promises: no zero-length track, no two vias of a net on one site, and every
 *  via ends a track of its net (none dangles). */
function expectTidy(result: RouteResult): void {
  const sites = new Set<string>();
  for (const t of result.tracks) expect(t.start.x !== t.end.x || t.start.y !== t.end.y).toBe(true);
  for (const v of result.vias) {
    const key = `${v.net}@${v.at.x},${v.at.y}`;
    expect(sites.has(key), `second via of net ${v.net} at ${v.at.x},${v.at.y}`).toBe(false);
    sites.add(key);
    const ends = result.tracks.filter((t) => t.net === v.net && ((t.start.x === v.at.x && t.start.y === v.at.y) || (t.end.x === v.at.x && t.end.y === v.at.y)));
    expect(ends.length, `via of net ${v.net} at ${v.at.x},${v.at.y} ends no track`).toBeGreaterThan(0);
  }
}

describe.each(kicads().map((k) => [k.version, k] as const))('routes judged by KiCad %s', (_version, k) => {
  const dir = join(tmp, `kicad${k.major}`);
  mkdirSync(dir, { recursive: true });
  const cases = [
    { nets: 10, padsPerNet: 3, layers: 2, width: 35, height: 30, seed: 11 },
    { nets: 18, padsPerNet: 4, layers: 2, width: 45, height: 35, seed: 12 },
    { nets: 14, padsPerNet: 3, layers: 4, width: 35, height: 30, seed: 13 },
    // Dense enough to need vias, under rules that allow blind/buried or micro-vias.
    { nets: 45, padsPerNet: 4, layers: 4, width: 55, height: 45, seed: 22, blindVias: true },
    { nets: 45, padsPerNet: 4, layers: 4, width: 55, height: 45, seed: 22, microVias: true },
  ];
  it.each(
    cases.map((c) => [`${c.nets}n×${c.padsPerNet} ${c.layers}L seed ${c.seed}${c.blindVias ? ' blind vias' : c.microVias ? ' micro-vias' : ''}`, c] as const),
  )('generated %s routes clean', (_name, c) => {
    const g = generateBoard(c);
    expect(generateBoard(c).board).toBe(g.board);
    const stem = `gen-${c.seed}${c.blindVias ? 'b' : c.microVias ? 'm' : ''}`;
    const bare = join(dir, `${stem}.kicad_pcb`);
    writeFileSync(bare, g.board);
    writeFileSync(bare.replace(/\.kicad_pcb$/, '.kicad_pro'), projectFor(k, g.project));
    const text = inFormatOf(k, bare);
    const design = loadDesign({ board: text, project: g.project });
    expect(design.board.dialect).toBe(k.major >= 10 ? 'net-names' : 'net-codes');
    const result = routeDesign(design, { seed: 1 });
    const routed = join(dir, `${stem}.routed.kicad_pcb`);
    writeFileSync(routed, addCopper(design.board, result.tracks, result.vias));
    expectTidy(result);
    if (c.blindVias || c.microVias) {
      expect(result.vias.length).toBeGreaterThan(0);
      for (const v of result.vias) expect(v.type).toBe(c.blindVias ? 'blind' : 'micro');
    }
    const v = judge(k, bare, routed);
    expect(v.integrity_ok).toBe(true);
    expect(v.drv_new).toBe(0);
    // Whatever stays open carries a reason.
    expect(v.unconnected_routed === 0 || result.open.every((o) => o.stuck && o.stuck.why.length > 0)).toBe(true);
    if (result.open.length === 0) expect(v.clean_pass).toBe(true);
  });

  // BB-PWR-8009: R1.2 leaves only through the lane midway between R1's pads, which a grid of a
  // third of the track pitch straddled (issue 3); the step now divides half the pad pitch.
  it.each(['Blink-Eras_AVR_ISP_Pogo', 'BB-PWR-8009_BB-PWR-8009_revA'])('routes tier-A bench board %s to a clean pass', (name) => {
    const bare = join(benchOf(k), 'A', name, `${name}.kicad_pcb`);
    const design = loadDesign({ board: readFileSync(bare, 'utf8'), project: readFileSync(bare.replace(/\.kicad_pcb$/, '.kicad_pro'), 'utf8') });
    const result = routeDesign(design);
    expect(result.open).toEqual([]);
    const routed = join(dir, `${name}.routed.kicad_pcb`);
    writeFileSync(routed, addCopper(design.board, result.tracks, result.vias));
    expect(judge(k, bare, routed).clean_pass).toBe(true);
  });

  // ecc83-pp's GND zone on B.Cu joins every GND pad: routed by tracks first like any net, GND
  // gives them all back once the rest is routed, and KiCad, refilling, finds every pad joined.
  it('routes kicad-demo_ecc83-pp clean with the ground plane joining its pads', () => {
    const name = 'kicad-demo_ecc83-pp';
    const bare = join(benchOf(k), 'A', name, `${name}.kicad_pcb`);
    const design = loadDesign({ board: readFileSync(bare, 'utf8'), project: readFileSync(bare.replace(/\.kicad_pcb$/, '.kicad_pro'), 'utf8') });
    const gnd = design.board.nets.findIndex((n) => n?.name === 'GND');
    const result = routeDesign(design);
    expect(result.open).toEqual([]);
    // The plane joined GND before routing and still does: no connection to make, no track.
    expect(result.connections.filter((c) => c.net === gnd)).toEqual([]);
    expect(result.tracks.filter((t) => t.net === gnd)).toEqual([]);
    expect(result.summary.routed).toBe(14);
    const routed = join(dir, `${name}.routed.kicad_pcb`);
    writeFileSync(routed, addCopper(design.board, result.tracks, result.vias));
    expect(judge(k, bare, routed).clean_pass).toBe(true);
  });
});

describe('determinism', () => {
  const g = generateBoard({ nets: 12, padsPerNet: 3, layers: 2, width: 35, height: 30, seed: 21 });
  it('same board, seed and work give the same bytes; variants pick by the fixed order', () => {
    const d = loadDesign({ board: g.board, project: g.project });
    const a = routeDesign(d, { seed: 5, variants: 3, work: 5_000_000 });
    const b = routeDesign(loadDesign({ board: g.board, project: g.project }), { seed: 5, variants: 3, work: 5_000_000 });
    expect(addCopper(d.board, a.tracks, a.vias)).toBe(addCopper(d.board, b.tracks, b.vias));
    const each = [0, 1, 2].map((i) => routeVariant(d, variantRequest({ seed: 5, variants: 3, work: 5_000_000 }), i));
    expect(pickBest(each).tracks).toEqual(a.tracks);
  });

  it.skipIf(!existsSync(CLI))('the CLI writes identical bytes on one and two threads', () => {
    const bare = join(tmp, 'det.kicad_pcb');
    writeFileSync(bare, g.board);
    writeFileSync(join(tmp, 'det.kicad_pro'), g.project);
    const run = (threads: number) => {
      const out = join(tmp, `det.t${threads}.kicad_pcb`);
      const r = spawnSync('node', [CLI, 'route', bare, '--out', out, '--variants', '3', '--threads', String(threads), '--seed', '3'], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(out, 'utf8');
    };
    expect(run(2)).toBe(run(1));
  });
});
