// Which nets' new copper stands in the way of a connection's copper found without it: the nets a
// route takes out to make room for a connection the fixed copper alone walls in on the grid
// (make-room.ts), each found by the exact check and set aside until that copper is clean.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { Checker } from '../core/checker.ts';
import type { RouterHost } from '../core/host.ts';
import type { ViaSpan } from '../core/via-span.ts';
import { byNetName } from '../core/net-rank.ts';

type Copper = { tracks: readonly NewTrack[]; vias: readonly NewVia[] };

/** The nets of `theirs` (other nets' copper, straight tracks as the router lays them before any
 *  meander) closer to `mine` than the rules of `host` allow, in name order; only copper is weighed,
 *  not the host's pads and the rest. */
export function clashingNets(host: RouterHost, mine: Copper, theirs: Copper): number[] {
  const checker = new Checker({ ...host, pads: [], obstacles: [], holes: [], outline: [] }, false);
  for (const t of theirs.tracks) checker.addTrack(t.net, t.layer, t.start.x, t.start.y, t.end.x, t.end.y, t.width);
  for (const v of theirs.vias) checker.addVia(v.net, v.at.x, v.at.y, span(v));
  const nets = new Set<number>();
  /** Each hit's net set aside until `check` finds nothing more. */
  const clear = (check: () => { net: number } | undefined) => {
    for (let hit = check(); hit; hit = check()) {
      nets.add(hit.net);
      checker.removeNet(hit.net);
    }
  };
  for (const t of mine.tracks) clear(() => checker.track(t.net, t.layer, t.start.x, t.start.y, t.end.x, t.end.y, t.width));
  for (const v of mine.vias) clear(() => checker.via(v.net, v.at.x, v.at.y, span(v)));
  return [...nets].sort(byNetName(host));
}

function span(v: NewVia): ViaSpan {
  return { type: v.type ?? 'through', from: v.layerFrom, to: v.layerTo, diameter: v.size, drill: v.drill };
}
