// One connection routed off the grid: the shortest path through the exact free space between its
// two pads, on one layer or through vias, bending only at corners of the grown obstacles
// (grown-corners.ts), a visibility graph searched by A*, every line checked exactly before it is
// used. A lane exactly a track and two clearances wide, at an angle no grid follows (a person's
// copper on a board laid out on triangles), holds no grid site; its centre line runs from corner
// to corner here. Other nets' zone fills are walls, so the refill KiCad makes is the fill as saved.

import { bbox, boxesOverlap, boxOf, circle, inflateBox, overlaps, rect, type Box, type Shape } from '../../geom/index.ts';
import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { Checker } from '../core/checker.ts';
import { MinHeap } from '../core/heap.ts';
import { padClearance, widestPadClearance, type HostObstacle, type HostPad, type RouterHost } from '../core/host.ts';
import type { ViaSpan } from '../core/via-span.ts';
import type { Verify } from '../finish/final-gate.ts';
import { addGrownCorners, CornerList } from './grown-corners.ts';
import { trackLength } from '../../geom/arc.ts';
import { mmText } from '../../geom/units.ts';
import { padRef, type ConnectionResult, type PadRef, type Attempt, type RouteResult, type StuckReason } from '../types.ts';

/** How far (nm) a line may come closer than the rules ask: rounding of corners to the nm, far
 *  inside KiCad's DRC epsilon (500 nm). */
const TOLERANCE = 50;
/** The margins round the two pads the searches cover, the wider where the narrower found nothing:
 *  at least so many nm, and at least such a share of the pads' distance. */
const MARGINS = [
  [1_500_000, 0.25],
  [3_000_000, 0.75],
] as const;

/** The margin (nm) of `MARGINS[k]` round pads `span` nm apart. */
const marginOf = (k: number, span: number) => Math.max(MARGINS[k][0], Math.round(span * MARGINS[k][1]));
/** The widest turn of a round corner's polyline in the first search, and in the second where
 *  the first found no path: lanes that bend round a corner with less room than the first's
 *  polylines leave (3.5 % of the grown radius) need the finer. */
const TURNS = [Math.PI / 6, Math.PI / 24];
/** Work of a corner or via site checked exactly, and of a line, against one pair of corners
 *  weighed: what each costs in time, as the grid router's expansions do (about 0.15 µs a unit;
 *  a line, checked in pieces, about 8 µs). */
const KEEP_WORK = 32;
const CHECK_WORK = 64;

/** What a layer change off the grid costs, as track length (nm): a via is worth a detour. */
const VIA_COST = 2_000_000;

/** A route's copper off the grid: the points it passes, each on a layer; a change of layer
 *  between two points at one place is a via. */
type Path = { x: number; y: number; layer: number }[];

/** `req.connection` routed off the grid (its waypoints, if any, are not), judged by `verify`,
 *  within `budget` (what a one-connection route on the grid is given, plan/budget.ts):
 *  `gridless` 'layer', on one layer both pads share, at the class width and then the narrowest
 *  the rules allow; 'via', across the layers through the class's vias. */
export function routeGridless(host: RouterHost, req: Attempt, verify: Verify | undefined, variant: number, seed: number, budget: number): RouteResult {
  const conn = req.connection!;
  const a = host.pads.find((p) => p.index === conn.from);
  const b = host.pads.find((p) => p.index === conn.to);
  let work = 0;
  if (a && b && a.net === conn.net && b.net === conn.net && !conn.waypoints?.length) {
    const span = Math.hypot(b.at.x - a.at.x, b.at.y - a.at.y);
    const r = host.rules;
    const all = [...Array(host.layerCount).keys()];
    const width = (least: boolean) => (l: number) => conn.width ?? (least ? r.minTrackWidth(conn.net, l) : r.trackWidth(conn.net, l));
    const tries: { layers: number[]; width: (l: number) => number; via?: { diameter: number; drill: number } }[] = [];
    for (const l of all)
      if (req.gridless === 'layer' && (a.layers >> l) & (b.layers >> l) & 1) {
        tries.push({ layers: [l], width: width(false) });
        if (conn.width === undefined && r.minTrackWidth(conn.net, l) < r.trackWidth(conn.net, l)) tries.push({ layers: [l], width: width(true) });
      }
    if (req.gridless === 'via') tries.push({ layers: all, width: width(false), via: r.via(conn.net) });
    const windows = MARGINS.map((_, k) => {
      const w = inflateBox(boxOf(a.at.x, a.at.y, b.at.x, b.at.y), marginOf(k, span));
      return conn.corridor ? clip(w, conn.corridor) : w;
    });
    // One world for every window, so a corner's check in the narrower holds in the wider.
    const local = nearby(host, req, conn.net, inflateBox(windows[windows.length - 1], 1_000_000));
    const checker = localChecker(local);
    const known = new Map<string, Map<number, Map<number, boolean>>>();
    for (const window of windows) {
      for (const t of tries) {
        const found = lane(local, checker, known, conn.net, t.layers, t.width, t.via, a, b, window, budget - work);
        work += found.work;
        if (found.spent) return result(host, req, a, b, { tracks: [], vias: [] }, work, budget, variant, seed, true);
        if (found.path === undefined) continue;
        const copper = copperOf(host, conn.net, found.path, t.width, t.via);
        const verdict = verify?.(copper.tracks, copper.vias);
        if (!verdict || (verdict.tracks.size === 0 && verdict.vias.size === 0)) return result(host, req, a, b, copper, work, budget, variant, seed);
      }
    }
  }
  return result(host, req, a, b, { tracks: [], vias: [] }, work, budget, variant, seed);
}

/** The tracks and through vias of a path. */
function copperOf(
  host: RouterHost,
  net: number,
  path: Path,
  width: (l: number) => number,
  via?: { diameter: number; drill: number },
): { tracks: NewTrack[]; vias: NewVia[] } {
  const tracks: NewTrack[] = [];
  const vias: NewVia[] = [];
  for (let i = 0; i + 1 < path.length; i++) {
    const [p, q] = [path[i], path[i + 1]];
    if (p.layer !== q.layer) {
      if (via)
        vias.push({
          at: { x: p.x, y: p.y },
          size: via.diameter,
          drill: via.drill,
          layerFrom: 0,
          layerTo: host.layerCount - 1,
          net,
          type: 'through',
          locked: true,
        });
    } else tracks.push({ start: { x: p.x, y: p.y }, end: { x: q.x, y: q.y }, width: width(p.layer), layer: p.layer, net, locked: true });
  }
  return { tracks, vias };
}

/** The shortest legal path from pad a's centre to pad b's over `layers` (through `via`s where
 *  it changes layer), corners and all, or none; with the work it cost, and whether the budget ran
 *  out first. Each corner or via site is checked exactly once in a call (`known`), whichever
 *  window or polyline step asks first: the wider window holds the narrower's corners. */
function lane(
  local: RouterHost,
  checker: Checker,
  known: Map<string, Map<number, Map<number, boolean>>>,
  net: number,
  layers: number[],
  width: (layer: number) => number,
  via: { diameter: number; drill: number } | undefined,
  a: HostPad,
  b: HostPad,
  window: Box,
  budget: number,
): { path?: Path; work: number; spent: boolean } {
  const clear = (layer: number) => {
    const checked = width(layer) - 2 * TOLERANCE;
    return (ax: number, ay: number, bx: number, by: number) => checker.trackClear(net, layer, ax, ay, bx, by, checked);
  };
  const span: ViaSpan | undefined = via && { type: 'through', from: 0, to: local.layerCount - 1, diameter: via.diameter - 2 * TOLERANCE, drill: via.drill };
  const own = local.pads.filter((p) => p.net === net && !p.throughHole);
  const inside = (x: number, y: number) => x >= window.minX && x <= window.maxX && y >= window.minY && y <= window.maxY;
  let work = 0;
  let short = false;
  /** `test` where (x, y) lies in the window: paid for once per call where the budget holds it. */
  const kept = (kind: string, test: (x: number, y: number) => boolean) => {
    const at = new PointCheck(known, kind, test);
    return (x: number, y: number) => {
      if (!inside(x, y)) return false;
      if (at.known(x, y) === undefined) {
        if (work + KEEP_WORK > budget) return ((short = true), false);
        work += KEEP_WORK;
      }
      return at.ok(x, y);
    };
  };
  const r = local.rules;
  let path: Path | 'spent' | undefined;
  for (const turn of TURNS) {
    const graph = new Graph(a, b, layers);
    for (const layer of layers) {
      const check = clear(layer);
      const keep = kept(`${layer}/${width(layer)}`, (x, y) => check(x, y, x, y));
      graph.corners(layer, grownCorners(local, net, layer, width(layer) / 2, keep, turn), check);
    }
    if (span) {
      const keep = kept('via', (x, y) => checker.via(net, x, y, span) === undefined && !own.some((p) => overlaps(circle(x, y, span.diameter / 2), p.shape)));
      const sites = layers.map((layer) => grownCorners(local, net, layer, via!.diameter / 2, keep, turn));
      const more = new CornerList();
      for (const h of local.holes) addGrownCorners(more, h.shape, via!.drill / 2 + r.holeToHole, keep, turn);
      // A via beside either pad, and anywhere along the line between them, where nothing is near
      // enough to give a corner.
      for (const p of [a, b]) addGrownCorners(more, p.shape, via!.diameter / 2 + r.clearance(net, 0, layers[0]), keep, turn);
      const steps = Math.ceil(Math.hypot(b.at.x - a.at.x, b.at.y - a.at.y) / via!.diameter);
      for (let k = 1; k < steps; k++) {
        const px = Math.round(a.at.x + ((b.at.x - a.at.x) * k) / steps);
        const py = Math.round(a.at.y + ((b.at.y - a.at.y) * k) / steps);
        if (keep(px, py)) more.addPoint(px, py);
      }
      sites.push(more);
      graph.sites(sites);
    }
    if (short) return { work, spent: true };
    path = graph.search(budget - work, (w) => (work += w));
    if (path !== undefined) break;
  }
  if (path === 'spent' || path === undefined) return { work, spent: path === 'spent' };
  return { path: taut(path, (layer) => clear(layer)), work, spent: false };
}

/** The exact checks of the part of the host a search covers, zone fills as walls: they look no
 *  further than the largest clearance the rules or an item there asks. */
function localChecker(local: RouterHost): Checker {
  let extra = 0;
  for (const p of local.pads) extra = Math.max(extra, widestPadClearance(p));
  for (const o of local.obstacles) extra = Math.max(extra, o.clearance);
  return new Checker(local, false, extra + 1_000);
}

/** Corners of everything on `layer` a copper point of `net` must keep `half` plus its clearance from. */
function grownCorners(local: RouterHost, net: number, layer: number, half: number, keep: (x: number, y: number) => boolean, turn: number): CornerList {
  const corners = new CornerList();
  const r = local.rules;
  const bit = 1 << layer;
  const add = (s: Shape, grow: number) => addGrownCorners(corners, s, half + grow, keep, turn);
  for (const p of local.pads) if (p.net !== net && p.layers & bit) add(p.shape, Math.max(r.clearance(net, p.net, layer), padClearance(p, layer)));
  for (const o of local.obstacles) {
    if (!(o.layers & bit) || (o.net === net && net > 0)) continue;
    if (o.kind === 'keepout' && !o.keepTracks) continue;
    add(o.shape, o.kind === 'keepout' ? 1 : o.kind === 'mask' ? o.clearance : Math.max(r.clearance(net, o.net, layer), o.clearance));
  }
  for (const h of local.holes) if (!(h.plated && h.net === net)) add(h.shape, r.holeClearance(net, h.net));
  for (const e of local.outline) add(e, r.edgeClearance(net, layer));
  return corners;
}

/** An exact check at points whose verdicts the call keeps (`known`, one `kind` of check each). */
class PointCheck {
  readonly #at: Map<number, Map<number, boolean>>;

  constructor(
    known: Map<string, Map<number, Map<number, boolean>>>,
    kind: string,
    readonly test: (x: number, y: number) => boolean,
  ) {
    let at = known.get(kind);
    if (!at) known.set(kind, (at = new Map()));
    this.#at = at;
  }

  /** The verdict at (x, y) if it has been checked in this call. */
  known(x: number, y: number): boolean | undefined {
    return this.#at.get(x)?.get(y);
  }

  ok(x: number, y: number): boolean {
    let col = this.#at.get(x);
    if (!col) this.#at.set(x, (col = new Map()));
    let ok = col.get(y);
    if (ok === undefined) col.set(y, (ok = this.test(x, y)));
    return ok;
  }
}

/** The visibility graph: pad centres, corners per layer, and via sites on every layer. */
class Graph {
  readonly x: number[] = [];
  readonly y: number[] = [];
  readonly layer: number[] = [];
  /** Corner index in its layer's list, -1 for a pad centre or a via site. */
  readonly corner: number[] = [];
  /** Via site index, -1 for others; a site's nodes on every layer follow one another. */
  readonly site: number[] = [];
  readonly goal: boolean[] = [];
  /** Nodes 0 .. starts − 1 are pad a's centre on its layers. */
  readonly starts: number;
  readonly #lists = new Map<number, CornerList>();
  readonly #checks = new Map<number, (ax: number, ay: number, bx: number, by: number) => boolean>();
  readonly #byLayer = new Map<number, number[]>();

  constructor(
    a: HostPad,
    readonly b: HostPad,
    readonly layers: number[],
  ) {
    for (const l of layers) this.#byLayer.set(l, []);
    for (const l of layers) if ((a.layers >> l) & 1) this.#add(a.at.x, a.at.y, l, -1, -1, false);
    this.starts = this.x.length;
    for (const l of layers) if ((b.layers >> l) & 1) this.#add(b.at.x, b.at.y, l, -1, -1, true);
  }

  #add(x: number, y: number, layer: number, corner: number, site: number, goal: boolean): void {
    this.#byLayer.get(layer)!.push(this.x.length);
    this.x.push(x);
    this.y.push(y);
    this.layer.push(layer);
    this.corner.push(corner);
    this.site.push(site);
    this.goal.push(goal);
  }

  corners(layer: number, list: CornerList, check: (ax: number, ay: number, bx: number, by: number) => boolean): void {
    this.#lists.set(layer, list);
    this.#checks.set(layer, check);
    for (let i = 0; i < list.count; i++) this.#add(list.x[i], list.y[i], layer, i, -1, false);
  }

  /** Via sites: the corners of `lists`, each once, on every layer. */
  sites(lists: CornerList[]): void {
    const seen = new Set<string>();
    let k = 0;
    for (const list of lists)
      for (let i = 0; i < list.count; i++) {
        const key = `${list.x[i]},${list.y[i]}`;
        if (seen.has(key)) continue;
        seen.add(key);
        for (const l of this.layers) this.#add(list.x[i], list.y[i], l, -1, k, false);
        k++;
      }
  }

  /** A* from the starts to a goal: a line from u to v on one layer is tried only where it grazes
   *  both ends' corners and shortens v's path, and is checked exactly then; a via site changes
   *  layer at VIA_COST. */
  search(budget: number, pay: (w: number) => number): Path | 'spent' | undefined {
    const n = this.x.length;
    const { x, y } = this;
    const g = new Float64Array(n).fill(Infinity);
    const from = new Int32Array(n).fill(-1);
    const done = new Uint8Array(n);
    const h = (i: number) => Math.hypot(x[i] - this.b.at.x, y[i] - this.b.at.y);
    const heap = new MinHeap();
    for (let s = 0; s < this.starts; s++) {
      g[s] = 0;
      heap.push(h(s), s);
    }
    let work = 0;
    let end = -1;
    const relax = (u: number, v: number, d: number) => {
      g[v] = d;
      from[v] = u;
      heap.push(d + h(v), v);
    };
    while (heap.size > 0) {
      const u = heap.pop();
      if (done[u]) continue;
      done[u] = 1;
      if (this.goal[u]) {
        end = u;
        break;
      }
      const same = this.#byLayer.get(this.layer[u])!;
      if (work + same.length > budget) return (pay(work), 'spent');
      work += same.length;
      if (this.site[u] >= 0)
        for (let v = u - this.layers.indexOf(this.layer[u]), k = 0; k < this.layers.length; k++, v++)
          if (v !== u && !done[v] && g[u] + VIA_COST < g[v]) relax(u, v, g[u] + VIA_COST);
      const list = this.#lists.get(this.layer[u])!;
      const clear = this.#checks.get(this.layer[u])!;
      for (const v of same) {
        if (done[v] || v < this.starts) continue;
        const dx = x[v] - x[u];
        const dy = y[v] - y[u];
        const d = g[u] + Math.hypot(dx, dy);
        if (d >= g[v]) continue;
        if (this.corner[u] >= 0 && !grazes(list, this.corner[u], dx, dy)) continue;
        if (this.corner[v] >= 0 && !grazes(list, this.corner[v], dx, dy)) continue;
        if (work + CHECK_WORK > budget) return (pay(work), 'spent');
        work += CHECK_WORK;
        if (!clear(x[u], y[u], x[v], y[v])) continue;
        relax(u, v, d);
      }
    }
    pay(work);
    if (end < 0) return undefined;
    const path: Path = [];
    for (let v = end; v >= 0; v = from[v]) path.push({ x: x[v], y: y[v], layer: this.layer[v] });
    return path.reverse();
  }
}

/** Whether a line in direction (dx, dy) through corner k leaves both its outline neighbours on
 *  one side (or on the line): it touches the grown obstacle there without entering it. */
function grazes(c: CornerList, k: number, dx: number, dy: number): boolean {
  const px = c.prevX[k] - c.x[k];
  const py = c.prevY[k] - c.y[k];
  const qx = c.nextX[k] - c.x[k];
  const qy = c.nextY[k] - c.y[k];
  return (dx * py - dy * px) * (dx * qy - dy * qx) >= 0;
}

/** The path with every corner dropped that a straight line past it on its layer makes needless
 *  (a via's two ends stay). */
function taut(path: Path, clear: (layer: number) => (ax: number, ay: number, bx: number, by: number) => boolean): Path {
  const out = [path[0]];
  let i = 0;
  while (i < path.length - 1) {
    let j = i + 1;
    // The farthest point on i's layer with no layer change between.
    while (j + 1 < path.length && path[j + 1].layer === path[i].layer) j++;
    if (path[i + 1].layer === path[i].layer) {
      const ok = clear(path[i].layer);
      while (j > i + 1 && !ok(path[i].x, path[i].y, path[j].x, path[j].y)) j--;
    } else j = i + 1;
    out.push(path[j]);
    i = j;
  }
  return out;
}

/** The part of the host within `box` (all the checks of lines inside it can meet), with the
 *  request's reservations for other nets as keep-outs. */
function nearby(host: RouterHost, req: Attempt, net: number, box: Box): RouterHost {
  const near = (s: Shape) => boxesOverlap(bbox(s), box);
  const kept: HostObstacle[] = (req.reserved ?? [])
    .filter((k) => k.net !== net)
    .map((k) => ({
      kind: 'keepout',
      shape: rect(k.minX, k.minY, k.maxX, k.maxY),
      layers: k.layers ? k.layers.reduce((m, l) => m | (1 << l), 0) : -1,
      net: 0,
      keepTracks: true,
      keepVias: true,
      clearance: 0,
    }));
  return {
    ...host,
    pads: host.pads.filter((p) => near(p.shape)),
    obstacles: [...host.obstacles.filter((o) => near(o.shape)), ...kept.filter((o) => near(o.shape))],
    holes: host.holes.filter((h) => near(h.shape)),
    outline: host.outline.filter((s) => near(s)),
  };
}

function clip(w: Box, k: Box): Box {
  return { minX: Math.max(w.minX, k.minX), minY: Math.max(w.minY, k.minY), maxX: Math.min(w.maxX, k.maxX), maxY: Math.min(w.maxY, k.maxY) };
}

/** The route's result for its one connection: made by `tracks`, or open. */
function result(
  host: RouterHost,
  req: Attempt,
  a: HostPad | undefined,
  b: HostPad | undefined,
  copper: { tracks: NewTrack[]; vias: NewVia[] },
  work: number,
  budget: number,
  variant: number,
  seed: number,
  spent = false,
): RouteResult {
  const conn = req.connection!;
  const { tracks, vias } = copper;
  const routed = tracks.length > 0;
  const none = (i: number): PadRef => ({ pad: i, ref: '', number: '', at: { x: 0, y: 0 } });
  const span = a && b ? Math.hypot(b.at.x - a.at.x, b.at.y - a.at.y) : 0;
  const within = conn.corridor ? 'in the box it was given' : `within ${mmText(marginOf(MARGINS.length - 1, span), 3, { trim: true })} of the pads`;
  const stuck: StuckReason = {
    reason: spent ? 'budget' : 'blocked',
    why: spent
      ? 'The search off the grid ran out of work before it settled.'
      : `No legal path off the grid ${req.gridless === 'via' ? 'through vias' : 'on a layer both pads share'} was found ${within}.`,
    blockers: [],
    rips: 0,
    fails: 1,
    tried: true,
  };
  const c: ConnectionResult = {
    net: conn.net,
    netName: host.netNames[conn.net] ?? '',
    from: a ? padRef(a) : none(conn.from),
    to: b ? padRef(b) : none(conn.to),
    routed,
    ...(routed ? {} : { stuck }),
  };
  const length = tracks.reduce((s, t) => s + trackLength(t), 0);
  return {
    tracks,
    vias,
    nets: [{ net: conn.net, name: c.netName, routed: routed ? 1 : 0, open: routed ? 0 : 1, tracks, vias, length }],
    connections: [c],
    open: routed ? [] : [c],
    ripped: { tracks: [], vias: [] },
    work,
    budget,
    setup: 0,
    stopped: spent ? 'budget' : 'done',
    variant,
    seed,
    summary: { routed: routed ? 1 : 0, open: routed ? 0 : 1, tracks: tracks.length, vias: vias.length, length },
  };
}
