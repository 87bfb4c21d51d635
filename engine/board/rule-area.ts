// Zones as custom-rule conditions name them (`A.intersectsArea('name')`, `A.enclosedByArea('name')`)
// and as keep-outs test them: the outline moved inward by the DRC epsilon, so copper that only
// touches the border (a fill knocked out against it) is not inside. Only outlines: a copper zone
// counts by its outline here, as KiCad's rule functions test items against the area's outline.

import type { LayerMask, Pt, Zone } from './model.ts';
import { boxesOverlap, type Box } from '../geom/box.ts';
import { compareDistance } from '../geom/collide.ts';
import { ringOrientation } from '../geom/polygon.ts';
import { bbox, polygon, segment, type Polygon, type Shape } from '../geom/shapes.ts';

/** KiCad's DRC epsilon (ADVANCED_CFG DRCEpsilon, 0.0005 mm), nm. */
export const DRC_EPSILON = 500;

/**
 * A ring moved inward by `by` nm (outward for a negative `by`) with mitred corners (Clipper's
 * offset with acute corners allowed, as KiCad deflates rule areas), rounded to nm. Null when the
 * ring collapses.
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
      const a = ring[i],
        b = ring[(i + 1) % n],
        p = out[i],
        q = out[(i + 1) % n];
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

function flat(ring: readonly Pt[]): number[] {
  return ring.flatMap((q) => [q.x, q.y]);
}

/** A zone's outline shrunk by the DRC epsilon, with its box; null when nothing is left. */
export interface ShrunkArea {
  zone: Zone;
  parts: Polygon[];
  box: Box;
}

export function shrunkArea(zone: Zone): ShrunkArea | null {
  const parts: Polygon[] = [];
  for (const p of zone.outline) {
    const ring = deflateRing(p.outline, DRC_EPSILON);
    if (!ring) continue;
    parts.push(polygon(flat(ring), p.holes.filter((h) => h.length >= 3).map(flat)));
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

/** Whether a shape reaches into the shrunk area (contact with the shrunk outline counts). */
export function touchesArea(area: ShrunkArea, shape: Shape): boolean {
  if (!boxesOverlap(area.box, bbox(shape))) return false;
  for (const p of area.parts) if (compareDistance(shape, p, 0) === 0) return true;
  return false;
}

/** What an area condition asks of one item: its copper and where it is. */
export interface AreaProbe {
  shape: Shape;
  /** Copper layers of the item. */
  layers: LayerMask;
  /** The copper layer under test, or -1 for any of the item's layers. */
  layer: number;
  /** Zone index when the item is (a fill of) a zone: a zone is not tested against itself. */
  zone?: number;
}

/** Anchored wildcard (`*`, `?`) test, as KiCad matches net class patterns and area names. */
export function wildcard(pattern: string, flags = ''): RegExp {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, flags);
}

/**
 * The zones and rule areas of a board by name, for rule conditions. As KiCad: every zone (board
 * and footprint, copper zones and rule areas) whose name matches the wildcard (`*`, `?`, case
 * kept); an item intersects an area when they share a copper layer, the area is on the layer
 * under test (when one is), and the item's shape touches the area's outline shrunk by the DRC
 * epsilon. Enclosed: the item's shape lies inside the outline (grown by the epsilon, as KiCad's
 * polygon approximations of round copper stick out of it by a little). Shrunk outlines are built
 * on first use.
 */
export class RuleAreas {
  readonly #zones: readonly Zone[];
  readonly #byName = new Map<string, Zone[]>();
  readonly #shrunk = new Map<number, ShrunkArea | null>();
  readonly #grown = new Map<number, { parts: Polygon[]; edges: Shape[] }>();

  constructor(zones: readonly Zone[]) {
    this.#zones = zones;
  }

  named(pattern: string): Zone[] {
    let found = this.#byName.get(pattern);
    if (!found) {
      const re = wildcard(pattern, 's');
      found = this.#zones.filter((z) => re.test(z.name));
      this.#byName.set(pattern, found);
    }
    return found;
  }

  intersects(pattern: string, item: AreaProbe): boolean {
    for (const z of this.named(pattern)) {
      if (z.index === item.zone || (z.layers & item.layers) >>> 0 === 0) continue;
      if (item.layer >= 0 && (z.layers & (1 << item.layer)) === 0) continue;
      let s = this.#shrunk.get(z.index);
      if (s === undefined) this.#shrunk.set(z.index, (s = shrunkArea(z)));
      if (s && touchesArea(s, item.shape)) return true;
    }
    return false;
  }

  enclosedBy(pattern: string, item: AreaProbe): boolean {
    for (const z of this.named(pattern)) {
      if (z.index === item.zone || (z.layers & item.layers) >>> 0 === 0) continue;
      let g = this.#grown.get(z.index);
      if (!g) this.#grown.set(z.index, (g = grownOutline(z)));
      if (!g.parts.some((p) => compareDistance(item.shape, p, 0) === 0)) continue;
      // Inside material and crossing no border: enclosed.
      if (!g.edges.some((e) => compareDistance(item.shape, e, 0) === 0)) return true;
    }
    return false;
  }
}

// The outline grown by the DRC epsilon, and its border (outline and holes) as zero-width segments.
function grownOutline(zone: Zone): { parts: Polygon[]; edges: Shape[] } {
  const parts: Polygon[] = [];
  const edges: Shape[] = [];
  for (const p of zone.outline) {
    const ring = deflateRing(p.outline, -DRC_EPSILON) ?? p.outline;
    if (ring.length < 3) continue;
    const holes = p.holes.filter((h) => h.length >= 3);
    parts.push(polygon(flat(ring), holes.map(flat)));
    for (const r of [ring, ...holes])
      for (let i = 0; i < r.length; i++) {
        const a = r[i],
          b = r[(i + 1) % r.length];
        edges.push(segment(a.x, a.y, b.x, b.y, 0));
      }
  }
  return { parts, edges };
}
