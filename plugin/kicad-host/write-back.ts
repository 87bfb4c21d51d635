// Puts a route into the live editor: the difference between two session states becomes new tracks and
// vias (locked, nets by name) plus the removal of the host's own copper the router ripped, all in one
// KiCad commit named after the nets. Afterwards every created item is read back; if KiCad dropped one
// or moved it to another net, the commit is undone again, so nothing half-written stays on the board.
import type { Board } from '../../engine/board/model.ts';
import type { NewTrack, NewVia } from '../../engine/board/added-copper.ts';
import type { SessionCopper } from '../../engine/session/copper.ts';
import type { BoardItem, KicadClient, NewItem } from '../../ipc/index.ts';
import { copperItems, copperKey } from './board-sync.ts';

type CopperItem = ReturnType<typeof copperItems>[number];

/** What a route changed: items to create and items (of the host's earlier copper) to remove. */
export interface CopperDiff {
  added: CopperItem[];
  removed: CopperItem[];
}

/** Multiset difference of two states' copper, by content. */
export function copperDiff(board: Board, before: SessionCopper, after: SessionCopper): CopperDiff {
  const count = new Map<string, number>();
  for (const i of copperItems(before)) count.set(copperKey(board, i), (count.get(copperKey(board, i)) ?? 0) + 1);
  const added: CopperItem[] = [];
  for (const i of copperItems(after)) {
    const k = copperKey(board, i);
    const n = count.get(k) ?? 0;
    if (n > 0) count.set(k, n - 1);
    else added.push(i);
  }
  const removed: CopperItem[] = [];
  const left = new Map(count);
  for (const i of copperItems(before)) {
    const k = copperKey(board, i);
    const n = left.get(k) ?? 0;
    if (n > 0) {
      removed.push(i);
      left.set(k, n - 1);
    }
  }
  return { added, removed };
}

/** Engine copper → the IPC client's new items: layer and net names from the board, locked unless told otherwise. */
export function toNewItem(board: Board, item: CopperItem, locked = true): NewItem {
  const layer = (i: number) => {
    const l = board.copperLayers[i];
    if (!l) throw new Error(`write-back: copper layer ${i} is not on the board`);
    return l.name;
  };
  const net = (code: number) => {
    const n = board.nets[code];
    if (!n || code === 0) throw new Error(`write-back: net code ${code} is not in the board's net table`);
    return n.name;
  };
  if ('track' in item) {
    const t: NewTrack = item.track;
    if (t.mid) return { kind: 'arc', start: t.start, mid: t.mid, end: t.end, width: t.width, layer: layer(t.layer), net: net(t.net), locked };
    return { kind: 'track', start: t.start, end: t.end, width: t.width, layer: layer(t.layer), net: net(t.net), locked };
  }
  const v: NewVia = item.via;
  const [from, to] = [layer(v.layerFrom), layer(v.layerTo)];
  // The engine's "blind" is KiCad 9's blind-or-buried; KiCad names it by whether it reaches the outside.
  const outer = (i: number) => i === 0 || i === board.copperLayers.length - 1;
  const type = v.type === 'micro' ? 'micro' : v.type === 'blind' ? (outer(v.layerFrom) || outer(v.layerTo) ? 'blind' : 'buried') : 'through';
  return { kind: 'via', position: v.at, diameter: v.size, drill: v.drill, net: net(v.net), locked, type, startLayer: from, endLayer: to };
}

/** "Route 3 nets: SDA, SCL, INT" — the undo label; long lists end in "and N more". */
export function commitMessage(nets: string[]): string {
  const shown = nets.slice(0, 8);
  const more = nets.length - shown.length;
  const list = shown.join(', ') + (more > 0 ? `, and ${more} more` : '');
  return `Route ${nets.length} net${nets.length === 1 ? '' : 's'}: ${list}`;
}

/** Raised when KiCad did not keep what was written; the commit has been undone again. */
export class WriteBackError extends Error {
  override name = 'WriteBackError';
  constructor(
    message: string,
    readonly reverted: boolean,
  ) {
    super(message);
  }
}

export interface Written {
  /** KiCad's uuid of each added item, in the order of `diff.added`. */
  uuids: string[];
  ms: number;
}

/**
 * One commit: remove `removeIds`, create the added items, push with `message`; any failure drops it.
 * Then reads the new items back and checks each kept its net; if not, undoes the commit.
 */
export async function writeBack(
  client: KicadClient,
  board: Board,
  diff: CopperDiff,
  removeIds: string[],
  message: string,
  opts: { locked?: boolean } = {},
): Promise<Written> {
  const t0 = performance.now();
  const items = diff.added.map((i) => toNewItem(board, i, opts.locked ?? true));
  const commit = await client.beginCommit();
  let created: BoardItem[];
  try {
    if (removeIds.length > 0) await commit.delete(removeIds);
    created = items.length > 0 ? await commit.create(items) : [];
    await commit.push(message);
  } catch (err) {
    await commit.drop().catch(() => undefined);
    throw err;
  }
  const uuids = created.map((c) => ('id' in c ? c.id : ''));
  const kinds = [...new Set(items.map((i) => i.kind))];
  const now = new Map<string, BoardItem>();
  for (const item of await client.itemsById(uuids, kinds)) if ('id' in item) now.set(item.id, item);
  const wrong: string[] = [];
  uuids.forEach((id, i) => {
    const got = now.get(id);
    if (!got || !('net' in got)) wrong.push(`item ${i + 1} (${items[i].kind}) is missing after the commit`);
    else if (got.net !== items[i].net) wrong.push(`a ${items[i].kind} meant for net ${JSON.stringify(items[i].net)} ended on ${JSON.stringify(got.net)}`);
  });
  if (wrong.length > 0) {
    // KiCad re-nets copper that touches another net only when the commit ends, so this is the first
    // moment it shows; its own undo takes the whole commit back as one step.
    const status = await client.runAction('common.Interactive.undo').catch(() => 'failed');
    throw new WriteBackError(`KiCad did not keep the route as written: ${wrong.slice(0, 3).join('; ')}`, status === 'ok');
  }
  return { uuids, ms: Math.round(performance.now() - t0) };
}
