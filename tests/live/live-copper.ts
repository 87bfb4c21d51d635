// The copper a live editor holds (tracks, arcs and vias, by id), and Ctrl+Z pressed in it until
// that copper is as it was: what the routing live tests ask of a commit; and what they start from
// (a bench board with rules of their own, a net's pads selected, the host's action context).
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { BoardItem, KicadClient } from '../../ipc/index.ts';
import { trackLength } from '../../engine/geom/arc.ts';
import { hostPorts, type ActionContext } from '../../plugin/kicad-host/actions.ts';
import { BoardSync } from '../../plugin/kicad-host/board-sync.ts';
import type { Kicad } from '../support/kicad.ts';
import { benchBoard, type KicadInstance } from './kicad-harness.ts';

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

/** A bench board in `kicad`'s format, copied with its project, with `dru` as its custom rules. */
export function benchBoardWithRules(tier: string, name: string, kicad: Kicad, dru: string): string {
  const from = benchBoard(tier, name, kicad);
  const to = join(mkdtempSync(join(tmpdir(), 'tm-live-rules-')), basename(from));
  copyFileSync(from, to);
  copyFileSync(from.replace(/\.kicad_pcb$/, '.kicad_pro'), to.replace(/\.kicad_pcb$/, '.kicad_pro'));
  writeFileSync(to.replace(/\.kicad_pcb$/, '.kicad_dru'), dru);
  return to;
}

/** The plugin host's action context on a live editor's client, its log discarded. */
export function actionContext(client: KicadClient): ActionContext {
  return { client: async () => client, sync: new BoardSync((design, files) => hostPorts(design, files, () => undefined)), log: () => undefined };
}

/** Selects in the editor exactly the pads of `net`; returns how many. */
export async function selectPadsOf(client: KicadClient, net: string): Promise<number> {
  const pads = (await client.pads()).filter((p) => p.net === net);
  await client.clearSelection();
  await client.addToSelection(pads.map((p) => p.id));
  return pads.length;
}

/** A net's copper among `items` as KiCad measures its length: the tracks and arcs (along the arc),
 *  and each through via of a two-layer 1.6 mm board (1.545 mm in KiCad 9, 1.580 mm in KiCad 10). */
export function lengthOf(items: readonly BoardItem[], net: string, kicad: Kicad): number {
  const via = kicad.major >= 10 ? 1_580_000 : 1_545_000;
  return items
    .filter((i) => netOf(i) === net)
    .reduce((n, i) => (i.kind === 'track' || i.kind === 'arc' ? n + trackLength(i) : i.kind === 'via' ? n + via : n), 0);
}
