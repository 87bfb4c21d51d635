// New copper written to KiCad as one undo step, the way the tests of the IPC client exercise a
// commit end to end: begin, create, push; any failure drops the commit. Then the items are read
// back, because KiCad re-nets copper that touches another net's copper only after the commit.
// (The plugin writes its routes with plugin/kicad-host/write-back.ts.)

import { type BoardItem, type KicadClient, KicadIpcError, type NewItem } from '../../ipc/index.ts';

export interface WriteResult {
  items: BoardItem[];
  /** Items whose net KiCad changed because their copper touches another net's copper. */
  renetted: { id: string; asked: string; got: string }[];
}

export async function writeCopper(client: KicadClient, items: NewItem[], message: string): Promise<WriteResult> {
  const commit = await client.beginCommit();
  let created: BoardItem[];
  try {
    created = await commit.create(items);
    await commit.push(message);
  } catch (err) {
    await commit.drop().catch((dropErr: unknown) => {
      throw new AggregateError([err, dropErr], `${(err as Error).message}; dropping the commit failed too`);
    });
    throw err;
  }
  const ids = created.map((c) => ('id' in c ? c.id : ''));
  const kinds = [...new Set(items.map((i) => i.kind))];
  const byId = new Map<string, BoardItem>();
  for (const item of await client.itemsById(ids, kinds)) if ('id' in item) byId.set(item.id, item);
  const final: BoardItem[] = [];
  const renetted: WriteResult['renetted'] = [];
  created.forEach((c, i) => {
    const now = 'id' in c ? byId.get(c.id) : undefined;
    if (!now || !('net' in now) || !('id' in now)) throw new KicadIpcError(`item ${i} is missing after the commit`);
    final.push(now);
    if (now.net !== items[i].net) renetted.push({ id: now.id, asked: items[i].net, got: now.net });
  });
  return { items: final, renetted };
}
