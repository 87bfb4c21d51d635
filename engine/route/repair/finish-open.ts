// What a route does with work left when connections stay open. Where they end on balls of a BGA,
// the whole call first again with those balls fanned out (fan-out.ts). The lanes it could not find
// may lie off its grid, which follows the board's commonest pad pitch. So each connection still
// open is routed alone, with everything routed so far fixed, on a grid of its own — its finer
// end's part's — and failing that on one twice as fine over a box round it (which costs the box,
// not the board), and where an end's part sits at an angle off the grid's axes, on a grid turned
// with it over that box (turned.ts); then, if some stay open, the whole call again on the grid of
// the finest part they end on. Last, while a whole call still fits in what is left, the call again
// in other net orders (the next variants' seeds): a net boxed in by the nets routed before it is
// often free when it goes earlier. Each step is kept only where it leaves fewer open; all is paid
// from the variant's budget. A connection no try can change (a proven fence, a rule the router
// does not model) is left as it is: the steps are for the rest.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { turnsFor } from './turned.ts';
import type { ConnectionResult, NetResult, Attempt, RouteResult, StuckCode } from '../types.ts';

/** Connections routed alone at most, in result order: each builds its own world. */
const MAX_SINGLES = 16;
/** Connections routed alone off the grid past MAX_SINGLES at most. */
const MAX_OFF_GRID = 48;
/** The most a look off the grid is given, on one layer and through vias: a lane it finds costs
 *  it a fraction of this; a search that finds none weighs every corner in its box. */
export const OFF_GRID_WORK = { layer: 1_000_000, via: 12_000_000 };
/** The least work a connection routed alone is given, and its share of what is left. */
const MIN_SINGLE_WORK = 2_000_000;
const SINGLE_SHARE = 2;
/** The least margin (nm) round a connection's ends that its finer look covers. */
const AROUND_MARGIN = 3_000_000;
/** Other net orders tried at most, each the whole call. */
export const MAX_ORDERS = 6;

/** The call again with the balls of the area arrays it routes fanned out first (fan-out.ts), or
 *  undefined where no `open` connection ends on such a ball. */
export type FannedRoute = (req: Attempt, open: readonly ConnectionResult[]) => RouteResult | undefined;

/** Routes one variant of a request (the caller's routeVariant, cache and all); `order` k > 0
 *  routes it in the k-th other net order (a seed no other variant of the call uses). */
export type VariantRoute = (req: Attempt, order?: number) => RouteResult;

/** A board pad's smaller side (nm), its orientation (degrees, KiCad's sense) and its copper
 *  layers (bit i = layer i). */
export type PadLook = (pad: number) => { size: number; rotation: number; layers: number };

/** `first` with the open connections tried again as above, within first.budget. */
export function finishOpen(req: Attempt, first: RouteResult, route: VariantRoute, pad: PadLook, fanned: FannedRoute): RouteResult {
  if (req.connection || first.stopped === 'cancelled') return first;
  const stop = (r: RouteResult) => r.work >= r.budget || req.shouldStop?.() === true;
  // Before anything routed alone can take the sites their vias need; begun only where a whole
  // call fits in what is left, and given at most half of it unless the call needs more, so the
  // steps below keep work of their own.
  const left = first.budget - first.work;
  const fan =
    routable(first).length > 0 && !stop(first) && left >= first.work
      ? fanned({ ...req, work: Math.max(first.work, Math.floor(left / 2)) }, routable(first))
      : undefined;
  const start = !fan ? first : fan.summary.open < first.summary.open ? spent(fan, first, fan) : spent(first, first, fan);
  let best = onFinerGrids(req, start, route, pad, stop);
  // Another order costs about what the first call did: begun only where it can finish, so a
  // board that stays open does not spend its budget on calls cut short.
  for (let k = 1; k <= MAX_ORDERS && routable(best).length > 0 && !stop(best) && best.budget - best.work >= first.work; k++) {
    const other = route({ ...req, work: best.budget - best.work }, k);
    // As many open in another order may still be fewer once each is tried alone there.
    const tried = other.summary.open <= best.summary.open ? singles(req, spent(other, best, other), route, pad, stop) : spent(other, best, other);
    best = tried.summary.open < best.summary.open ? tried : { ...best, work: tried.work, setup: tried.setup };
  }
  return best;
}

/** The open connections alone, then the whole call on the finest open end's grid, then alone
 *  again: each kept where fewer stay open. */
function onFinerGrids(req: Attempt, first: RouteResult, route: VariantRoute, pad: PadLook, stop: (r: RouteResult) => boolean): RouteResult {
  // Each connection alone first: it costs a box round it, where the call again costs the board.
  const best = singles(req, first, route, pad, stop);
  if (routable(best).length === 0 || stop(best)) return best;
  const fine = finestEnd(routable(best), (i) => pad(i).size);
  if (req.gridPad === fine) return best;
  const again = route({ ...req, gridPad: fine, work: best.budget - best.work });
  if (again.summary.open >= best.summary.open) return spent(best, best, again);
  return singles(req, spent(again, best, again), route, pad, stop);
}

/** `r` with each routable open connection routed alone, everything routed so far fixed, each
 *  kept where it is made: those the fixed copper walls in on the grid first off the grid
 *  (gridless.ts: on a layer both ends share, else through vias); then (MAX_SINGLES at most) on the
 *  grid of the finer end's part, off the grid if not yet, on one twice as fine over a box round it,
 *  and, where an end's part sits off the grid's moves, on grids turned with it (turned.ts); last
 *  the rest (MAX_OFF_GRID at most) off the grid. */
function singles(req: Attempt, r: RouteResult, route: VariantRoute, pad: PadLook, stop: (r: RouteResult) => boolean): RouteResult {
  /** What each look off the grid that found nothing said, for the connections still open. */
  const offGridSaid = new Map<ConnectionResult, string>();
  const best = eachAlone(req, r, route, pad, stop, offGridSaid);
  return offGridSaid.size === 0 ? best : withSaid(best, offGridSaid);
}

/** `r` with what the looks off the grid said added to the reasons of the connections still open. */
function withSaid(r: RouteResult, said: ReadonlyMap<ConnectionResult, string>): RouteResult {
  const connections = r.connections.map((c) => {
    const s = said.get(c);
    return s && !c.routed && c.stuck ? { ...c, stuck: { ...c.stuck, why: `${c.stuck.why} ${s}` } } : c;
  });
  return { ...r, connections, open: connections.filter((c) => !c.routed) };
}

/** singles' steps, each look off the grid that finds nothing noting what it said in `offGridSaid`. */
function eachAlone(
  req: Attempt,
  r: RouteResult,
  route: VariantRoute,
  pad: PadLook,
  stop: (r: RouteResult) => boolean,
  offGridSaid: Map<ConnectionResult, string>,
): RouteResult {
  let best = r;
  const session = fixedSession(req, best);
  /** Routes c alone with `look`; true when it is made (and kept). */
  const alone = (c: ConnectionResult, look: Look): boolean => {
    const left = best.budget - best.work;
    const one = route({
      connection: { net: c.net, from: c.from.pad, to: c.to.pad, ...(look.refine || look.turn ? { corridor: around(c) } : {}) },
      ...(look.refine ? { gridRefine: look.refine } : {}),
      ...(look.turn ? { turn: look.turn } : {}),
      ...(look.gridless ? { gridless: look.gridless } : {}),
      session,
      work: Math.min(left, Math.max(MIN_SINGLE_WORK, Math.floor(left / SINGLE_SHARE)), look.gridless ? OFF_GRID_WORK[look.gridless] : Infinity),
      ...carried(req),
    });
    const made = madeAlone(one);
    const why = one.connections[0]?.stuck?.why;
    if (!made && look.gridless && why) offGridSaid.set(c, why);
    best = made ? joined(best, c, one) : spent(best, best, one);
    if (made) {
      session.tracks.push(...one.tracks);
      session.vias.push(...one.vias);
    }
    return made;
  };
  // Off the grid: on one layer where the ends share one, else through vias.
  const offGrid = (c: ConnectionResult): Look => ({ gridless: offGridMode(pad(c.from.pad).layers, pad(c.to.pad).layers) });
  // That look first where the fixed copper alone walls the grid's paths in: there the grid has no
  // way, and a lane off it costs a few corners where a grid look costs a grid.
  const off = new Set<ConnectionResult>();
  for (const c of routable(best)
    .filter((k) => k.stuck?.fixedWalls)
    .slice(0, MAX_SINGLES + MAX_OFF_GRID)) {
    if (stop(best)) return best;
    off.add(c);
    alone(c, offGrid(c));
  }
  for (const c of routable(best).slice(0, MAX_SINGLES)) {
    const looks: Look[] = [{}, ...(off.has(c) ? [] : [offGrid(c)]), { refine: 2 }, ...turnsFor(c, (i) => pad(i).rotation).map((turn) => ({ turn }))];
    for (const look of looks) {
      if (stop(best)) return best;
      if (look.gridless) off.add(c);
      if (alone(c, look)) break;
    }
  }
  for (const c of routable(best)
    .filter((k) => !off.has(k))
    .slice(0, MAX_OFF_GRID)) {
    if (stop(best)) return best;
    alone(c, offGrid(c));
  }
  return best;
}

/** How a connection is routed alone: on its own grid, refined, turned, or off the grid. */
interface Look {
  refine?: number;
  turn?: number;
  gridless?: 'layer' | 'via';
}

/** The box a connection's finer look covers: its ends' centres, and round them a third of the
 *  span between them, at least AROUND_MARGIN. */
function around(c: ConnectionResult): { minX: number; minY: number; maxX: number; maxY: number } {
  const a = c.from.at;
  const b = c.to.at;
  const m = Math.max(AROUND_MARGIN, Math.round(Math.hypot(b.x - a.x, b.y - a.y) / 3));
  return { minX: Math.min(a.x, b.x) - m, minY: Math.min(a.y, b.y) - m, maxX: Math.max(a.x, b.x) + m, maxY: Math.max(a.y, b.y) + m };
}

/** Reasons no further try can change: a rule the router does not model, and the fixed copper's
 *  proven fence round a pad or keep-out of it (stuck.ts proves both at every legal width, on or off
 *  the grid, against copper no route of the call moves). */
const SETTLED = new Set<StuckCode | undefined>(['rule_not_supported', 'boxed_in', 'unreachable']);

/** Open connections another try could make: not those whose reason is SETTLED. */
export function routable(r: RouteResult): ConnectionResult[] {
  return r.open.filter((c) => !SETTLED.has(c.stuck?.reason));
}

/** The board pad of the open ends with the smallest side: its part's pitch is the finest. */
function finestEnd(open: readonly ConnectionResult[], padSize: (pad: number) => number): number {
  let best = open[0].from.pad;
  for (const c of open) for (const p of [c.from.pad, c.to.pad]) if (padSize(p) < padSize(best)) best = p;
  return best;
}

/** `kept` with the work and set-up of `a` and `b` both counted, within `a`'s budget. */
export function spent(kept: RouteResult, a: RouteResult, b: RouteResult): RouteResult {
  return { ...kept, work: a.work + b.work, setup: a.setup + b.setup, budget: a.budget };
}

/** What a connection routed alone keeps of its call: the router options, the reservations and
 *  the stop. */
export function carried(req: Attempt): Pick<Attempt, 'options' | 'reserved' | 'shouldStop'> {
  return {
    ...(req.options ? { options: req.options } : {}),
    ...(req.reserved ? { reserved: req.reserved } : {}),
    ...(req.shouldStop ? { shouldStop: req.shouldStop } : {}),
  };
}

/** Whether a route of one connection made it. */
export function madeAlone(one: RouteResult): boolean {
  return one.connections.length === 1 && one.connections[0].routed;
}

/** The look off the grid for ends on copper layers `a` and `b` (bit masks): on a layer both
 *  share, else through vias. */
export function offGridMode(a: number, b: number): 'layer' | 'via' {
  return (a & b) !== 0 ? 'layer' : 'via';
}

/** The session's copper this call keeps, and the copper routed so far, all fixed. */
export function fixedSession(req: Attempt, r: RouteResult): { tracks: NewTrack[]; vias: NewVia[] } {
  const s = req.session;
  const rippedT = new Set(r.ripped.tracks);
  const rippedV = new Set(r.ripped.vias);
  const fixed = <T extends { rippable?: boolean }>(items: T[], ripped: Set<number>) =>
    items.filter((_, i) => !ripped.has(i)).map((it) => ({ ...it, rippable: false }));
  return { tracks: [...fixed(s?.tracks ?? [], rippedT), ...r.tracks], vias: [...fixed(s?.vias ?? [], rippedV), ...r.vias] };
}

/** `r` with connection `c` made by `one`'s copper: the net's copper, counts and the summary. */
export function joined(r: RouteResult, c: ConnectionResult, one: RouteResult): RouteResult {
  const add = one.nets.find((n) => n.net === c.net);
  // A net's counts are of its pieces joined and apart, which its open connections can outnumber
  // (two of them across one gap): a connection made joins a gap only while one is left.
  const joins = (n: NetResult) => (n.open > 0 ? 1 : 0);
  const nets: NetResult[] = r.nets.map((n) =>
    n.net === c.net && add
      ? {
          ...n,
          routed: n.routed + joins(n),
          open: n.open - joins(n),
          tracks: [...n.tracks, ...add.tracks],
          vias: [...n.vias, ...add.vias],
          length: n.length + add.length,
        }
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
