// `tracemaker session --replay LOG BOARD --out FILE` with the real router, from the command line:
// a short logged session (route, rip_net, undo, rip_net, route a net, save) replays to the same
// saved bytes; a changed log is caught and the message names the call.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fnv1a64 } from '../../engine/session/digest.ts';
import { benchBoards } from '../support/bench.ts';
import { calls, jsonLines, tracemaker } from './cli.ts';

const board = benchBoards().find((b) => b.name === 'BB-PWR-8009_BB-PWR-8009_revA')!;

/** The log with call `seq`'s arguments replaced and every chain digest recomputed, as a forger
 *  who knows the format would do: only re-running the calls can catch it. */
function rechained(log: string, seq: number, args: object): string {
  const [head, ...lines] = log.trim().split('\n');
  let chain = JSON.parse(head).chain as string;
  const out = [head];
  for (const line of lines) {
    const { chain: _old, ...body } = JSON.parse(line);
    if (body.seq === seq) body.args = args;
    chain = fnv1a64(JSON.stringify(body), chain);
    out.push(JSON.stringify({ ...body, chain }));
  }
  return out.join('\n') + '\n';
}

describe('session replay with the real router', () => {
  it('replays a logged session to the same saved bytes and names the call a changed log breaks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-'));
    // Which net the router gives copper is the router's business: ask a first session.
    const probe = tracemaker(['session', board.bare, '--out', join(dir, 'probe.kicad_pcb'), '--jsonl'], calls([['route']]));
    const net: string = jsonLines(probe.stdout)[0].nets[0].net;

    const saved = join(dir, 'saved.kicad_pcb');
    const log = join(dir, 'session.log');
    const script: [string, object?][] = [['route'], ['rip_net', { net }], ['undo'], ['rip_net', { net }], ['route', { nets: [net], seed: 3 }], ['save']];
    const run = tracemaker(['session', board.bare, '--out', saved, '--log', log, '--jsonl'], calls(script));
    expect(run.code, run.stderr).toBe(0);
    const answers = jsonLines(run.stdout);
    expect(answers.map((a) => a.error)).toEqual(script.map(() => undefined));
    expect(answers[4].committed).toBe(true);
    expect(answers[5].saved).toBe(true);
    const text = readFileSync(log, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(script.length + 1);

    const again = join(dir, 'again.kicad_pcb');
    const ok = tracemaker(['session', '--replay', log, board.bare, '--out', again]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`replayed ${script.length} calls`);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(saved, 'utf8'));

    // An edit the chain catches: call 5's seed changed in place.
    const edited = join(dir, 'edited.log');
    writeFileSync(edited, text.replace('"seed":3', '"seed":4'));
    const bad = tracemaker(['session', '--replay', edited, board.bare, '--out', join(dir, 'x.kicad_pcb')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('(call 5, "route")');
    expect(bad.stderr).toContain('chain digest differs');

    // A consistent forgery: call 1 asks for less work and the chain is redone; the re-run result differs.
    const forged = join(dir, 'forged.log');
    writeFileSync(forged, rechained(text, 1, { work: 1000 }));
    const caught = tracemaker(['session', '--replay', forged, board.bare, '--out', join(dir, 'y.kicad_pcb')]);
    expect(caught.code).toBe(1);
    expect(caught.stderr).toContain('(call 1, "route")');
    expect(caught.stderr).toContain('the result differs');
  });
});
