// A session's `route` is `tracemaker route`: over all nets with the defaults it saves the bytes
// the command writes (real bench boards, both through the built command), and the saved bytes do
// not depend on how many threads the variants run on, a call left open and routing a further round
// of variants included.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Board } from '../../engine/board/model.ts';
import { generateBoard } from '../../engine/kicad/generate-board.ts';
import { loadDesign } from '../../engine/kicad/load.ts';
import { addCopper } from '../../engine/kicad/write-board.ts';
import { defaultWork, ESCALATION, footprintWork } from '../../engine/route/index.ts';
import { LARGE_BOARD_PADS, routeDefaults } from '../../plugin/session-route.ts';
import { benchBoards } from '../support/bench.ts';
import { calls, jsonLines, tracemaker } from './cli.ts';

const BOARDS = ['Blink-Eras_AVR_ISP_Pogo', 'BB-PWR-8009_BB-PWR-8009_revA'];
const bench = (name: string) => benchBoards().find((b) => b.name === name)!;

/** Runs a JSON-lines session over `board` with the given calls; returns the answers and the saved text. */
function session(board: string, list: [string, object?][], flags: string[] = []) {
  const out = join(mkdtempSync(join(tmpdir(), 'tm-')), 'session.kicad_pcb');
  const r = tracemaker(['session', board, '--out', out, '--jsonl', ...flags], calls(list));
  expect(r.code, r.stderr).toBe(0);
  return { answers: jsonLines(r.stdout), saved: readFileSync(out, 'utf8') };
}

/**
 * A generated board whose first part is ringed by fixed track of no net (of a net, the ring would
 * be connections of its own to make) on both copper layers: closed, a proven fence; or, with
 * `lane`, open on F.Cu by one track's lane, through which only one of the part's nets gets out
 * and the other is blocked by it whatever the order.
 */
function ringed(lane: boolean): string {
  const g = generateBoard({ nets: 8, padsPerNet: 2, layers: 2, width: 30, height: 25, seed: 4 });
  const board = loadDesign({ board: g.board, project: g.project }).board;
  const part = board.pads.find((p) => p.net > 0)!.footprint;
  const pads = board.pads.filter((p) => p.footprint === part);
  const m = 1_200_000;
  const x0 = Math.min(...pads.map((p) => p.at.x - p.size.w / 2)) - m;
  const x1 = Math.max(...pads.map((p) => p.at.x + p.size.w / 2)) + m;
  const y0 = Math.min(...pads.map((p) => p.at.y - p.size.h / 2)) - m;
  const y1 = Math.max(...pads.map((p) => p.at.y + p.size.h / 2)) + m;
  // 0.75 mm between the ring's edges: a 0.25 mm track and its clearance each side, not two.
  const half = 500_000;
  const xm = (x0 + x1) / 2;
  const side = (layer: number) =>
    [
      ...(lane && layer === 0
        ? [
            [x0, y0, xm - half, y0],
            [xm + half, y0, x1, y0],
          ]
        : [[x0, y0, x1, y0]]),
      [x1, y0, x1, y1],
      [x1, y1, x0, y1],
      [x0, y1, x0, y0],
    ].map(([ax, ay, bx, by]) => ({ start: { x: ax, y: ay }, end: { x: bx, y: by }, width: 250_000, layer, net: 0, locked: true }));
  const dir = mkdtempSync(join(tmpdir(), 'tm-'));
  writeFileSync(join(dir, 'ringed.kicad_pro'), g.project);
  writeFileSync(join(dir, 'ringed.kicad_pcb'), addCopper(board, [...side(0), ...side(1)], []));
  return join(dir, 'ringed.kicad_pcb');
}

describe('session route equals tracemaker route', () => {
  for (const name of BOARDS) {
    it(`writes the bytes tracemaker route writes on ${name}`, () => {
      const b = bench(name);
      const cliOut = join(mkdtempSync(join(tmpdir(), 'tm-')), 'cli.kicad_pcb');
      const cli = tracemaker(['route', b.bare, '--out', cliOut, '--json']);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout).routed).toBeGreaterThan(0);
      const s = session(b.bare, [['route'], ['save']]);
      expect(s.answers[0].committed).toBe(true);
      expect(s.answers[0].work.used).toBe(JSON.parse(cli.stdout).work);
      expect(s.answers[1].saved).toBe(true);
      const written = readFileSync(cliOut, 'utf8');
      expect(written).not.toBe(readFileSync(b.bare, 'utf8'));
      expect(s.saved).toBe(written);
    });
  }

  it('routes within an ample work limit as without one (the limit caps, it does not resize the budget)', () => {
    const b = bench('BB-PWR-8009_BB-PWR-8009_revA');
    const free = session(b.bare, [['route'], ['save']]);
    const limited = session(b.bare, [['route'], ['save']], ['--work-limit', '1000000000']);
    expect(limited.answers[0].work.bound).toBe(free.answers[0].work.bound);
    expect(limited.answers[0].work.used).toBe(free.answers[0].work.used);
    expect(limited.saved).toBe(free.saved);
  });

  it('routes a call left open a further round of variants, with the same answers on one thread and two', () => {
    const board = ringed(true);
    const one = session(board, [['route', { estimate: true }], ['route'], ['save']], ['--threads', '1']);
    const two = session(board, [['route'], ['save']], ['--threads', '2']);
    const [estimate, routed] = one.answers;
    expect(routed.open.map((c: { reason: string }) => c.reason)).toEqual(['blocked']);
    // Both rounds of both variants ran, and the two variants the further round adds: the bound is
    // the estimate's for a call left open, ESCALATION times the first round's and those variants'
    // own bounds (footprintWork).
    expect(estimate.variants).toBe(2);
    expect(routed.work.bound).toBe(estimate.work.bound);
    expect(routed.work.bound).toBe(ESCALATION * 2 * defaultWork(estimate.connections) + footprintWork(defaultWork(estimate.connections)));
    expect(two.answers[0]).toEqual(routed);
    expect(two.saved).toBe(one.saved);
  }, 300_000);

  it('routes no further round where what stays open is fenced in by fixed copper', () => {
    const [estimate, routed] = session(ringed(false), [['route', { estimate: true }], ['route'], ['save']]).answers;
    expect(routed.open.map((c: { reason: string }) => c.reason)).toEqual(['boxed_in', 'boxed_in']);
    expect(routed.work.bound).toBe(2 * defaultWork(estimate.connections));
    // Nor any other try of its own: a variant spends on it only its proof.
    expect(routed.work.used).toBeLessThan(defaultWork(estimate.connections));
  });

  it('routes call after call on the workers kept from the first as on one thread: the same answers and bytes', () => {
    const b = bench('BB-PWR-8009_BB-PWR-8009_revA');
    // A net first, then the rest beside it, then the rest again once undone: the workers keep the
    // design and obstacle maps of the first call and route each later call's own request.
    const list: [string, object?][] = [['route', { nets: ['Net-(C2-Pad1)'] }], ['route'], ['undo'], ['route'], ['save']];
    const one = session(b.bare, list, ['--threads', '1']);
    const two = session(b.bare, list, ['--threads', '2']);
    expect(one.answers[0].committed).toBe(true);
    expect(one.answers[1].committed).toBe(true);
    expect(two.answers).toEqual(one.answers);
    // Routed again after the undo, the call answers as it did, but for the state it makes and the
    // session's running total of work.
    const again = (a: { work: object }) => ({ ...a, state: 0, work: { ...a.work, total_used: 0 } });
    expect(again(two.answers[3])).toEqual(again(two.answers[1]));
    expect(two.saved).toBe(one.saved);
  });

  it('saves the same bytes with one thread and with two for the same board, options, seed and work', () => {
    const b = bench('BB-PWR-8009_BB-PWR-8009_revA');
    const args = { variants: 3, seed: 7, work: 3_000_000 };
    const one = session(b.bare, [['route', args], ['save']], ['--threads', '1']);
    const two = session(b.bare, [['route', args], ['save']], ['--threads', '2']);
    expect(one.answers[0].committed).toBe(true);
    expect(two.answers).toEqual(one.answers);
    expect(two.saved).toBe(one.saved);
    // And the command line with the same options and threads agrees with both.
    const cliOut = join(mkdtempSync(join(tmpdir(), 'tm-')), 'cli.kicad_pcb');
    const cli = tracemaker(['route', b.bare, '--out', cliOut, '--variants', '3', '--seed', '7', '--work', '3000000', '--threads', '2']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(readFileSync(cliOut, 'utf8')).toBe(one.saved);
  });
});

describe('route defaults', () => {
  // Only the pad count picks the variants and threads: a board stands in by its pads alone.
  const withPads = (n: number) => ({ pads: Array.from({ length: n }) }) as unknown as Board;

  it('routes two variants, and one for named nets above LARGE_BOARD_PADS pads, with the same seed and no work of its own', () => {
    for (const whole of [true, false]) {
      expect(routeDefaults(withPads(400), { whole })).toMatchObject({ variants: 2, seed: 1 });
      expect(routeDefaults(withPads(LARGE_BOARD_PADS), { whole }).variants).toBe(2);
    }
    expect(routeDefaults(withPads(LARGE_BOARD_PADS + 1), { whole: true })).toMatchObject({ variants: 2, seed: 1 });
    expect(routeDefaults(withPads(LARGE_BOARD_PADS + 1), { whole: false })).toMatchObject({ variants: 1, seed: 1 });
  });

  it('answers a session estimate with as many variants as the rule gives, on the largest bench board', () => {
    const [whole, named] = session(bench('kicad-demo_video').bare, [
      ['route', { estimate: true }],
      ['route', { estimate: true, nets: ['/buspci.sch/EQ0'] }],
      ['save'],
    ]).answers;
    expect(whole.variants).toBe(2);
    expect(named.variants).toBe(1);
  });

  it('runs a small board on the calling thread and a larger one on up to two', () => {
    expect(routeDefaults(withPads(20), { whole: true }).threads).toBe(1);
    expect(routeDefaults(withPads(400), { whole: false }).threads).toBe(Math.min(2, availableParallelism()));
  });
});
