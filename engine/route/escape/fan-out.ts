// Fan-out of area-array parts (BGAs): a ball a route cannot leave on its own layer gets a via at
// the centre of the square between it and three neighbours (a dogbone), as a designer fans a BGA
// out before routing it. That site lies between the balls, where the router's grid seldom has a
// site; placed exactly, it lets the search start from the via on the layers below.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import { bbox, circle, overlaps, segment, type Shape } from '../../geom/index.ts';
import type { RouteResult } from '../types.ts';
import { Checker } from '../core/checker.ts';
import type { HostPad, RouterHost } from '../core/host.ts';
import { spanMask, type ViaSpan } from '../core/via-span.ts';

/** Least rows and columns of pads for a part to count as an area array. */
const MIN_ROWS = 3;
/** Pitches (nm) of the area arrays fanned out: finer than this is left to the router. */
const MAX_PITCH = 1_300_000;

/** A part's pads on a square lattice: its pitch and centre (nm). */
export interface AreaArray {
  pitch: number;
  cx: number;
  cy: number;
}

/** Area-array parts by reference: at least MIN_ROWS distinct rows and columns at one pitch, the
 *  pads smaller than the pitch, and most lattice points within their box holding a pad. */
export function areaArrays(host: RouterHost): Map<string, AreaArray> {
  const byRef = new Map<string, HostPad[]>();
  for (const p of host.pads) {
    if (!p.ref || p.throughHole) continue;
    let l = byRef.get(p.ref);
    if (!l) byRef.set(p.ref, (l = []));
    l.push(p);
  }
  const out = new Map<string, AreaArray>();
  for (const [ref, pads] of [...byRef.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (pads.length < MIN_ROWS * MIN_ROWS) continue;
    const xs = [...new Set(pads.map((p) => p.at.x))].sort((a, b) => a - b);
    const ys = [...new Set(pads.map((p) => p.at.y))].sort((a, b) => a - b);
    if (xs.length < MIN_ROWS || ys.length < MIN_ROWS) continue;
    const pitch = xs[1] - xs[0];
    const even = (v: number[]) => v.every((x, i) => i === 0 || x - v[i - 1] === pitch);
    if (pitch <= 0 || pitch > MAX_PITCH || !even(xs) || !even(ys)) continue;
    if (pads.some((p) => p.minSize >= pitch) || pads.length * 2 < xs.length * ys.length) continue;
    out.set(ref, { pitch, cx: Math.round((xs[0] + xs[xs.length - 1]) / 2), cy: Math.round((ys[0] + ys[ys.length - 1]) / 2) });
  }
  return out;
}

/** The area arrays' balls a route cannot leave on their own layer: deeper than the rings whose
 *  tracks fit between the balls outside them, and not yet joined to copper of their net.
 *  Board pad indices, of nets `nets` only when given. */
export function innerBalls(host: RouterHost, nets?: ReadonlySet<number>): number[] {
  const arrays = areaArrays(host);
  const rows = new Map<string, { x0: number; x1: number; y0: number; y1: number }>();
  for (const p of host.pads) {
    if (!arrays.has(p.ref)) continue;
    const r = rows.get(p.ref) ?? { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity };
    rows.set(p.ref, { x0: Math.min(r.x0, p.at.x), x1: Math.max(r.x1, p.at.x), y0: Math.min(r.y0, p.at.y), y1: Math.max(r.y1, p.at.y) });
  }
  const out: number[] = [];
  for (const p of host.pads) {
    const arr = arrays.get(p.ref);
    const r = rows.get(p.ref);
    if (!arr || !r || p.net <= 0 || (nets && !nets.has(p.net))) continue;
    // Each ring of balls escapes between the balls of the rings outside it: as many rings as
    // tracks fit between two balls, and the outer one, leave on the surface.
    const layer = p.layers & 1 ? 0 : host.layerCount - 1;
    const w = host.rules.minTrackWidth(p.net, layer);
    const c = host.rules.clearance(p.net, 0, layer);
    const between = Math.max(0, Math.floor((arr.pitch - p.minSize - c) / (w + c)));
    const ring = Math.min(p.at.x - r.x0, r.x1 - p.at.x, p.at.y - r.y0, r.y1 - p.at.y) / arr.pitch;
    if (ring <= between) continue;
    const box = bbox(p.shape);
    const touches = (o: RouterHost['obstacles'][number]) => {
      if (o.net !== p.net || (o.kind !== 'track' && o.kind !== 'via') || (o.layers & p.layers) === 0) return false;
      const b = bbox(o.shape);
      return b.minX <= box.maxX && b.maxX >= box.minX && b.minY <= box.maxY && b.maxY >= box.minY && overlaps(o.shape, p.shape);
    };
    if (host.obstacles.some(touches)) continue;
    out.push(p.index);
  }
  return out;
}

/** One ball's fan-out: its dogbone track and via. */
export interface FanOut {
  pad: number;
  tracks: NewTrack[];
  vias: NewVia[];
}

/** What a fan-out may use: the net's class via and track, then the smallest the rules allow. */
export interface FanOutSizes {
  vias: (net: number) => { diameter: number; drill: number }[];
  widths: (net: number, layer: number) => number[];
}

/**
 * A dogbone for each of `pads` (board pad indices) on an area array, where one fits: the via at
 * a diagonal half a pitch away (the one pointing out of the array first), checked exactly
 * against `host` and the fan-outs placed before it, so no two share a site.
 */
export function fanOut(host: RouterHost, pads: readonly number[], sizes: FanOutSizes, softZones: boolean): FanOut[] {
  const arrays = areaArrays(host);
  const checker = new Checker(host, softZones);
  const byIndex = new Map(host.pads.map((p) => [p.index, p]));
  const out: FanOut[] = [];
  const last = host.layerCount - 1;
  for (const index of [...new Set(pads)].sort((a, b) => a - b)) {
    const pad = byIndex.get(index);
    const arr = pad && arrays.get(pad.ref);
    if (!pad || !arr || pad.net <= 0) continue;
    const layer = pad.layers & 1 ? 0 : (pad.layers >>> last) & 1 ? last : -1;
    if (layer < 0) continue;
    const h = arr.pitch / 2;
    // Out of the array first: the diagonal most along the line from its centre to the ball.
    const out0 = [pad.at.x - arr.cx, pad.at.y - arr.cy];
    const sites = [
      [h, h],
      [h, -h],
      [-h, h],
      [-h, -h],
    ].sort((a, b) => b[0] * out0[0] + b[1] * out0[1] - (a[0] * out0[0] + a[1] * out0[1]));
    const placed = place(checker, pad, layer, last, sites, sizes);
    if (placed) out.push(placed);
  }
  return out;
}

function place(checker: Checker, pad: HostPad, layer: number, last: number, sites: number[][], sizes: FanOutSizes): FanOut | undefined {
  const net = pad.net;
  for (const v of sizes.vias(net)) {
    for (const [dx, dy] of sites) {
      const x = pad.at.x + dx;
      const y = pad.at.y + dy;
      const span: ViaSpan = { type: 'through', from: 0, to: last, diameter: v.diameter, drill: v.drill };
      if (checker.via(net, x, y, span)) continue;
      const width = sizes.widths(net, layer).find((w) => !checker.track(net, layer, pad.at.x, pad.at.y, x, y, w));
      if (width === undefined) continue;
      checker.addVia(net, x, y, span);
      checker.addTrack(net, layer, pad.at.x, pad.at.y, x, y, width);
      return {
        pad: pad.index,
        tracks: [{ start: { ...pad.at }, end: { x, y }, width, layer, net }],
        vias: [{ at: { x, y }, size: v.diameter, drill: v.drill, layerFrom: 0, layerTo: last, net }],
      };
    }
  }
  return undefined;
}

/** `r` (routed with `fans` as fixed copper) with each fan-out its net's new copper touches taken
 *  into that net's copper; the others, which the route joined some other way or not at all, left
 *  out. */
export function withFans(r: RouteResult, fans: readonly FanOut[]): RouteResult {
  const used = fans.filter((f) => {
    const net = r.nets.find((n) => n.net === f.tracks[0]?.net);
    if (!net) return false;
    const fan = copperOf(f.tracks, f.vias);
    return copperOf(net.tracks, net.vias).some((a) => fan.some((b) => (a.layers & b.layers) !== 0 && overlaps(a.shape, b.shape)));
  });
  if (used.length === 0) return r;
  const length = (ts: readonly NewTrack[]) => ts.reduce((s, t) => s + Math.round(Math.hypot(t.end.x - t.start.x, t.end.y - t.start.y)), 0);
  const nets = r.nets.map((n) => {
    const own = used.filter((f) => f.tracks[0]?.net === n.net);
    if (own.length === 0) return n;
    const tracks = own.flatMap((f) => f.tracks);
    return { ...n, tracks: [...tracks, ...n.tracks], vias: [...own.flatMap((f) => f.vias), ...n.vias], length: n.length + length(tracks) };
  });
  const tracks = nets.flatMap((n) => n.tracks);
  const vias = nets.flatMap((n) => n.vias);
  const added = used.flatMap((f) => f.tracks);
  return { ...r, nets, tracks, vias, summary: { ...r.summary, tracks: tracks.length, vias: vias.length, length: r.summary.length + length(added) } };
}

/** Tracks and vias as shapes on their layers (bit i = layer i). */
function copperOf(tracks: readonly NewTrack[], vias: readonly NewVia[]): { shape: Shape; layers: number }[] {
  return [
    ...tracks.map((t) => ({ shape: segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width) as Shape, layers: 1 << t.layer })),
    ...vias.map((v) => ({ shape: circle(v.at.x, v.at.y, v.size / 2) as Shape, layers: spanMask(v.layerFrom, v.layerTo) })),
  ];
}
