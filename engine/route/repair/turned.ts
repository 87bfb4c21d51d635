// A route on a grid turned by an angle. Where parts sit at an angle off the board's axes (a board
// laid out on triangles, a ring of LEDs, a part at 45°), their pads' rows are not the grid's rows
// and the lanes between them run at angles no grid move follows: a staircase needs a wider lane
// than the person's straight track. Turned with those parts, the same grid follows their lanes:
// the board is turned the other way, routed, and the new copper turned back, then judged where
// it lies.

import { arc, boxOfPoints, compound, inflateBox, polygon, rotatePoint, type Primitive, type Shape } from '../../geom/index.ts';
import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import type { HostObstacle, HostPad, Pt, RouterHost } from '../core/host.ts';
import type { Verify } from '../finish/final-gate.ts';
import type { ConnectionResult, Attempt, RouteResult } from '../types.ts';

/** Angles (degrees) within this of a multiple of 90° need no turn: the part's rows lie on the grid's. */
const SQUARE = 0.01;

/** A turn about the origin and its inverse, on integer nm: KiCad's rotatePoint by the opposite
 *  angle, so a part at `degrees` (KiCad's sense) comes to 0°. */
class Turn {
  constructor(readonly degrees: number) {}
  xy(x: number, y: number): [number, number] {
    return rotatePoint(x, y, -this.degrees);
  }
  pt(p: Pt): Pt {
    const [x, y] = this.xy(p.x, p.y);
    return { x, y };
  }
  back(p: Pt): Pt {
    const [x, y] = rotatePoint(p.x, p.y, this.degrees);
    return { x, y };
  }
  ring(r: Float64Array): Float64Array {
    const out = new Float64Array(r.length);
    for (let i = 0; i < r.length; i += 2) [out[i], out[i + 1]] = this.xy(r[i], r[i + 1]);
    return out;
  }
  /** A box's four corners turned, boxed again (and 1 nm more): it holds everything the box held. */
  box<B extends { minX: number; minY: number; maxX: number; maxY: number }>(b: B): B {
    const corners = [
      { x: b.minX, y: b.minY },
      { x: b.maxX, y: b.minY },
      { x: b.minX, y: b.maxY },
      { x: b.maxX, y: b.maxY },
    ].map((p) => this.pt(p));
    return { ...b, ...inflateBox(boxOfPoints(corners)!, 1) };
  }
  /** A shape turned and grown by 1 nm, which covers the rounding of its corners (≤ 0.71 nm)
   *  and of the copper turned back: what is clear in the turned board is clear in the board. */
  shape(s: Shape): Shape {
    if (s.kind === 'compound') return compound(s.parts.map((p) => this.primitive(p)));
    return this.primitive(s);
  }
  private primitive(p: Primitive): Shape {
    switch (p.kind) {
      case 'circle': {
        const [x, y] = this.xy(p.x, p.y);
        return { kind: 'circle', x, y, r: p.r + 1 };
      }
      case 'segment': {
        const [ax, ay] = this.xy(p.ax, p.ay);
        const [bx, by] = this.xy(p.bx, p.by);
        return { kind: 'segment', ax, ay, bx, by, width: p.width + 2 };
      }
      case 'arc':
        return arc(...this.xy(p.sx, p.sy), ...this.xy(p.mx, p.my), ...this.xy(p.ex, p.ey), p.width + 2);
      case 'rect':
        return polygon(this.ring(Float64Array.of(p.minX, p.minY, p.maxX, p.minY, p.maxX, p.maxY, p.minX, p.maxY)), [], p.radius + 1);
      case 'polygon':
        return polygon(
          this.ring(p.outline),
          p.holes.map((h) => this.ring(h)),
          p.radius + 1,
        );
    }
  }
}

/** The angle (degrees, in [0, 90)) a part at `rotation` sits off the grid's axes; 0 when none.
 *  A part at 45° is off them too: its lanes are the grid's diagonals, but its pads' rows are not
 *  the grid's rows, so a lane between two pads misses the sites. */
export function offGrid(rotation: number): number {
  const a = ((rotation % 90) + 90) % 90;
  return a < SQUARE || 90 - a < SQUARE ? 0 : a;
}

/** The angles a connection's other tries turn the grid by: those its end pads' parts sit at off
 *  the grid's axes, each once, the `from` end's first. */
export function turnsFor(c: ConnectionResult, rotation: (pad: number) => number): number[] {
  const out: number[] = [];
  for (const pad of [c.from.pad, c.to.pad]) {
    const a = offGrid(rotation(pad));
    if (a > 0 && !out.some((b) => Math.abs(b - a) < SQUARE)) out.push(a);
  }
  return out;
}

/** `host` as the route on a grid turned by `degrees` sees it: every shape turned the other way. */
export function turnedHost(host: RouterHost, degrees: number): RouterHost {
  const t = new Turn(degrees);
  const pads: HostPad[] = host.pads.map((p) => ({ ...p, at: t.pt(p.at), rotation: p.rotation - degrees, shape: t.shape(p.shape) }));
  const obstacles: HostObstacle[] = host.obstacles.map((o) => ({ ...o, shape: t.shape(o.shape) }));
  const edges = t.ring(host.outlineEdges);
  return {
    ...host,
    pads,
    obstacles,
    holes: host.holes.map((h) => ({ ...h, shape: t.shape(h.shape) })),
    outline: host.outline.map((s) => t.shape(s)),
    outlineEdges: edges,
  };
}

/** What a route call routes (`route`, the router on a host) with `req.turn` set: the request
 *  on the turned host, its copper turned back and judged by `verify` where it lies, its pads'
 *  and stuck reasons' places the board's (a reason's sentence may still name a turned box). */
export function routeTurned(
  host: RouterHost,
  req: Attempt,
  verify: Verify | undefined,
  route: (host: RouterHost, req: Attempt, verify: Verify | undefined) => RouteResult,
): RouteResult {
  const t = new Turn(req.turn ?? 0);
  const conn = req.connection;
  const turned: Attempt = {
    ...req,
    turn: undefined,
    ...(conn
      ? {
          connection: {
            ...conn,
            ...(conn.corridor ? { corridor: t.box(conn.corridor) } : {}),
            ...(conn.waypoints ? { waypoints: conn.waypoints.map((w) => ({ ...w, at: t.pt(w.at) })) } : {}),
          },
        }
      : {}),
    ...(req.window ? { window: t.box(req.window) } : {}),
    ...(req.reserved ? { reserved: req.reserved.map((r) => t.box(r)) } : {}),
    ...(req.hints?.regions ? { hints: { ...req.hints, regions: req.hints.regions.map((r) => t.box(r)) } } : {}),
  };
  const track = (k: NewTrack): NewTrack => ({ ...k, start: t.back(k.start), end: t.back(k.end), ...(k.mid ? { mid: t.back(k.mid) } : {}) });
  const via = (v: NewVia): NewVia => ({ ...v, at: t.back(v.at) });
  const judge: Verify | undefined = verify && ((tracks, vias) => verify(tracks.map(track), vias.map(via)));
  const r = route(turnedHost(host, t.degrees), turned, judge);
  const place = new Map(host.pads.map((p) => [p.index, p.at]));
  const end = <E extends { pad: number; at: Pt }>(e: E): E => ({ ...e, at: place.get(e.pad) ?? t.back(e.at) });
  const connection = (c: ConnectionResult): ConnectionResult => ({
    ...c,
    from: end(c.from),
    to: end(c.to),
    ...(c.stuck?.at ? { stuck: { ...c.stuck, at: t.back(c.stuck.at) } } : {}),
  });
  const connections = r.connections.map(connection);
  return {
    ...r,
    tracks: r.tracks.map(track),
    vias: r.vias.map(via),
    nets: r.nets.map((n) => ({ ...n, tracks: n.tracks.map(track), vias: n.vias.map(via) })),
    connections,
    open: connections.filter((c) => !c.routed),
  };
}
