// A net under a custom rule the router does not model (here a length rule) stays open through
// both front doors: `tracemaker route --json` lists its connections with the typed reason and
// the sentence naming the rule and the file, and a session's route and stuck_report do too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { calls, jsonLines, tracemaker } from './cli.ts';

const ASSETS = join(import.meta.dirname, '..', '..', 'assets');
const dir = mkdtempSync(join(tmpdir(), 'tmk-held-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DRU = `(version 1)\n(rule "len_n1"\n  (condition "A.NetName == 'N1'")\n  (constraint length (max 10mm)))\n`;
const WHY = 'Custom rule "len_n1" in board.kicad_dru sets a length constraint the router does not model; route this net by hand.';

function stage(): string {
  writeFileSync(join(dir, 'board.kicad_pcb'), readFileSync(join(ASSETS, 'demo.kicad_pcb')));
  writeFileSync(join(dir, 'board.kicad_pro'), readFileSync(join(ASSETS, 'demo.kicad_pro')));
  writeFileSync(join(dir, 'board.kicad_dru'), DRU);
  return join(dir, 'board.kicad_pcb');
}

type Obj = Record<string, any>;

describe('nets under unmodelled custom rules', () => {
  const board = stage();

  it('tracemaker route --json lists them open with rule_not_supported and routes the rest', () => {
    const r = tracemaker(['route', board, '--out', join(dir, 'out.kicad_pcb'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data.open).toBeGreaterThan(0);
    expect(data.routed).toBeGreaterThan(0);
    for (const c of data.open_connections as Obj[]) expect(c).toMatchObject({ net: 'N1', reason: 'rule_not_supported', why: WHY, blockers: [], tried: false });
    expect(data.nets.find((n: Obj) => n.net === 'N1')).toMatchObject({ routed: 0, tracks: 0, vias: 0 });
    expect(data.nets.filter((n: Obj) => n.net !== 'N1').every((n: Obj) => n.open === 0)).toBe(true);
    const warnings = JSON.parse(tracemaker(['info', board, '--json']).stdout).warnings as string[];
    expect(warnings.some((w) => w.includes('rule "len_n1": constraint length is not supported; the router leaves the nets it may govern unrouted'))).toBe(true);
  });

  it('a session reports them in route, open_connections and stuck_report', () => {
    const out = join(dir, 'session.kicad_pcb');
    const r = tracemaker(['session', board, '--out', out, '--jsonl'], calls([['route'], ['open_connections'], ['stuck_report']]));
    expect(r.code, r.stderr).toBe(0);
    const [route, open, stuck] = jsonLines(r.stdout);
    expect(route.committed).toBe(true);
    expect(route.open.length).toBeGreaterThan(0);
    for (const c of route.open) expect(c).toMatchObject({ net: 'N1', reason: 'rule_not_supported', why: WHY });
    for (const c of open.connections) expect(c).toMatchObject({ net: 'N1', reason: 'rule_not_supported', why: WHY });
    expect(stuck.reasons).toEqual({ rule_not_supported: route.open.length });
    for (const c of stuck.connections) expect(c).toMatchObject({ net: 'N1', reason: 'rule_not_supported', why: WHY, blockers: [] });
  });
});
