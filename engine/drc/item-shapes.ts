// The exact copper and hole shapes of board items as the DRC sees them (KiCad's "effective
// shapes"): pads (built by engine/geom/pad-shape.ts from the board model's pad), tracks, arcs,
// vias, zone fills, copper graphics and copper text (its glyphs), in integer nm. It builds shapes only; what they are
// checked against lives in the checks.

import type { Pad, PolygonWithHoles, Primitive as ModelPrimitive, Track, Via } from '../board/model.ts';
import { kiRound, rotatePoint } from '../geom/units.ts';
import { arc, circle, compound, polygon, segment, type Shape } from '../geom/shapes.ts';

/** A pad's hole as a shape (a disc, or a slot as a segment), nm; null without a drill. */
export function padHoleShape(pad: Pad): Shape | null {
  const d = pad.drill;
  if (!d || d.w <= 0) return null;
  // KiCad: a segment of width 2 × (min size / 2), integer halves as everywhere in its shapes.
  if (d.shape === 'circle' || d.w === d.h) return circle(pad.at.x, pad.at.y, Math.trunc(d.w / 2));
  const half = Math.trunc(Math.abs(d.w - d.h) / 2);
  const local = d.w > d.h ? [-half, 0, half, 0] : [0, -half, 0, half];
  const [ax, ay] = rotatePoint(local[0], local[1], pad.rotation);
  const [bx, by] = rotatePoint(local[2], local[3], pad.rotation);
  return segment(pad.at.x + ax, pad.at.y + ay, pad.at.x + bx, pad.at.y + by, 2 * Math.trunc(Math.min(d.w, d.h) / 2));
}

/** A track's copper: an arc where it has a middle point (a board arc, or new copper with `mid`). */
export function trackShape(t: Pick<Track, 'start' | 'end' | 'mid' | 'width'>): Shape {
  if (t.mid) return arc(t.start.x, t.start.y, t.mid.x, t.mid.y, t.end.x, t.end.y, t.width);
  return segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width);
}

export function viaShape(v: Via): Shape {
  // KiCad's SHAPE_CIRCLE(width / 2): integer division.
  return circle(v.at.x, v.at.y, Math.trunc(v.size / 2));
}

export function viaHoleShape(v: Via): Shape {
  return circle(v.at.x, v.at.y, Math.trunc(v.drill / 2));
}

/** One filled polygon of a zone (a fractured outline; holes already bridged in). */
export function fillShape(p: PolygonWithHoles): Shape | null {
  if (p.outline.length < 3) return null;
  return polygon(
    p.outline.flatMap((q) => [q.x, q.y]),
    p.holes.filter((h) => h.length >= 3).map((h) => h.flatMap((q) => [q.x, q.y])),
  );
}

/** A copper graphic (board or footprint shape on a copper layer), nm; null for no copper. */
export function graphicShape(p: ModelPrimitive): Shape | null {
  switch (p.kind) {
    case 'line':
      return segment(p.a.x, p.a.y, p.b.x, p.b.y, p.width);
    case 'arc':
      return arc(p.start.x, p.start.y, p.mid.x, p.mid.y, p.end.x, p.end.y, p.width);
    case 'circle': {
      if (p.filled) return circle(p.center.x, p.center.y, p.radius + (p.width >> 1));
      // An unfilled circle is a ring: a full-circle arc (start = end, mid opposite), as the pad
      // primitives in engine/geom/pad-shape.ts build it.
      const { x, y } = p.center;
      const r = kiRound(p.radius);
      return arc(x + r, y, x - r, y, x + r, y, p.width);
    }
    case 'rect': {
      const ring = [p.a.x, p.a.y, p.b.x, p.a.y, p.b.x, p.b.y, p.a.x, p.b.y];
      if (p.filled) return polygon(ring, [], p.width >> 1);
      return outlineSegments(ring, p.width);
    }
    case 'poly': {
      if (p.pts.length < 2) return null;
      const ring = p.pts.flatMap((q) => [q.x, q.y]);
      if (p.filled && p.pts.length >= 3) return polygon(ring, [], p.width >> 1);
      return outlineSegments(ring, p.width);
    }
    case 'curve': {
      if (p.pts.length < 2) return null;
      const parts: Shape[] = [];
      for (let k = 0; k + 1 < p.pts.length; k++) parts.push(segment(p.pts[k].x, p.pts[k].y, p.pts[k + 1].x, p.pts[k + 1].y, p.width));
      return compound(parts);
    }
  }
}

function outlineSegments(ring: number[], width: number): Shape | null {
  const parts: Shape[] = [];
  const n = ring.length / 2;
  for (let k = 0; k < n; k++) {
    const j = (k + 1) % n;
    parts.push(segment(ring[2 * k], ring[2 * k + 1], ring[2 * j], ring[2 * j + 1], width));
  }
  return parts.length ? compound(parts) : null;
}

/** A copper text as KiCad checks it: its glyph strokes and outlines together, nm; null without any. */
export function textShape(glyphs: readonly ModelPrimitive[]): Shape | null {
  const parts: Shape[] = [];
  for (const g of glyphs) {
    const s = graphicShape(g);
    if (s) parts.push(s);
  }
  return parts.length ? compound(parts) : null;
}
