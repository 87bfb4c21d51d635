// Adapter from the board model and rule resolver to the router's RouterHost: pads and copper
// become exact geom shapes, Edge.Cuts becomes flattened edges, and the rules are asked through
// the RuleResolver. Session copper (added earlier, kept locked) is fixed copper like the board's.

import type { Board, Pad, Primitive as BoardPrimitive } from '../../board/model.ts';
import type { RuleResolver } from '../../board/rules.ts';
import type { Design } from '../../board/design.ts';
import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { arc, arcToPolyline, circle, compound, inflate, overlaps, polygon, rect, segment, type Shape } from '../../geom/index.ts';
import { padShape } from '../../board/pad-copper.ts';
import { maskOpenings } from '../../drc/solder-mask.ts';
import type { HostHole, HostObstacle, HostPad, HostRules, RouterHost } from '../core/host.ts';

/** A board graphic as copper: outlines keep their stroke, filled shapes their area. */
export function shapeOfPrimitive(p: BoardPrimitive): Shape | undefined {
  const w = Math.max(0, p.width);
  switch (p.kind) {
    case 'line':
      return segment(p.a.x, p.a.y, p.b.x, p.b.y, w);
    case 'arc':
      return arc(p.start.x, p.start.y, p.mid.x, p.mid.y, p.end.x, p.end.y, w);
    case 'circle':
      if (p.filled) return circle(p.center.x, p.center.y, p.radius + w / 2);
      return arc(p.center.x + p.radius, p.center.y, p.center.x - p.radius, p.center.y, p.center.x + p.radius, p.center.y, w);
    case 'rect':
      if (p.filled) return rect(p.a.x, p.a.y, p.b.x, p.b.y, w / 2);
      return compound([
        segment(p.a.x, p.a.y, p.b.x, p.a.y, w),
        segment(p.b.x, p.a.y, p.b.x, p.b.y, w),
        segment(p.b.x, p.b.y, p.a.x, p.b.y, w),
        segment(p.a.x, p.b.y, p.a.x, p.a.y, w),
      ]);
    case 'poly': {
      if (p.pts.length === 0) return undefined;
      if (p.filled && p.pts.length >= 3)
        return polygon(
          p.pts.flatMap((q) => [q.x, q.y]),
          [],
          w / 2,
        );
      const parts: Shape[] = [];
      for (let i = 0; i < p.pts.length; i++) {
        const a = p.pts[i];
        const b = p.pts[(i + 1) % p.pts.length];
        parts.push(segment(a.x, a.y, b.x, b.y, w));
      }
      return compound(parts);
    }
    case 'curve': {
      if (p.pts.length < 2) return undefined;
      const parts: Shape[] = [];
      for (let i = 0; i + 1 < p.pts.length; i++) parts.push(segment(p.pts[i].x, p.pts[i].y, p.pts[i + 1].x, p.pts[i + 1].y, w));
      return compound(parts);
    }
  }
}

/** Edges of an outline primitive, arcs and circles flattened (nm quadruples appended to out). */
function outlineEdges(p: BoardPrimitive, out: number[]): void {
  const poly = (pts: ArrayLike<number>, closed: boolean) => {
    const n = pts.length / 2;
    for (let i = 0; i + 1 < n; i++) out.push(pts[2 * i], pts[2 * i + 1], pts[2 * i + 2], pts[2 * i + 3]);
    if (closed && n > 2) out.push(pts[2 * n - 2], pts[2 * n - 1], pts[0], pts[1]);
  };
  switch (p.kind) {
    case 'line':
      out.push(p.a.x, p.a.y, p.b.x, p.b.y);
      return;
    case 'arc':
      poly(arcToPolyline(p.start.x, p.start.y, p.mid.x, p.mid.y, p.end.x, p.end.y), false);
      return;
    case 'circle': {
      const n = 64;
      const pts: number[] = [];
      for (let i = 0; i < n; i++)
        pts.push(Math.round(p.center.x + p.radius * Math.cos((2 * Math.PI * i) / n)), Math.round(p.center.y + p.radius * Math.sin((2 * Math.PI * i) / n)));
      poly(pts, true);
      return;
    }
    case 'rect':
      poly([p.a.x, p.a.y, p.b.x, p.a.y, p.b.x, p.b.y, p.a.x, p.b.y], true);
      return;
    case 'poly':
      poly(
        p.pts.flatMap((q) => [q.x, q.y]),
        true,
      );
      return;
    case 'curve':
      poly(
        p.pts.flatMap((q) => [q.x, q.y]),
        false,
      );
      return;
  }
}

function hostRules(rules: RuleResolver): HostRules {
  const viaCache = new Map<number, { diameter: number; drill: number }>();
  return {
    clearance: (a, b, layer, ka, kb) => rules.clearance({ net: a, layer, ...ka }, { net: b, layer, ...kb }),
    trackWidth: (net, layer) => rules.trackWidth(net, layer),
    minTrackWidth: (net, layer) => rules.minTrackWidth(net, layer),
    via: (net) => {
      let v = viaCache.get(net);
      if (!v) viaCache.set(net, (v = rules.via(net)));
      return v;
    },
    minVia: (net) => {
      // The least drill, and round it the least ring: the least diameter alone can leave none.
      const via = { net, layer: -1, kind: 'via' } as const;
      const drill = rules.minHoleSize(via, false);
      return { diameter: Math.max(rules.minViaDiameter(via, false), drill + 2 * rules.minAnnularWidth(via)), drill };
    },
    blindBuried: rules.minimums.allowBlindBuried,
    microVia: (net) => (rules.minimums.allowMicrovias ? rules.microVia(net) : undefined),
    edgeClearance: (net, layer) => rules.edgeClearance(net, layer),
    holeClearance: (a, b) => rules.holeClearance({ net: a, layer: 0 }, { net: b, layer: 0 }),
    holeToHole: rules.holeToHole,
    minSpokes: rules.minimums.resolvedSpokes,
    className: (net) => rules.netClass(net).name,
    unmodelled: (net) => rules.unmodelledRules(net),
  };
}

function padHost(board: Board, pad: Pad, all: number): HostPad {
  const fp = board.footprints[pad.footprint];
  const th = pad.type === 'thru_hole' || pad.type === 'np_thru_hole';
  return {
    index: pad.index,
    ref: fp?.reference ?? '',
    number: pad.number,
    net: pad.net,
    at: pad.at,
    rotation: pad.rotation,
    layers: th && pad.type === 'thru_hole' ? all : pad.layers,
    shape: padShape(pad),
    clearance: pad.clearance ?? fp?.clearance ?? 0,
    minSize: Math.min(pad.size.w, pad.size.h),
    throughHole: th,
    padType: pad.type,
  };
}

/** What a board alone gives the router, before any session copper: built once per design and
 *  shared by every route on it (route-cache.ts). Kept in pieces so that session copper lands at
 *  the same places in the host's lists as when the host is built in one go. */
export interface BoardParts {
  layerCount: number;
  layerName(layer: number): string;
  netNames: string[];
  pads: HostPad[];
  padHoles: HostHole[];
  /** The board's own tracks and vias. */
  copper: HostObstacle[];
  viaHoles: HostHole[];
  /** Keep-outs, zone fills and graphics. */
  rest: HostObstacle[];
  outline: Shape[];
  outlineEdges: Float64Array;
  rules: HostRules;
}

/** Copper added earlier in the session, as obstacles and holes. */
export interface CopperParts {
  copper: HostObstacle[];
  holes: HostHole[];
}

type TrackLike = { start: { x: number; y: number }; end: { x: number; y: number }; mid?: { x: number; y: number }; width: number; layer: number; net: number };
type ViaLike = { at: { x: number; y: number }; size: number; drill: number; layerFrom: number; layerTo: number; net: number };

/** Tracks and vias as fixed copper: each via is copper and a plated hole. */
export function copperParts(tracks: readonly TrackLike[], vias: readonly ViaLike[]): CopperParts {
  const copper: HostObstacle[] = [];
  const holes: HostHole[] = [];
  for (const t of tracks) {
    const s = t.mid ? arc(t.start.x, t.start.y, t.mid.x, t.mid.y, t.end.x, t.end.y, t.width) : segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width);
    copper.push({ kind: 'track', shape: s, layers: 1 << t.layer, net: t.net, clearance: 0 });
  }
  for (const v of vias) {
    let m = 0;
    for (let l = v.layerFrom; l <= v.layerTo; l++) m |= 1 << l;
    copper.push({ kind: 'via', shape: circle(v.at.x, v.at.y, v.size / 2), layers: m >>> 0, net: v.net, clearance: 0 });
    holes.push({ shape: circle(v.at.x, v.at.y, v.drill / 2), net: v.net, plated: true });
  }
  return { copper, holes };
}

/** The board's share of the router's view (no session copper). */
export function boardParts(design: Design): BoardParts {
  const { board, rules } = design;
  const all = board.copperLayers.length >= 32 ? 0xffffffff >>> 0 : ((1 << board.copperLayers.length) - 1) >>> 0;
  const pads: HostPad[] = [];
  const padHoles: HostHole[] = [];
  for (const pad of board.pads) {
    if (pad.drill && pad.drill.w > 0) {
      const d = pad.drill;
      const r = Math.min(d.w, d.h) / 2;
      const hs = d.w === d.h ? circle(pad.at.x, pad.at.y, r) : ovalHole(pad.at.x, pad.at.y, d.w, d.h, pad.rotation);
      padHoles.push({ shape: hs, net: pad.type === 'np_thru_hole' ? 0 : pad.net, plated: pad.type !== 'np_thru_hole' });
    }
    if ((pad.layers & all) === 0 && pad.type !== 'thru_hole') continue;
    if (pad.type === 'np_thru_hole' && pad.size.w <= (pad.drill?.w ?? 0) && pad.size.h <= (pad.drill?.h ?? 0)) continue;
    pads.push(padHost(board, pad, all));
  }
  keepSpokesFree(board, rules, pads);
  const own = copperParts(board.tracks, board.vias);
  const rest: HostObstacle[] = [];
  for (const z of board.zones) {
    if (z.keepout) {
      for (const pw of z.outline) {
        if (pw.outline.length < 3) continue;
        const shape = polygon(
          pw.outline.flatMap((q) => [q.x, q.y]),
          pw.holes.map((h) => h.flatMap((q) => [q.x, q.y])),
        );
        rest.push({ kind: 'keepout', shape, layers: z.layers & all, net: 0, keepTracks: z.keepout.tracks, keepVias: z.keepout.vias, clearance: 0 });
      }
      continue;
    }
    for (const [layer, polys] of [...z.fills.entries()].sort((a, b) => a[0] - b[0])) {
      for (const pw of polys) {
        if (pw.outline.length < 3) continue;
        const shape = polygon(
          pw.outline.flatMap((q) => [q.x, q.y]),
          pw.holes.map((h) => h.flatMap((q) => [q.x, q.y])),
        );
        const zone: HostObstacle = { kind: 'zone', shape, layers: 1 << layer, net: z.net, clearance: z.clearance };
        if (z.padConnection === 'thermal' || z.padConnection === 'thru_hole_only')
          zone.thermal = { gap: z.thermalGap, thtOnly: z.padConnection === 'thru_hole_only' };
        if (z.padConnection === 'none') zone.noPads = true;
        if (z.minThickness > 0) zone.minWidth = z.minThickness;
        rest.push(zone);
      }
    }
  }
  for (const g of board.graphics) {
    // Copper text: its glyph strokes when known, else the polygon that holds every glyph (g.shape).
    const glyphs = g.text?.glyphs?.map(shapeOfPrimitive).filter((x): x is Shape => x !== undefined);
    const shape = glyphs?.length ? compound(glyphs) : shapeOfPrimitive(g.shape);
    if (shape) rest.push({ kind: 'graphic', shape, layers: 1 << g.layer, net: g.net, clearance: 0 });
  }
  // Solder mask openings: copper of another net must not show in them beside this one's — unless
  // the project has KiCad ignore such bridges, when an opening keeps nothing out.
  const leastClearance = Math.max(rules.minimums.clearance, Math.min(...rules.project.classes.map((c) => c.clearance)));
  const openings = rules.severity('solder_mask_bridge') === 'ignore' ? [] : maskOpenings(board, rules, leastClearance);
  for (const m of openings) {
    rest.push({ kind: 'mask', shape: m.shape, layers: m.side === 0 ? 1 : (1 << (board.copperLayers.length - 1)) >>> 0, net: m.net, clearance: m.clearance });
  }
  const outline: Shape[] = [];
  const edges: number[] = [];
  for (const o of board.outline) {
    const s = shapeOfPrimitive({
      ...o.shape,
      width: 0,
      ...(o.shape.kind === 'rect' || o.shape.kind === 'poly' || o.shape.kind === 'circle' ? { filled: false } : {}),
    } as BoardPrimitive);
    if (s) outline.push(s);
    outlineEdges(o.shape, edges);
  }
  // A non-plated slot is milled: KiCad keeps copper at edge clearance from it (drc/edge.ts).
  for (const pad of board.pads) {
    if (pad.type !== 'np_thru_hole' || !pad.drill || pad.drill.w === pad.drill.h) continue;
    outline.push(ovalHole(pad.at.x, pad.at.y, pad.drill.w, pad.drill.h, pad.rotation));
  }
  return {
    layerCount: board.copperLayers.length,
    layerName: (i) => board.copperLayers[i]?.name ?? `Cu${i}`,
    netNames: board.nets.map((n) => n?.name ?? ''),
    pads,
    padHoles,
    copper: own.copper,
    viaHoles: own.holes,
    rest,
    outline,
    outlineEdges: Float64Array.from(edges),
    rules: hostRules(rules),
  };
}

/** The router's host from a board's parts and the session's copper: fixed lists in a fixed order
 *  (board copper, session copper, then keep-outs, fills and graphics), so the router sees the
 *  same world whether the parts were built now or kept from an earlier route. */
export function assembleHost(b: BoardParts, extra: CopperParts): RouterHost {
  return {
    layerCount: b.layerCount,
    layerName: b.layerName,
    netNames: b.netNames,
    pads: b.pads,
    obstacles: [...b.copper, ...extra.copper, ...b.rest],
    holes: [...b.padHoles, ...b.viaHoles, ...extra.holes],
    outline: b.outline,
    outlineEdges: b.outlineEdges,
    rules: b.rules,
  };
}

/** The router's view of a design; `extra` is locked copper added earlier in the session. */
export function hostFromDesign(design: Design, extra: { tracks: readonly NewTrack[]; vias: readonly NewVia[] } = { tracks: [], vias: [] }): RouterHost {
  return assembleHost(boardParts(design), copperParts(extra.tracks, extra.vias));
}

/**
 * A pad joined to its net's zone by thermal spokes needs room for them after KiCad refills the
 * zone: other nets keep the thermal gap plus the zone clearance away from it, or the refill
 * starves the relief (starved_thermal). Sets such pads' spokes: that clearance, on the layers
 * the fills reach them on (HostPad.spokes).
 */
function keepSpokesFree(board: Board, rules: RuleResolver, pads: HostPad[]): void {
  for (const z of board.zones) {
    if (z.keepout || z.net <= 0 || z.padConnection === 'solid' || z.padConnection === 'none') continue;
    const fills = [...z.fills.entries()].sort((a, b) => a[0] - b[0]);
    if (!fills.length) continue;
    // Spoke length (the gap), then fill at least as wide as a spoke or the zone's minimum, then
    // the zone's clearance to the other net's copper.
    const need = z.thermalGap + Math.max(z.thermalBridgeWidth, z.minThickness) + Math.max(z.clearance, rules.netClass(z.net).clearance);
    // Each fill's polygons once per zone, not once per pad.
    const shapes = fills.map(([layer, polys]) => ({
      layer,
      polys: polys
        .filter((pw) => pw.outline.length >= 3)
        .map((pw) =>
          polygon(
            pw.outline.flatMap((q) => [q.x, q.y]),
            pw.holes.map((h) => h.flatMap((q) => [q.x, q.y])),
          ),
        ),
    }));
    for (const hp of pads) {
      if (hp.net !== z.net || hp.clearance >= need) continue;
      if (z.padConnection === 'thru_hole_only' && !hp.throughHole) continue;
      // Only the layers the fill reaches the pad on have spokes: elsewhere the pad asks no more.
      let layers = 0;
      const grown = inflate(hp.shape, need);
      for (const { layer, polys } of shapes) if ((hp.layers >>> layer) & 1 && polys.some((poly) => overlaps(poly, grown))) layers |= 1 << layer;
      if (layers) hp.spokes = { layers: ((hp.spokes?.layers ?? 0) | layers) >>> 0, clearance: Math.max(hp.spokes?.clearance ?? 0, need) };
    }
  }
}

function ovalHole(x: number, y: number, w: number, h: number, rotation: number): Shape {
  const long = Math.max(w, h);
  const short = Math.min(w, h);
  const half = (long - short) / 2;
  const rad = (rotation * Math.PI) / 180;
  // Along the pad's own x when w > h, else its y; KiCad's rotation is counter-clockwise on screen.
  const ux = w >= h ? Math.cos(rad) : Math.sin(rad);
  const uy = w >= h ? -Math.sin(rad) : Math.cos(rad);
  return segment(Math.round(x - ux * half), Math.round(y - uy * half), Math.round(x + ux * half), Math.round(y + uy * half), short);
}
