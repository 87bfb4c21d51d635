// Keep-out rule areas (`items_not_allowed`): a track, via, pad or copper fill that a rule area
// forbids, on one of its layers, is reported once, as KiCad 9's disallow provider does through
// the implicit rule "A.intersectsArea(area)". The area is first shrunk by the DRC epsilon so
// copper that only touches its border (a fill knocked out against it) passes; contact with the
// shrunk area counts. Footprint keep-outs (courtyards) are not modelled: the board model has none.

import type { Pt, Zone } from '../board/model.ts';
import { compareDistance } from '../geom/collide.ts';
import { ringOrientation } from '../geom/polygon.ts';
import { bbox, polygon, type Polygon, type Shape } from '../geom/shapes.ts';
import { DRC_EPSILON, itemRef } from './clearance.ts';
import type { CopperItem, CopperItems } from './copper-items.ts';
import type { ViolationSink } from './violation.ts';

/**
 * A ring moved inward by `by` nm with mitred corners (Clipper's offset with acute corners
 * allowed, as KiCad deflates rule areas), rounded to nm. Null when the ring collapses.
 */
export function deflateRing(ring: readonly Pt[], by: number): Pt[] | null {
  const n = ring.length;
  if (n < 3) return null;
  const flat = new Float64Array(2 * n);
  ring.forEach((p, i) => ((flat[2 * i] = p.x), (flat[2 * i + 1] = p.y)));
  // Which side of each edge is inside follows from the ring's orientation.
  const sign = ringOrientation(flat) > 0 ? 1 : -1;
  const out: Pt[] = [];
  for (let i = 0; i < n; i++) {
    const p = ring[(i + n - 1) % n];
    const q = ring[i];
    const r = ring[(i + 1) % n];
    const n1 = inwardNormal(p, q, sign);
    const n2 = inwardNormal(q, r, sign);
    if (!n1 || !n2) continue;
    // The corner moves along the bisector by by / cos(half angle): n1 + n2 scaled.
    const dot = n1.x * n2.x + n1.y * n2.y;
    const k = by / (1 + dot);
    if (!Number.isFinite(k) || 1 + dot < 1e-9) continue;
    out.push({ x: Math.round(q.x + (n1.x + n2.x) * k), y: Math.round(q.y + (n1.y + n2.y) * k) });
  }
  if (out.length < 3) return null;
  const area = signedArea(out);
  if (area === 0 || Math.sign(area) !== Math.sign(signedArea(ring))) return null;
  // A ring shrunk past its width turns inside out: its edges run against the original ones.
  if (out.length === n) {
    for (let i = 0; i < n; i++) {
      const a = ring[i], b = ring[(i + 1) % n], p = out[i], q = out[(i + 1) % n];
      if ((b.x - a.x) * (q.x - p.x) + (b.y - a.y) * (q.y - p.y) < 0) return null;
    }
  }
  return out;
}

function inwardNormal(a: Pt, b: Pt, sign: number): Pt | null {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy);
  if (len === 0) return null;
  // For a positively oriented ring (orient2d > 0) the inside lies at (−dy, dx) of each edge.
  return { x: (-sign * dy) / len, y: (sign * dx) / len };
}

function signedArea(ring: readonly Pt[]): number {
  let s = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    s += a.x * b.y - b.x * a.y;
  }
  return s;
}

interface Area {
  zone: Zone;
  parts: Polygon[];
  box: { minX: number; minY: number; maxX: number; maxY: number };
}

function shrunkArea(zone: Zone): Area | null {
  const parts: Polygon[] = [];
  for (const p of zone.outline) {
    const ring = deflateRing(p.outline, DRC_EPSILON);
    if (!ring) continue;
    parts.push(polygon(ring.flatMap((q) => [q.x, q.y]), p.holes.filter((h) => h.length >= 3).map((h) => h.flatMap((q) => [q.x, q.y]))));
  }
  if (parts.length === 0) return null;
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const p of parts) {
    box.minX = Math.min(box.minX, p.box.minX);
    box.minY = Math.min(box.minY, p.box.minY);
    box.maxX = Math.max(box.maxX, p.box.maxX);
    box.maxY = Math.max(box.maxY, p.box.maxY);
  }
  return { zone, parts, box };
}

function forbids(zone: Zone, it: CopperItem): boolean {
  const k = zone.keepout!;
  switch (it.kind) {
    case 'track':
      return k.tracks;
    case 'via':
      return k.vias;
    case 'pad':
      // A footprint's own rule area does not forbid its pads.
      return k.pads && it.footprint !== zone.footprint;
    case 'zone':
      return k.copperpour;
    case 'graphic':
      return false;
  }
}

function touchesArea(area: Area, shape: Shape): boolean {
  for (const p of area.parts) if (compareDistance(shape, p, 0) === 0) return true;
  return false;
}

function position(copper: CopperItems, it: CopperItem): Pt {
  const b = copper.board;
  switch (it.kind) {
    case 'pad':
      return b.pads[it.ref].at;
    case 'track':
      return b.tracks[it.ref].start;
    case 'via':
      return b.vias[it.ref].at;
    default:
      return it.anchors[0] ?? { x: 0, y: 0 };
  }
}

/** Reports `items_not_allowed` for the given item ids (default: all). */
export function checkKeepouts(copper: CopperItems, sink: ViolationSink, scope?: Set<number>): void {
  if (!sink.wants('items_not_allowed')) return;
  const areas: Area[] = [];
  for (const z of copper.board.zones) {
    if (!z.keepout) continue;
    const a = shrunkArea(z);
    if (a) areas.push(a);
  }
  if (areas.length === 0) return;
  // A zone is one finding however many of its fill polygons reach into the area.
  const zoneReported = new Set<number>();
  for (const it of copper.items) {
    if (scope && !scope.has(it.id)) continue;
    if (it.kind === 'zone' && zoneReported.has(it.ref)) continue;
    for (const area of areas) {
      if (!forbids(area.zone, it) || (it.layers & area.zone.layers) === 0) continue;
      const b = bbox(it.shape);
      if (b.maxX < area.box.minX || b.minX > area.box.maxX || b.maxY < area.box.minY || b.minY > area.box.maxY) continue;
      if (!touchesArea(area, it.shape)) continue;
      const name = area.zone.name ? `keepout area '${area.zone.name}'` : 'keepout area';
      sink.add('items_not_allowed', `Items not allowed (${name})`, position(copper, it), [it.net], [itemRef(it)]);
      if (it.kind === 'zone') zoneReported.add(it.ref);
      break;
    }
  }
}
