import { describe, expect, it } from 'vitest';
import { StateStore } from '../../../engine/session/states.ts';
import { NO_COPPER, copperDigest } from '../../../engine/session/copper.ts';

const track = (x: number) => ({ start: { x, y: 0 }, end: { x: x + 1000, y: 0 }, width: 200_000, layer: 0, net: 1 });

describe('state store', () => {
  it('undoes to the parent, restores any kept state and branches after a restore', () => {
    const s = new StateStore<undefined>();
    const a = s.push({ tool: 'route', args: {} }, { tracks: [track(0)], vias: [] }, undefined);
    const b = s.push({ tool: 'route', args: {} }, { tracks: [track(0), track(5)], vias: [] }, undefined);
    expect(s.undo().id).toBe(a.id);
    expect(s.undo().id).toBe(0);
    expect(() => s.undo()).toThrow(/input state/);
    s.restore(a.id);
    const c = s.push({ tool: 'rip_net', args: {} }, NO_COPPER, undefined);
    expect([c.id, c.parent]).toEqual([3, 1]);
    expect(s.get(b.id)).toBeDefined();
    expect(c.digest).toBe(s.get(0)!.digest);
  });

  it('keeps at most cap states, never dropping the input or the current one', () => {
    const s = new StateStore<undefined>(4);
    for (let i = 0; i < 10; i++) s.push({ tool: 'route', args: {} }, { tracks: [track(i)], vias: [] }, undefined);
    expect(s.list().map((x) => x.id)).toEqual([0, 8, 9, 10]);
    s.restore(8);
    s.push({ tool: 'route', args: {} }, NO_COPPER, undefined);
    expect(s.list().map((x) => x.id)).toEqual([0, 8, 10, 11]);
    expect(() => s.restore(9)).toThrow(/no state 9/);
    // Moves are capped the same way, numbered over the whole session.
    expect(s.moves().map((m) => [m.n, m.tool, m.from, m.to])).toEqual([
      [9, 'route', 8, 9],
      [10, 'route', 9, 10],
      [11, 'restore', 10, 8],
      [12, 'route', 8, 11],
    ]);
    expect(s.movesMade).toBe(12);
  });

  it('keeps a marked state through many tries that are restored away (branches go first)', () => {
    const s = new StateStore<undefined>(4);
    const mark = s.push({ tool: 'route', args: {} }, { tracks: [track(0)], vias: [] }, undefined);
    for (let i = 1; i <= 20; i++) {
      // A try of two changes from the mark, then back to it, as the repair agent does.
      s.push({ tool: 'rip', args: {} }, NO_COPPER, undefined);
      s.push({ tool: 'route_connection', args: {} }, { tracks: [track(i)], vias: [] }, undefined);
      expect(s.restore(mark.id).id).toBe(mark.id);
    }
    expect(s.list().length).toBeLessThanOrEqual(4);
    expect(s.list().map((x) => x.id)).toContain(0);
  });

  it('records who moved: a restore by someone other than the restore tool says so', () => {
    const s = new StateStore<undefined>();
    s.push({ tool: 'route', args: {} }, { tracks: [track(0)], vias: [] }, undefined);
    s.restore(0, { tool: 'sync', args: { reason: 'undo in the editor' } });
    expect(s.moves().at(-1)).toEqual({ n: 2, tool: 'sync', args: { reason: 'undo in the editor' }, from: 1, to: 0 });
  });

  it('digests copper in canonical order', () => {
    expect(copperDigest({ tracks: [track(0), track(5)], vias: [] })).toBe(copperDigest({ tracks: [track(5), track(0)], vias: [] }));
    expect(copperDigest({ tracks: [track(0)], vias: [] })).not.toBe(copperDigest({ tracks: [track(1)], vias: [] }));
  });
});
