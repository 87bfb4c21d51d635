// Write-back against a stand-in for KiCad: one commit with deletes and creates, nets by name, locked;
// a failure drops the commit; copper KiCad moved to another net is undone again.
import { describe, expect, it } from 'vitest';
import type { Board } from '../../../engine/board/model.ts';
import type { BoardItem, KicadClient, NewItem } from '../../../ipc/index.ts';
import { commitMessage, copperDiff, toNewItem, writeBack, WriteBackError } from '../../../plugin/kicad-host/write-back.ts';

const board = {
  copperLayers: [
    { index: 0, name: 'F.Cu' },
    { index: 1, name: 'B.Cu' },
  ],
  nets: [
    { code: 0, name: '' },
    { code: 1, name: 'SDA' },
    { code: 2, name: 'SCL' },
  ],
} as unknown as Board;
const t = (x: number, net = 1) => ({ start: { x, y: 0 }, end: { x: x + 10, y: 0 }, width: 200_000, layer: 0, net });
const via = { at: { x: 5, y: 5 }, size: 600_000, drill: 300_000, layerFrom: 0, layerTo: 1, net: 2 };

class FakeKicad {
  log: string[] = [];
  items: BoardItem[] = [];
  renet: string | null = null;
  failCreate = false;
  #next = 1;
  async beginCommit() {
    this.log.push('begin');
    const staged: BoardItem[] = [];
    return {
      delete: async (ids: string[]) => void this.log.push(`delete ${ids.join(',')}`),
      create: async (items: NewItem[]) => {
        if (this.failCreate) throw new Error('ISC_INVALID_DATA');
        this.log.push(`create ${items.map((i) => `${i.kind}:${i.net}:${i.locked}`).join(',')}`);
        const made = items.map((i) => ({ ...i, id: `id${this.#next++}`, locked: !!i.locked }) as unknown as BoardItem);
        staged.push(...made);
        return made;
      },
      push: async (message: string) => {
        this.log.push(`push ${message}`);
        this.items.push(...staged.map((i) => (this.renet ? { ...i, net: this.renet } : i)));
      },
      drop: async () => void this.log.push('drop'),
    };
  }
  async items_(kinds: string[]) {
    return this.items.filter((i) => kinds.includes(i.kind));
  }
  async runAction(name: string) {
    this.log.push(`action ${name}`);
    return 'ok';
  }
}

function client(fake: FakeKicad): KicadClient {
  return {
    beginCommit: () => fake.beginCommit(),
    itemsById: async (ids: string[], k: string[]) => (await fake.items_(k)).filter((i) => 'id' in i && ids.includes(i.id)),
    runAction: (n: string) => fake.runAction(n),
  } as unknown as KicadClient;
}

describe('write-back', () => {
  it('diffs states by content, so ripped copper is removed and kept copper is not rewritten', () => {
    const before = { tracks: [t(0), t(100)], vias: [] };
    const after = { tracks: [t(100), t(200), t(200)], vias: [via] };
    const d = copperDiff(board, before, after);
    expect(d.added).toEqual([{ track: t(200) }, { track: t(200) }, { via }]);
    expect(d.removed).toEqual([{ track: t(0) }]);
  });

  it('names nets and layers, locks everything, and labels the commit', () => {
    expect(toNewItem(board, { track: t(0) })).toEqual({
      kind: 'track',
      start: { x: 0, y: 0 },
      end: { x: 10, y: 0 },
      width: 200_000,
      layer: 'F.Cu',
      net: 'SDA',
      locked: true,
    });
    expect(toNewItem(board, { via })).toMatchObject({
      kind: 'via',
      net: 'SCL',
      diameter: 600_000,
      drill: 300_000,
      type: 'through',
      startLayer: 'F.Cu',
      endLayer: 'B.Cu',
      locked: true,
    });
    expect(() => toNewItem(board, { track: t(0, 7) })).toThrow(/net code 7/);
    expect(commitMessage(['SDA', 'SCL', 'INT'])).toBe('Route 3 nets: SDA, SCL, INT');
    expect(commitMessage(['SDA'])).toBe('Route 1 net: SDA');
    expect(commitMessage(Array.from({ length: 10 }, (_, i) => `N${i}`))).toBe('Route 10 nets: N0, N1, N2, N3, N4, N5, N6, N7, and 2 more');
  });

  it('writes one commit: removals, then the new items, then push; and checks them back', async () => {
    const fake = new FakeKicad();
    const r = await writeBack(client(fake), board, { added: [{ track: t(0) }, { via }], removed: [] }, ['old1'], 'Route 2 nets: SDA, SCL');
    expect(fake.log).toEqual(['begin', 'delete old1', 'create track:SDA:true,via:SCL:true', 'push Route 2 nets: SDA, SCL']);
    expect(r.uuids).toEqual(['id1', 'id2']);
  });

  it('drops the commit when KiCad refuses an item', async () => {
    const fake = new FakeKicad();
    fake.failCreate = true;
    await expect(writeBack(client(fake), board, { added: [{ track: t(0) }], removed: [] }, [], 'Route 1 net: SDA')).rejects.toThrow('ISC_INVALID_DATA');
    expect(fake.log).toEqual(['begin', 'drop']);
  });

  it('undoes the commit when KiCad put copper on another net', async () => {
    const fake = new FakeKicad();
    fake.renet = 'GND';
    const err = await writeBack(client(fake), board, { added: [{ track: t(0) }], removed: [] }, [], 'Route 1 net: SDA').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WriteBackError);
    expect((err as WriteBackError).message).toMatch(/meant for net "SDA" ended on "GND"/);
    expect((err as WriteBackError).reverted).toBe(true);
    expect(fake.log.at(-1)).toBe('action common.Interactive.undo');
  });
});
