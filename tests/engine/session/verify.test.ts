// route's verify modes and check, with the real DRC judging the stand-in router's straight
// tracks (which cut across pads of other nets, so they add errors).
import { describe, expect, it } from 'vitest';
import { loadDesignFile } from '../../../plugin/design-files.ts';
import { Session } from '../../../engine/session/session.ts';
import { sessionDrc } from '../../../engine/session/drc-summary.ts';
import { benchBoards } from '../../support/bench.ts';
import { err, ok } from '../../support/tool-results.ts';
import { fakePorts } from './fake-router.ts';

const board = benchBoards().find((b) => b.name === 'kitspace_Potentiometer_mount_4LED')!;

function open() {
  const ports = {
    ...fakePorts(),
    drc: (d: Parameters<typeof sessionDrc>[0], c: Parameters<typeof sessionDrc>[1], o: { full: boolean }) => sessionDrc(d, c, o.full),
  };
  return new Session(loadDesignFile(board.bare), ports, { boardName: 'b' });
}

describe('verify and check', () => {
  it('refuses a route that adds DRC errors, keeps it under report, and check names what was added', async () => {
    const s = open();
    const refused = ok(await s.call('route', {}));
    expect(refused.committed).toBe(false);
    expect(refused.reason).toBe('adds_drc_errors');
    expect(refused.added_errors?.length).toBeGreaterThan(0);
    expect(refused.added_errors?.[0].examples.length).toBeLessThanOrEqual(5);
    const kept = ok(await s.call('route', { verify: 'report' }));
    expect(kept.committed).toBe(true);
    expect(kept.added_errors).toEqual(refused.added_errors);
    const c = ok(await s.call('check', { full: true }));
    expect(c.added.unconnected).toBeLessThan(0);
    expect(c.added.errors.map((e) => e.type)).toEqual(kept.added_errors?.map((e) => e.type));
    const off = ok(await s.call('route', { verify: 'off', commit: false }));
    expect(off.added_errors).toBeNull();
    expect(err(await s.call('check', { refill: true })).code).toBe('not_allowed');
  });
});
