// A net under a custom rule the router does not model (here a track angle rule) stays open through
// both front doors: `tracemaker route --json` lists its connections with the typed reason and
// the sentence naming the rule and the file, and a session's route and stuck_report do too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OpenConnectionsResult, RouteDoneResult, StuckReportResult } from '../../engine/session/results.ts';
import { ok } from '../support/tool-results.ts';
import { calls, jsonLines, tracemaker } from './cli.ts';

const ASSETS = join(import.meta.dirname, '..', '..', 'assets');
const dir = mkdtempSync(join(tmpdir(), 'tmk-held-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DRU = `(version 1)\n(rule "len_n1"\n  (condition "A.NetName == 'N1'")\n  (constraint track_angle (min 45deg)))\n`;
const WHY = 'Custom rule "len_n1" in board.kicad_dru sets a track_angle constraint the router does not model; route this net by hand.';

function stage(): string {
  writeFileSync(join(dir, 'board.kicad_pcb'), readFileSync(join(ASSETS, 'demo.kicad_pcb')));
  writeFileSync(join(dir, 'board.kicad_pro'), readFileSync(join(ASSETS, 'demo.kicad_pro')));
  writeFileSync(join(dir, 'board.kicad_dru'), DRU);
  return join(dir, 'board.kicad_pcb');
}

/** What this test reads of `tracemaker route --json` (written by plugin/commands/route.ts). */
interface RouteJson {
  routed: number;
  open: number;
  nets: { net: string; routed: number; open: number; tracks: number; vias: number }[];
  open_connections: { net: string; reason?: string; why?: string }[];
}

describe('nets under unmodelled custom rules', () => {
  const board = stage();

  it('tracemaker route --json lists them open with rule_not_supported and routes the rest', () => {
    const r = tracemaker(['route', board, '--out', join(dir, 'out.kicad_pcb'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const data: RouteJson = JSON.parse(r.stdout);
    expect(data.open).toBeGreaterThan(0);
    expect(data.routed).toBeGreaterThan(0);
    for (const c of data.open_connections) expect(c).toMatchObject({ net: 'N1', reason: 'rule_not_supported', why: WHY, blockers: [], tried: false });
    expect(data.nets.find((n) => n.net === 'N1')).toMatchObject({ routed: 0, tracks: 0, vias: 0 });
    expect(data.nets.filter((n) => n.net !== 'N1').every((n) => n.open === 0)).toBe(true);
    const warnings: string[] = JSON.parse(tracemaker(['info', board, '--json']).stdout).warnings;
    expect(warnings.some((w) => w.includes('rule "len_n1": constraint track_angle is not supported; the router leaves the nets it may govern unrouted'))).toBe(
      true,
    );
  });

  it('a session reports them in route, open_connections and stuck_report', () => {
    const out = join(dir, 'session.kicad_pcb');
    const r = tracemaker(['session', board, '--out', out, '--jsonl'], calls([['route'], ['open_connections'], ['stuck_report']]));
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    const route = ok<RouteDoneResult>(lines[0]);
    const open = ok<OpenConnectionsResult>(lines[1]);
    const stuck = ok<StuckReportResult>(lines[2]);
    expect(route.committed).toBe(true);
    expect(route.open.length).toBeGreaterThan(0);
    for (const c of route.open) expect(c).toMatchObject({ net: 'N1', reason: 'rule_not_supported', why: WHY });
    for (const c of open.connections) expect(c).toMatchObject({ net: 'N1', reason: 'rule_not_supported', why: WHY });
    expect(stuck.reasons).toEqual({ rule_not_supported: route.open.length });
    for (const c of stuck.connections) expect(c).toMatchObject({ net: 'N1', reason: 'rule_not_supported', why: WHY, blockers: [] });
  });
});
