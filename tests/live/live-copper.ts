// The copper a live editor holds (tracks, arcs and vias, by id), and Ctrl+Z pressed in it until
// that copper is as it was: what the routing live tests ask of a commit.
import type { BoardItem, KicadClient } from '../../ipc/index.ts';
import type { KicadInstance } from './kicad-harness.ts';

export async function copper(client: KicadClient): Promise<BoardItem[]> {
  return client.items(['track', 'arc', 'via']);
}

export const idOf = (i: BoardItem): string => ('id' in i ? i.id : '');
export const netOf = (i: BoardItem): string => ('net' in i ? i.net : '');

/** Presses Ctrl+Z once and waits (up to 15 s) for the copper to count as many items as `before`;
 *  returns the ids it then holds. */
export async function undoOnce(instance: KicadInstance, client: KicadClient, before: ReadonlySet<string>): Promise<Set<string>> {
  instance.key('ctrl+z');
  const deadline = Date.now() + 15_000;
  let now = await copper(client);
  while (now.length !== before.size && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    now = await copper(client);
  }
  return new Set(now.map(idOf));
}
