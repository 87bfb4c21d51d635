import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDesignFile } from '../../../plugin/design-files.ts';
import { type CallRecord, Session } from '../../../engine/session/session.ts';
import { LogWriter, replay } from '../../../engine/session/log.ts';
import { TOOL_NAMES, type ToolInput, type ToolName } from '../../../engine/session/schemas.ts';
import { isErrorValue } from '../../../engine/session/errors.ts';
import { benchBoards } from '../../support/bench.ts';
import { err, ok } from '../../support/tool-results.ts';
import { FAKE_COST, fakePorts } from './fake-router.ts';

const board = benchBoards().find((b) => b.name === 'Blink-Eras_AVR_ISP_Pogo')!;

function open(opts: { workLimit?: number; saved?: string[]; records?: CallRecord[] } = {}) {
  const design = loadDesignFile(board.bare);
  return new Session(
    design,
    fakePorts(opts.saved),
    { boardName: 'b.kicad_pcb', workLimit: opts.workLimit },
    opts.records ? (r) => opts.records!.push(r) : undefined,
  );
}

describe('session transactions', () => {
  it('lists, routes, rips, undoes and restores', async () => {
    const s = open();
    const before = ok(await s.call('open_connections', {}));
    expect(before.total).toBe(6);
    const net = before.connections[0].net;
    const r = ok(await s.call('route', { nets: [net] }));
    expect(r).toMatchObject({ committed: true, state: 1, connections: 1, routed: 1, open_after: 0, open_total: 5 });
    expect(ok(await s.call('board_info', {})).counts.session.tracks).toBe(1);
    const all = ok(await s.call('route', {}));
    expect(all).toMatchObject({ committed: true, state: 2, open_total: 0 });
    const rip = ok(await s.call('rip_net', { net }));
    expect(rip).toMatchObject({ state: 3, removed: { tracks: 1, vias: 0 }, open_total: 1 });
    expect(err(await s.call('rip_net', { net })).code).toBe('not_allowed');
    expect(ok(await s.call('undo', {}))).toMatchObject({ state: 2, open_total: 0 });
    expect(ok(await s.call('restore', { state: 1 }))).toMatchObject({ state: 1, open_total: 5 });
    // A change after a restore branches from state 1.
    const branch = ok(await s.call('rip_net', { net }));
    expect(branch.state).toBe(4);
    const h = ok(await s.call('history', {}));
    expect(h.states.map((x) => [x.id, x.parent])).toEqual([
      [0, null],
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 1],
    ]);
    expect(h.states[2].routed).toBe(6);
    expect(err(await s.call('restore', { state: 99 })).code).toBe('unknown_name');
  });

  it('keeps nothing on a dry run or a route that routes nothing', async () => {
    const s = open();
    const dry = ok(await s.call('route', { commit: false }));
    expect(dry).toMatchObject({ committed: false, reason: 'dry_run', state: 0, open_total: 0 });
    expect(ok(await s.call('board_info', {})).state).toBe(0);
    ok(await s.call('route', {}));
    const again = ok(await s.call('route', {}));
    expect(again).toMatchObject({ committed: false, reason: 'nothing_routed', state: 1 });
  });

  it('passes hints in the router vocabulary and rejects unknown names in them', async () => {
    const s = open();
    const net = ok(await s.call('open_connections', {})).connections[0].net;
    const hinted = ok(
      await s.call('route', {
        nets: [net],
        hints: { first_nets: [net], priority: { [net]: 5 }, layers: [{ net, layer: 'B.Cu', cost: 2 }], regions: [{ box_mm: [0, 0, 10, 10], mode: 'avoid' }] },
      }),
    );
    expect(hinted.committed).toBe(true);
    const bad = err(await s.call('route', { hints: { layers: [{ layer: 'In7.Cu', cost: 1 }] } }));
    expect(bad).toMatchObject({ code: 'unknown_name' });
    expect(bad.message).toContain('hints.layers.layer');
  });

  it('refuses the next call once the work limit is spent', async () => {
    const s = open({ workLimit: 3 * FAKE_COST });
    const r = ok(await s.call('route', {}));
    expect(r.work.total_used).toBe(3 * FAKE_COST);
    expect(r.routed).toBe(3);
    expect(r.work.left).toBe(0);
    const next = err(await s.call('route', {}));
    expect(next.code).toBe('limit');
    expect(ok(await s.call('board_info', {})).work).toEqual({ used: 3000, left: 0, limit: 3000 });
  });

  it('saves only through the port, the input bytes plus the session copper', async () => {
    const saved: string[] = [];
    const s = open({ saved });
    const r0 = ok(await s.call('save', {}));
    expect(r0.saved).toBe(true);
    expect(saved[0]).toBe(readFileSync(board.bare, 'utf8'));
    ok(await s.call('route', {}));
    const r1 = ok(await s.call('save', {}));
    expect(r1.counts.tracks).toBe(6);
    expect(JSON.stringify(r1)).not.toContain('/');
    expect(
      saved[1].startsWith(
        readFileSync(board.bare, 'utf8')
          .replace(/\)\s*$/, '')
          .slice(0, 1000),
      ),
    ).toBe(true);
    expect(saved[1].match(/\(segment/g)?.length).toBe(6);
  });

  it('answers every listed tool', async () => {
    const s = open();
    const listed = ok(await s.call('open_connections', {})).connections;
    const net = listed[0].net;
    ok(await s.call('route', { nets: [net] }));
    const args: { [N in ToolName]?: ToolInput<N> } = {
      rip_net: { net },
      inspect_pad: { pad: 'JP1.2' },
      inspect_net: { net },
      restore: { state: 0 },
      place_via: { net, at_mm: [149.5, 103.7336] },
      route_connection: { net: listed[1].net },
      rip: { box_mm: [130, 90, 160, 120] },
      reserve: { net, box_mm: [140, 100, 141, 101] },
    };
    for (const tool of TOOL_NAMES) {
      const r = await s.call(tool, args[tool] ?? {});
      // check needs the DRC; everything else must answer with a result, not an internal failure.
      if (tool === 'check' && isErrorValue(r)) expect(r.error.code).toBe('failed');
      else expect([tool, isErrorValue(r) ? r.error : undefined]).toEqual([tool, undefined]);
    }
  });
});

describe('log and replay', () => {
  async function script(s: Session) {
    const net = ok(await s.call('open_connections', {})).connections[1].net;
    ok(await s.call('route', { nets: [net] }));
    ok(await s.call('route', { commit: false }));
    ok(await s.call('undo', {}));
    ok(await s.call('route', {}));
    ok(await s.call('rip_net', { net }));
    err(await s.dispatch('route', { nets: [net], bogus: true }));
    ok(await s.call('save', {}));
  }

  it('replays to the same results and the same saved bytes, and catches a changed log', async () => {
    const records: CallRecord[] = [];
    const saved: string[] = [];
    const text = readFileSync(board.bare, 'utf8');
    const s = open({ records, saved });
    await script(s);
    const w = new LogWriter(text, undefined);
    const log = [w.header, ...records.map((r) => w.line(r))].join('\n') + '\n';

    const again: string[] = [];
    const replayed = await replay(log, text, open({ saved: again }));
    expect(replayed).toEqual({ ok: true, calls: records.length });
    expect(again).toEqual(saved);

    // Change one call's arguments: caught at that line even though the log's digests are intact.
    const lines = log.split('\n');
    lines[2] = lines[2].replace('"route"', '"history"');
    const bad = await replay(lines.join('\n'), text, open());
    expect(bad).toMatchObject({ ok: false, line: 3, seq: 2 });

    // Change a recorded digest, keeping the chain consistent: replay catches the result.
    const forged = new LogWriter(text, undefined);
    const recs = records.map((r, i) => (i === 4 ? { ...r, result: '0000000000000000' } : r));
    const forgedLog = [forged.header, ...recs.map((r) => forged.line(r))].join('\n');
    expect(await replay(forgedLog, text, open())).toMatchObject({ ok: false, line: 6, seq: 5, tool: 'route' });

    expect(await replay(log, text.replace('(kicad_pcb', '(kicad_pcb '), open())).toMatchObject({ ok: false, line: 1 });
  });
});

describe('call options', () => {
  it('hands progress and stop to the route port, never to the log', async () => {
    const records: CallRecord[] = [];
    const s = open({ records });
    let seen: { progress: boolean; stop: boolean } | undefined;
    const port = s.ports.route;
    s.ports.route = (d, req) => {
      seen = { progress: typeof req.onProgress === 'function', stop: req.shouldStop?.() === true };
      return port(d, req);
    };
    ok(await s.call('route', {}));
    expect(seen).toEqual({ progress: false, stop: false });
    ok(await s.call('route', {}, { onProgress: () => undefined, shouldStop: () => true }));
    expect(seen).toEqual({ progress: true, stop: true });
    expect(records.map((r) => r.args)).toEqual([{}, {}]);
  });

  it('leaves looks out of the log with record: false, and refuses it for calls that change things', async () => {
    const records: CallRecord[] = [];
    const s = open({ records });
    ok(await s.call('route', {}));
    const last = s.lastRecord;
    for (const tool of ['board_info', 'open_connections', 'history', 'render'] as const)
      expect(isErrorValue(await s.call(tool, {}, { record: false }))).toBe(false);
    expect(records.map((r) => r.tool)).toEqual(['route']);
    expect(s.lastRecord).toBe(last);
    await expect(s.call('undo', {}, { record: false })).rejects.toThrow(/record: false is only for tools that change nothing, got "undo"/);
    expect(ok(await s.call('history', {})).current).toBe(1);
  });
});

describe('history moves', () => {
  it('reports each change, undo and restore as a move between states', async () => {
    const s = open();
    const net = ok(await s.call('open_connections', {})).connections[0].net;
    ok(await s.call('route', { nets: [net] }));
    ok(await s.call('route', {}));
    ok(await s.call('undo', {}));
    ok(await s.call('restore', { state: 2 }));
    ok(await s.call('restore', { state: 0 }));
    expect(err(await s.call('undo', {})).code).toBe('not_allowed');
    const h = ok(await s.call('history', {}));
    expect(h.current).toBe(0);
    expect(h.moves).toEqual([
      { n: 1, tool: 'route', args: { nets: [net] }, from: 0, to: 1 },
      { n: 2, tool: 'route', args: {}, from: 1, to: 2 },
      { n: 3, tool: 'undo', args: {}, from: 2, to: 1 },
      { n: 4, tool: 'restore', args: { state: 2 }, from: 1, to: 2 },
      { n: 5, tool: 'restore', args: { state: 0 }, from: 2, to: 0 },
    ]);
    expect(h.moves_made).toBe(5);
    // The states themselves keep their ids: moves make none.
    expect(h.states.map((x) => x.id)).toEqual([0, 1, 2]);
  });
});
