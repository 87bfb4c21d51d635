import { describe, expect, it } from 'vitest';
import { loadDesignFile } from '../../../plugin/design-files.ts';
import { Session } from '../../../engine/session/session.ts';
import { repairAgent } from '../../../engine/session/repair-agent.ts';
import { benchBoards } from '../../support/bench.ts';
import { FAKE_COST, fakePorts } from './fake-router.ts';

describe('the scripted repair agent', () => {
  it('drives a session through its tools and stops at the work limit', async () => {
    const b = benchBoards().find((x) => x.name === 'Blink-Eras_AVR_ISP_Pogo')!;
    const s = new Session(loadDesignFile(b.bare), fakePorts(), { boardName: 'b', workLimit: 4 * FAKE_COST });
    const r = await repairAgent(s);
    expect(r.open_before).toBe(6);
    expect(r.open_after).toBeLessThan(6);
    expect(r.work_used).toBeLessThanOrEqual(4 * FAKE_COST);
  });
});
