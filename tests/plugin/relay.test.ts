// The relay end to end through the built command: start, call, a bad call, stop; the socket
// is private to the user and every exchange lands in the transcript.
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchBoards } from '../support/bench.ts';
import { tracemaker } from './cli.ts';

const board = benchBoards().find((b) => b.name === 'Blink-Eras_AVR_ISP_Pogo')!;
const tm = (...args: string[]) => tracemaker(args);

describe('relay', () => {
  it('keeps a session between calls on a private socket and writes a transcript', () => {
    const name = `test-${process.pid}`;
    const out = join(mkdtempSync(join(tmpdir(), 'tm-')), 'o.kicad_pcb');
    const started = tm('relay', 'start', name, board.bare, '--out', out);
    expect(started.code).toBe(0);
    const { transcript } = JSON.parse(started.stdout);
    const sock = transcript.replace('.transcript.jsonl', '.sock');
    expect(statSync(sock).mode & 0o777).toBe(0o600);
    const a = tm('relay', 'call', name, 'open_connections', '{"limit":1}');
    expect(JSON.parse(a.stdout).total).toBe(6);
    const bad = tm('relay', 'call', name, 'open_connections', '{"limit":0}');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBe('bad_argument');
    // A route's work bounds the whole call; an estimate routes nothing (a dry run keeps the board as it was).
    const est = JSON.parse(tm('relay', 'call', name, 'route', '{"work":100000,"estimate":true}').stdout);
    expect(est).toMatchObject({ estimate: true, variants: 2, work: { per_variant: 50_000, bound: 100_000, used: 0 } });
    const dry = JSON.parse(tm('relay', 'call', name, 'route', '{"work":100000,"commit":false}').stdout);
    expect(dry).toMatchObject({ committed: false, reason: 'dry_run', work: { bound: 100_000 } });
    expect(dry.work.used).toBeGreaterThan(0);
    expect(dry.work.used).toBeLessThanOrEqual(100_000 + 20_000);
    expect(JSON.parse(tm('relay', 'call', name, 'board_info').stdout).work.used).toBe(dry.work.used);
    // Discovery: the running relay's tools are session --tools's, and tools/list is no tool.
    const tools = JSON.parse(tm('relay', 'tools', name).stdout).tools;
    expect(tools).toEqual(JSON.parse(tm('session', '--tools').stdout).tools);
    const unknown = tm('relay', 'call', name, 'tools/list');
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.message).toContain(`the tools are ${tools.map((t: { name: string }) => t.name).join(', ')} (`);
    const saved = JSON.parse(tm('relay', 'call', name, 'save').stdout);
    expect(saved.saved).toBe(true);
    expect(saved.rules_written).toEqual(['o.kicad_pro']);
    expect(readFileSync(out.replace(/pcb$/, 'pro'), 'utf8')).toBe(readFileSync(board.pro, 'utf8'));
    expect(JSON.parse(tm('relay', 'stop', name).stdout)).toEqual({ stopped: true });
    expect(existsSync(sock)).toBe(false);
    const lines = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(board.bare, 'utf8'));
  });
});
