// The step-level tools an agent guides a route with: place_via, route_connection, rip (session
// copper inside a box) and reserve (a box or via site kept for one net in later routes). Each is
// a transaction like route: checked at exact geometry by the DRC, kept only as verify and commit
// allow, a new state when kept. Placement and routing go through the router's own rules.

import { circle, overlaps, rect, segment } from '../geom/index.ts';
import { classVia, type ConnectionRequest, defaultWork, hostFromDesign, type Reservation, type RouteRequest, routeOptions, viaHit } from '../route/index.ts';
import { toRouteOptions } from './route-options.ts';
import { appendCopper, copperDigest, copperLength } from './copper.ts';
import { ToolError } from './errors.ts';
import { mmToNm, nmToMm } from '../geom/units.ts';
import { lengthMm } from './names.ts';
import type { PlaceViaResult, ReserveResult, RipResult, RouteConnectionResult, VerdictJson } from './results.ts';
import type { ToolArgs } from './schemas.ts';
import type { CallContext, SessionState, StateNote } from './session-state.ts';
import { routerHost } from './router-host.ts';
import { breaches, reservations, settle, type Verdict } from './transaction.ts';
import { connectionJson, currentOpen, reasonKey } from './tools-look.ts';
import { padOf } from './ratsnest.ts';

function boxNm(b: readonly number[]): { minX: number; minY: number; maxX: number; maxY: number } {
  const [x1, y1, x2, y2] = b.map(mmToNm);
  return { minX: Math.min(x1, x2), minY: Math.min(y1, y2), maxX: Math.max(x1, x2), maxY: Math.max(y1, y2) };
}

/** A verdict as the step tools answer it: open_total counts the state the session is in after
 *  the call (the new one when kept, else the one it stayed in). */
function answer(v: Verdict): VerdictJson {
  return {
    committed: v.committed,
    ...(v.reason ? { reason: v.reason } : {}),
    state: v.state,
    open_total: v.committed ? v.openAfter : v.openBefore,
    added_errors: v.added_errors,
    breaks_reservations: v.breaks_reservations,
  };
}

export function placeVia(s: SessionState, a: ToolArgs<'place_via'>): PlaceViaResult {
  const net = s.names.net('place_via', 'net', a.net);
  const host = routerHost(s.design);
  const L = host.layerCount;
  const [la, lb] = a.layers ? a.layers.map((l) => s.names.layer('place_via', 'layers', l)) : [0, L - 1];
  if (la === lb) throw new ToolError('bad_argument', 'place_via: "layers" must name two different copper layers');
  const span = classVia(host, net, la, lb);
  if (span.from !== Math.min(la, lb) || span.to !== Math.max(la, lb)) {
    throw new ToolError('not_allowed', 'place_via: the project allows only through vias for this net (no blind, buried or micro-via joins those layers)');
  }
  const via = {
    at: { x: mmToNm(a.at_mm[0]), y: mmToNm(a.at_mm[1]) },
    size: span.diameter,
    drill: span.drill,
    layerFrom: span.from,
    layerTo: span.to,
    net,
    type: span.type,
    locked: true,
  };
  const add = { tracks: [], vias: [via] };
  const st = s.states.current;
  const copper = appendCopper(st.copper, add);
  // The router's exact check too: KiCad leaves some conflicts to warnings (two vias whose holes
  // meet report hole_to_hole, not clearance), which no route of ours would make either.
  const hit = a.verify === 'off' ? undefined : viaHit(hostFromDesign(s.design, st.copper), net, via.at.x, via.at.y, span);
  const conflict = hit ? { conflict: { with: hit.kind, ...(hit.net > 0 ? { net: s.names.netName(hit.net) } : {}) } } : {};
  const v = settle(s, { tool: 'place_via', args: a }, copper, add, {
    verify: a.verify,
    commit: a.commit,
    mustGain: false,
    note: { reasons: new Map(st.note?.reasons ?? []) },
    refuse: hit ? 'too_close' : undefined,
  });
  return {
    ...answer(v),
    ...conflict,
    via: {
      net: a.net,
      at_mm: a.at_mm,
      layers: [s.names.layerName(span.from), s.names.layerName(span.to)],
      diameter_mm: nmToMm(span.diameter),
      drill_mm: nmToMm(span.drill),
      type: span.type,
    },
  };
}

/** The connection route_connection makes: the pads named, or the net's only open connection. */
function pickConnection(s: SessionState, net: number, a: ToolArgs<'route_connection'>): { from: number; to: number } {
  if (a.a !== undefined && a.b !== undefined) {
    const from = s.names.pad('route_connection', 'a', a.a);
    const to = s.names.pad('route_connection', 'b', a.b);
    const pads = s.design.board.pads;
    if (pads[from].net !== net || pads[to].net !== net) throw new ToolError('bad_argument', 'route_connection: "a" and "b" must be pads of "net"');
    return { from, to };
  }
  if (a.a !== undefined || a.b !== undefined)
    throw new ToolError('bad_argument', 'route_connection: give both "a" and "b", or neither (the net\'s only open connection)');
  const open = currentOpen(s).filter((c) => c.net === net);
  if (open.length !== 1)
    throw new ToolError('bad_argument', `route_connection: the net has ${open.length} open connections; name one with "a" and "b" (see open_connections)`);
  return { from: padOf(open[0].a), to: padOf(open[0].b) };
}

export async function routeConnection(s: SessionState, a: ToolArgs<'route_connection'>, cx: CallContext = {}): Promise<RouteConnectionResult> {
  const left = s.workLeft;
  if (left !== null && left <= 0) throw new ToolError('limit', 'route_connection: the session work limit is spent');
  const net = s.names.net('route_connection', 'net', a.net);
  const { from, to } = pickConnection(s, net, a);
  const host = routerHost(s.design);
  const conn: ConnectionRequest = { net, from, to };
  if (a.waypoints)
    conn.waypoints = a.waypoints.map((w) => ({
      at: { x: mmToNm(w.at_mm[0]), y: mmToNm(w.at_mm[1]) },
      layer: s.names.layer('route_connection', 'waypoints.layer', w.layer),
    }));
  if (a.corridor_mm) conn.corridor = boxNm(a.corridor_mm);
  if (a.width_mm !== undefined) {
    const w = mmToNm(a.width_mm);
    const least = Math.max(...Array.from({ length: host.layerCount }, (_, l) => host.rules.minTrackWidth(net, l)));
    if (w < least)
      throw new ToolError('bad_argument', `route_connection: "width_mm" is below the rules' minimum track width for this net (${nmToMm(least)} mm)`);
    conn.width = w;
  }
  if (a.off_grid && a.waypoints?.length)
    throw new ToolError('bad_argument', 'route_connection: "off_grid" takes no "waypoints" (the search off the grid runs from pad to pad)');
  const st = s.states.current;
  // Within a session limit, the budget it would have without one (one connection's), or less.
  const work = left !== null ? Math.min(a.work ?? defaultWork(1), left) : a.work;
  const request: RouteRequest = {
    connection: conn,
    ...(a.off_grid ? { gridless: a.off_grid } : {}),
    variants: 1,
    ...(work !== undefined ? { work } : {}),
    ...(a.options ? { options: toRouteOptions(a.options) } : {}),
    ...(reservations(s).length ? { reserved: [...reservations(s)] } : {}),
    ...(st.copper.tracks.length || st.copper.vias.length ? { session: { tracks: [...st.copper.tracks], vias: [...st.copper.vias] } } : {}),
    ...(cx.shouldStop ? { shouldStop: cx.shouldStop } : {}),
  };
  const result = await s.ports.route(s.design, request);
  s.workUsed += result.work;
  const add = { tracks: result.tracks, vias: result.vias };
  const copper = appendCopper(st.copper, add);
  const c = result.connections[0];
  const made = c?.routed === true;
  const reasons = new Map(st.note?.reasons ?? []);
  if (c && !made && c.stuck) reasons.set(reasonKey(net, c.from.pad, c.to.pad), c.stuck);
  const v = settle(s, { tool: 'route_connection', args: a }, copper, add, {
    verify: a.verify,
    commit: a.commit === false || !made ? false : a.commit,
    mustGain: true,
    note: { reasons },
    softZones: routeOptions(request.options).softZones,
  });
  const r = answer(v);
  const why =
    !made && c?.stuck
      ? {
          stuck: {
            reason: c.stuck.reason,
            why: c.stuck.why,
            blockers: c.stuck.blockers.map((b) => ({ net: b.name, boundary_sites: b.count })),
            ...(c.stuck.hint ? { hint: c.stuck.hint } : {}),
            ...(c.stuck.fixedWalls ? { fixed_walls: true } : {}),
          },
        }
      : {};
  return {
    ...r,
    ...(!made && r.reason === 'dry_run' && a.commit !== false ? { reason: 'not_routed' } : {}),
    routed: made,
    a: s.names.padName[from],
    b: s.names.padName[to],
    new_copper: { tracks: add.tracks.length, vias: add.vias.length, length_mm: lengthMm(copperLength(add)) },
    ...why,
    work: { used: result.work, bound: result.budget, setup: result.setup, total_used: s.workUsed, left: s.workLeft },
  };
}

export function rip(s: SessionState, a: ToolArgs<'rip'>): RipResult {
  const box = boxNm(a.box_mm);
  const only = a.nets ? new Set(a.nets.map((n) => s.names.net('rip', 'nets', n))) : undefined;
  const layers = a.layers ? new Set(a.layers.map((l) => s.names.layer('rip', 'layers', l))) : undefined;
  const st = s.states.current;
  const r = rect(box.minX, box.minY, box.maxX, box.maxY);
  const mine = (n: number) => !only || only.has(n);
  const hit = new Set<number>();
  const take = <T extends { net: number }>(item: T, inBox: boolean): boolean => {
    if (!mine(item.net) || !inBox) return true;
    hit.add(item.net);
    return false;
  };
  const tracks = st.copper.tracks.filter((t) =>
    take(t, (!layers || layers.has(t.layer)) && overlaps(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), r)),
  );
  const vias = st.copper.vias.filter((v) =>
    take(v, (!layers || [...layers].some((l) => l >= v.layerFrom && l <= v.layerTo)) && overlaps(circle(v.at.x, v.at.y, v.size / 2), r)),
  );
  const removed = { tracks: st.copper.tracks.length - tracks.length, vias: st.copper.vias.length - vias.length };
  if (removed.tracks === 0 && removed.vias === 0)
    throw new ToolError('not_allowed', "rip: no session copper of those nets lies in the box (the board's own copper is never removed)");
  const nets = [...hit].sort((x, y) => x - y);
  const copper = Object.freeze({ tracks: Object.freeze(tracks), vias: Object.freeze(vias) });
  const open = s.open(copper, copperDigest(copper), true);
  const reasons = new Map([...(st.note?.reasons ?? [])].filter(([k]) => !nets.includes(Number(k.split('|')[0]))));
  const note: StateNote = { open: open.length, reasons, ...(st.note?.reserved ? { reserved: st.note.reserved } : {}) };
  const next = a.commit === false ? undefined : s.states.push({ tool: 'rip', args: a }, copper, note);
  return {
    committed: next !== undefined,
    ...(next ? {} : { reason: 'dry_run' }),
    state: next?.id ?? st.id,
    removed,
    nets: nets.map((n) => s.names.netName(n)),
    // The state the session is in after the call; `open`: the ripped nets' open connections in
    // the copper the rip leaves (kept or, in a dry run, not).
    open_total: next ? open.length : currentOpen(s).length,
    open: open
      .filter((c) => nets.includes(c.net))
      .slice(0, 64)
      .map((c) => connectionJson(s, c, note)),
  };
}

export function reserve(s: SessionState, a: ToolArgs<'reserve'>): ReserveResult {
  const net = s.names.net('reserve', 'net', a.net);
  const st = s.states.current;
  const held = reservations(s);
  let next: Reservation[];
  if (a.release) {
    next = held.filter((r) => r.net !== net);
    if (next.length === held.length) throw new ToolError('not_allowed', 'reserve: that net holds no reservation to release');
  } else {
    const layers = a.layers ? a.layers.map((l) => s.names.layer('reserve', 'layers', l)) : undefined;
    let box: { minX: number; minY: number; maxX: number; maxY: number };
    if (a.box_mm && !a.via_at_mm) box = boxNm(a.box_mm);
    else if (a.via_at_mm && !a.box_mm) {
      // A via site: the net's via there, so no other net's copper comes inside its pad.
      const host = routerHost(s.design);
      const r = host.rules.via(net).diameter / 2;
      const [x, y] = a.via_at_mm.map(mmToNm);
      box = { minX: x - r, minY: y - r, maxX: x + r, maxY: y + r };
    } else throw new ToolError('bad_argument', 'reserve: give "box_mm" or "via_at_mm" (one of them), or "release": true');
    const res: Reservation = { net, ...box, ...(layers ? { layers } : {}) };
    const theirs = breaches(s, { tracks: st.copper.tracks.filter((t) => t.net !== net), vias: st.copper.vias.filter((v) => v.net !== net) }, [res]);
    if (theirs.length) throw new ToolError('not_allowed', "reserve: other nets' session copper already lies in that box (rip it first)");
    next = [...held, res];
  }
  const state =
    a.commit === false
      ? undefined
      : s.states.push({ tool: 'reserve', args: a }, st.copper, {
          open: st.note?.open ?? currentOpen(s).length,
          reasons: new Map(st.note?.reasons ?? []),
          reserved: next,
        });
  return {
    committed: state !== undefined,
    ...(state ? {} : { reason: 'dry_run' }),
    state: state?.id ?? st.id,
    reserved: next.map((r) => ({
      net: s.names.netName(r.net),
      box_mm: [nmToMm(r.minX), nmToMm(r.minY), nmToMm(r.maxX), nmToMm(r.maxY)],
      ...(r.layers ? { layers: r.layers.map((l) => s.names.layerName(l)) } : {}),
    })),
  };
}
