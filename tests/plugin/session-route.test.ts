// A session's `route` is `tracemaker route`: over all nets with the defaults it saves the bytes
// the command writes (real bench boards, both through the built command), and the saved bytes do
// not depend on how many threads the variants run on.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
