// Room for a connection the fixed copper walls in on the grid, where the call's own nets took
// the one lane off the grid it has: the connection routed off the grid past the fixed copper alone
// (gridless.ts), the call's nets in its way taken out (clashes.ts) and routed again round it, the
// whole route with all it finishes. An escalation round asks for this (variants.ts) where every
// connection its best leaves open is so walled in; kept only where fewer stay open than there.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import type { ConnectionResult, Attempt, RouteResult } from '../types.ts';
import { carried, fixedSession, joined, madeAlone, OFF_GRID_WORK, offGridMode } from './finish-open.ts';
import { leaveOpen, regrouped } from '../finish/leave-open.ts';
import { byResultName } from '../core/net-rank.ts';

/** The most of the call's nets one connection may take the place of. */
const MAX_ROOM_NETS = 4;

type Copper = { tracks: readonly NewTrack[]; vias: readonly NewVia[] };

/** How the steps route: one connection (off the grid), the call again for some nets (the whole
 *  variant), the nets clashing with copper, and a pad's copper layers (bit mask). */
export interface RoomTries {
  alone: (req: Attempt) => RouteResult;
  again: (req: Attempt) => RouteResult;
  clashes: (mine: Copper, theirs: Copper) => number[];
  layers: (pad: number) => number;
}

/** `req.makeRoom.from` with room made for each walled connection in turn, within `budget`; its own
 *  work, set-up and budget, as variant `variant`. */
export function routeRoom(req: Attempt, budget: number, variant: number, tries: RoomTries): RouteResult {
  const room = req.makeRoom!;
  const plain: Attempt = { ...req, makeRoom: undefined };
  let best = room.from;
  let work = 0;
  let setup = 0;
  /** c off the grid among the fixed copper and `kept`'s copper. */
  const offGrid = (c: ConnectionResult, kept: RouteResult): RouteResult => {
    const mode = offGridMode(tries.layers(c.from.pad), tries.layers(c.to.pad));
    const one = tries.alone({
      connection: { net: c.net, from: c.from.pad, to: c.to.pad },
      gridless: mode,
      session: fixedSession(req, kept),
      work: Math.max(0, Math.min(OFF_GRID_WORK[mode], budget - work)),
      ...carried(req),
    });
    work += one.work;
    setup += one.setup;
    return one;
  };
  for (const w of room.walled) {
    if (work >= budget || req.shouldStop?.()) break;
    const c = best.open.find((k) => k.net === w.net && k.from.pad === w.from && k.to.pad === w.to);
    if (!c) continue;
    // Past the fixed copper alone: the call's nets its path meets are the ones in its way.
    const free = offGrid(c, { ...best, tracks: [], vias: [] });
    if (!madeAlone(free)) continue;
    const nets = tries.clashes(free, best);
    if (nets.length > MAX_ROOM_NETS) continue;
    const why = (k: ConnectionResult) =>
      `${k.from.ref}.${k.from.number}–${k.to.ref}.${k.to.number} was taken out to make room for ${c.from.ref}.${c.from.number}–${c.to.ref}.${c.to.number} (${c.netName}), which the fixed copper leaves no other way, and was not routed again round it.`;
    const without = (out: number[]) => leaveOpen(best, new Map(out.map((n) => [n, { reason: 'blocked' as const, why }])));
    // One net taken out may be room enough, the path going round the rest; else all of them.
    const takes: { out: number[]; one?: RouteResult }[] = [...(nets.length > 1 ? nets.map((n) => ({ out: [n] })) : []), { out: nets, one: free }];
    for (const take of takes) {
      if (work >= budget) break;
      const rest = without(take.out);
      const one = take.one ?? offGrid(c, rest);
      if (!madeAlone(one)) continue;
      const opened = joined(rest, c, one);
      if (take.out.length === 0) {
        best = opened;
        break;
      }
      const again = tries.again({ ...plain, nets: take.out, session: fixedSession(req, opened), work: budget - work });
      work += again.work;
      setup += again.setup;
      const whole = replaced(opened, new Set(take.out), again);
      if (whole.summary.open < best.summary.open) {
        best = whole;
        break;
      }
      // The net taken out found no way round: the next take (another net, then all) may.
    }
  }
  return { ...best, work, setup, budget, variant, stopped: work >= budget ? 'budget' : best.stopped };
}

/** `r` with the nets `out` as `again` routed them: their copper, connections and pairs. */
function replaced(r: RouteResult, out: ReadonlySet<number>, again: RouteResult): RouteResult {
  const nets = [...r.nets.filter((n) => !out.has(n.net)), ...again.nets].sort(byResultName);
  const connections = [...r.connections.filter((c) => !out.has(c.net)), ...again.connections];
  const open = connections.filter((c) => !c.routed);
  const pairs = [...(r.pairs ?? []).filter((p) => !out.has(p.plus) && !out.has(p.minus)), ...(again.pairs ?? [])];
  const kept = regrouped(
    { ...r, nets, connections, open, ...(r.pairs || again.pairs ? { pairs } : {}) },
    [...r.tracks.filter((t) => !out.has(t.net)), ...again.tracks],
    [...r.vias.filter((v) => !out.has(v.net)), ...again.vias],
  );
  return { ...kept, summary: { ...kept.summary, routed: connections.length - open.length, open: open.length } };
}
