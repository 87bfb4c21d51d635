// One truth for open connections: on a real bench board where a route with little work leaves
// connections open, route's open_total, open_connections, stuck_report and board_info count the
// same set (the session's, zone fills connecting), and stuck_report gives each a reason.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../plugin/session-host.ts';
import { benchBoards } from '../support/bench.ts';
import { ok } from '../support/tool-results.ts';

// A tier C board whose router counts its open pieces differently from the session (a net the
// router leaves in more pieces than the file's copper and fills show).
const board = benchBoards().find((b) => b.name === 'fan_controller_fan_controller')!;

describe('open connections', () => {
  it('are one set for route, open_connections, stuck_report and board_info', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'tm-')), 'o.kicad_pcb');
    const { session: s } = openSession({ board: board.bare, out, threads: 1, diagnostics: () => undefined });
    const route = ok(await s.call('route', { work: 1_000_000 }));
    expect(route.committed).toBe(true);
    expect(route.open_total).toBeGreaterThan(0);
    const listed = ok(await s.call('open_connections', {}));
    const stuck = ok(await s.call('stuck_report', {}));
    const info = ok(await s.call('board_info', {}));
    expect([listed.total, stuck.open, info.open_connections]).toEqual([route.open_total, route.open_total, route.open_total]);
    expect(Object.values(stuck.reasons).reduce((x, y) => x + y, 0)).toBe(route.open_total);
    expect(stuck.connections.map((c) => [c.net, c.a, c.b])).toEqual(listed.connections.map((c) => [c.net, c.a, c.b]));
    for (const c of stuck.connections) expect(c.why?.length).toBeGreaterThan(10);

    // A dry run reports on the copper it would leave, the same set its answer counted; the state's
    // own count is unchanged.
    const dry = ok(await s.call('route', { commit: false }));
    const after = ok(await s.call('stuck_report', {}));
    expect(after).toMatchObject({ committed: false, open: dry.open_total, state: route.state });
    expect(ok(await s.call('board_info', {})).open_connections).toBe(route.open_total);
  });
});
