// What a route does with work left when connections stay open: the lanes it could not find may
// lie off its grid, which follows the board's commonest pad pitch. So the whole call is routed
// again on the grid of the finest part an open connection ends on, and then each connection
// still open alone, on a grid of its own with everything routed so far fixed. Each step is kept
// only where it leaves fewer connections open, and all of it is paid from the variant's budget.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import type { ConnectionResult, NetResult, RouteRequest, RouteResult } from '../types.ts';

/** Connections routed alone at most, in result order: each builds its own world. */
const MAX_SINGLES = 16;
/** The least work a connection routed alone is given, and its share of what is left. */
const MIN_SINGLE_WORK = 2_000_000;
const SINGLE_SHARE = 4;

/** Routes one variant of a request (the caller's routeVariant, cache and all). */
export type VariantRoute = (req: RouteRequest) => RouteResult;

/** `first` with the open connections tried again as above, within first.budget; `padSize` is a
 *  board pad's smaller side (nm). */
export function finishOpen(req: RouteRequest, first: RouteResult, route: VariantRoute, padSize: (pad: number) => number): RouteResult {
  if (req.connection || first.stopped === 'cancelled') return first;
  let best = first;
  const left = () => best.budget - best.work;
  const stop = () => left() <= 0 || req.shouldStop?.() === true;
  if (routable(best).length === 0 || stop()) return best;

  const pad = finestEnd(routable(best), padSize);
  if (req.gridPad !== pad) {
    const again = route({ ...req, gridPad: pad, work: left() });
    best = again.summary.open < best.summary.open ? spent(again, best, again) : spent(best, best, again);
  }

  const session = fixedSession(req, best);
  for (const c of routable(best).slice(0, MAX_SINGLES)) {
    if (stop()) break;
    const work = Math.min(left(), Math.max(MIN_SINGLE_WORK, Math.floor(left() / SINGLE_SHARE)));
    const one = route({
      connection: { net: c.net, from: c.from.pad, to: c.to.pad },
      session,
      work,
      ...(req.options ? { options: req.options } : {}),
      ...(req.reserved ? { reserved: req.reserved } : {}),
      ...(req.shouldStop ? { shouldStop: req.shouldStop } : {}),
    });
    const made = one.connections.length === 1 && one.connections[0].routed;
    best = made ? joined(best, c, one) : spent(best, best, one);
    if (made) {
      session.tracks.push(...one.tracks);
      session.vias.push(...one.vias);
    }
  }
  return best;
}

/** Open connections another try could make: not those held back for rules the router does not model. */
function routable(r: RouteResult): ConnectionResult[] {
  return r.open.filter((c) => c.stuck?.reason !== 'rule_not_supported');
}

/** The board pad of the open ends with the smallest side: its part's pitch is the finest. */
function finestEnd(open: readonly ConnectionResult[], padSize: (pad: number) => number): number {
  let best = open[0].from.pad;
  for (const c of open) for (const p of [c.from.pad, c.to.pad]) if (padSize(p) < padSize(best)) best = p;
  return best;
}

/** `kept` with the work and set-up of `a` and `b` both counted, within `a`'s budget. */
function spent(kept: RouteResult, a: RouteResult, b: RouteResult): RouteResult {
  return { ...kept, work: a.work + b.work, setup: a.setup + b.setup, budget: a.budget };
}

/** The session's copper this call keeps, and the copper routed so far, all fixed. */
function fixedSession(req: RouteRequest, r: RouteResult): { tracks: NewTrack[]; vias: NewVia[] } {
  const s = req.session;
  const rippedT = new Set(r.ripped.tracks);
  const rippedV = new Set(r.ripped.vias);
  const fixed = <T extends { rippable?: boolean }>(items: T[], ripped: Set<number>) =>
    items.filter((_, i) => !ripped.has(i)).map((it) => ({ ...it, rippable: false }));
  return { tracks: [...fixed(s?.tracks ?? [], rippedT), ...r.tracks], vias: [...fixed(s?.vias ?? [], rippedV), ...r.vias] };
}

/** `r` with connection `c` made by `one`'s copper: the net's copper, counts and the summary. */
function joined(r: RouteResult, c: ConnectionResult, one: RouteResult): RouteResult {
  const add = one.nets.find((n) => n.net === c.net);
  const nets: NetResult[] = r.nets.map((n) =>
    n.net === c.net && add
      ? { ...n, routed: n.routed + 1, open: n.open - 1, tracks: [...n.tracks, ...add.tracks], vias: [...n.vias, ...add.vias], length: n.length + add.length }
      : n,
  );
  const connections = r.connections.map((k) => (k === c ? { net: k.net, netName: k.netName, from: k.from, to: k.to, routed: true } : k));
  const open = connections.filter((k) => !k.routed);
  const tracks = nets.flatMap((n) => n.tracks);
  const vias = nets.flatMap((n) => n.vias);
  const s = one.summary;
  return {
    ...spent(r, r, one),
    nets,
    connections,
    open,
    tracks,
    vias,
    summary: { routed: r.summary.routed + 1, open: open.length, tracks: tracks.length, vias: vias.length, length: r.summary.length + s.length },
  };
}
