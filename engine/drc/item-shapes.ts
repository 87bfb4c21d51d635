// The exact copper and hole shapes of board items as the DRC sees them (KiCad's "effective
// shapes"): pads of every kind with their rotation and offset, tracks, arcs, vias, zone fills
// and copper graphics, in integer nm. It builds shapes only; what they are checked against lives
// in the checks. A rounded rect is its inner polygon grown by the corner radius, as KiCad does.

import type { Pad, PolygonWithHoles, Primitive as ModelPrimitive, Pt, Track, Via } from '../board/model.ts';
import { rotatePoint } from '../geom/units.ts';
import { arc, circle, compound, polygon, rect, segment, type Shape } from '../geom/shapes.ts';

function isRightAngle(deg: number): boolean {
  const d = ((deg % 360) + 360) % 360;
  return d === 0 || d === 90 || d === 180 || d === 270;
}

/** The centre of a pad's copper: its anchor plus the rotated copper offset, nm. */
export function padCopperCentre(pad: Pad): Pt {
  if (pad.offset.x === 0 && pad.offset.y === 0) return pad.at;
  const [x, y] = rotatePoint(pad.offset.x, pad.offset.y, pad.rotation);
  return { x: pad.at.x + x, y: pad.at.y + y };
}

/** Pad-local points (nm, about the copper centre) to a flat ring in board coordinates. */
function placeRing(pad: Pad, c: Pt, local: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < local.length; i += 2) {
    const [x, y] = rotatePoint(local[i], local[i + 1], pad.rotation);
    out.push(c.x + x, c.y + y);
  }
  return out;
}

// A rectangle or trapezoid's corners (pad-local, KiCad's order), shrunk by r on each side.
// KiCad's trapezoid: delta.x / 2 and delta.y / 2 move the corners as below.
function quadCorners(pad: Pad, r: number): number[] {
  const hx = Math.max(0, Math.trunc(pad.size.w / 2) - r);
  const hy = Math.max(0, Math.trunc(pad.size.h / 2) - r);
  const dx = pad.shape === 'trapezoid' ? Math.trunc(pad.delta.x / 2) : 0;
  const dy = pad.shape === 'trapezoid' ? Math.trunc(pad.delta.y / 2) : 0;
  return [-hx - dy, hy + dx, hx + dy, hy - dx, hx - dy, -hy + dx, -hx + dy, -hy - dx];
}

// A chamfered rectangle's outline (pad-local), corners cut by chamferRatio × the smaller side.
// Rounded corners on the uncut corners are left sharp (a slight over-estimate of copper).
function chamferedCorners(pad: Pad): number[] {
  const hx = Math.trunc(pad.size.w / 2);
  const hy = Math.trunc(pad.size.h / 2);
  const ch = Math.round(Math.min(pad.size.w, pad.size.h) * pad.chamferRatio);
  const cut = (bit: number) => ((pad.chamferCorners >> bit) & 1 ? ch : 0);
  const out: number[] = [];
  // top-left (bit 0), top-right (1), bottom-right (3), bottom-left (2), walking around.
  let c = cut(0);
  out.push(-hx, -hy + c, -hx + c, -hy);
  c = cut(1);
  out.push(hx - c, -hy, hx, -hy + c);
  c = cut(3);
  out.push(hx, hy - c, hx - c, hy);
  c = cut(2);
  out.push(-hx + c, hy, -hx, hy - c);
  return out;
}

function roundRadius(pad: Pad): number {
  return Math.round(Math.min(pad.size.w, pad.size.h) * pad.roundrectRatio);
}

function modelPrimitive(pad: Pad, c: Pt, p: ModelPrimitive): Shape | null {
  const place = (q: Pt): Pt => {
    const [x, y] = rotatePoint(q.x, q.y, pad.rotation);
    return { x: c.x + x, y: c.y + y };
  };
  switch (p.kind) {
    case 'line': {
      const a = place(p.a);
      const b = place(p.b);
      return segment(a.x, a.y, b.x, b.y, p.width);
    }
    case 'arc': {
      const s = place(p.start);
      const m = place(p.mid);
      const e = place(p.end);
      return arc(s.x, s.y, m.x, m.y, e.x, e.y, p.width);
    }
    case 'circle': {
      const o = place(p.center);
      return circle(o.x, o.y, p.radius + (p.width >> 1));
    }
    case 'rect': {
      const pts = [p.a.x, p.a.y, p.b.x, p.a.y, p.b.x, p.b.y, p.a.x, p.b.y];
      return polygon(placeRing(pad, c, pts), [], p.width >> 1);
    }
    case 'poly': {
      if (p.pts.length < 3) return null;
      return polygon(placeRing(pad, c, p.pts.flatMap((q) => [q.x, q.y])), [], p.width >> 1);
    }
    case 'curve':
      return null;
  }
}

/** A pad's copper on a layer where it is flashed (nm, board coordinates). */
export function padShape(pad: Pad): Shape {
  const c = padCopperCentre(pad);
  const { w, h } = pad.size;
  switch (pad.shape) {
    case 'circle':
      return circle(c.x, c.y, w / 2);
    case 'oval': {
      if (w === h) return circle(c.x, c.y, w / 2);
      const half = Math.trunc(Math.abs(w - h) / 2);
      const local = w > h ? [-half, 0, half, 0] : [0, -half, 0, half];
      const r = placeRing(pad, c, local);
      return segment(r[0], r[1], r[2], r[3], Math.min(w, h));
    }
    case 'rect':
    case 'roundrect':
    case 'trapezoid': {
      const r = pad.shape === 'roundrect' ? roundRadius(pad) : 0;
      if (isRightAngle(pad.rotation) && (pad.shape !== 'trapezoid' || (pad.delta.x === 0 && pad.delta.y === 0))) {
        const ring = placeRing(pad, c, quadCorners(pad, r));
        return rect(ring[0], ring[1], ring[4], ring[5], r);
      }
      return polygon(placeRing(pad, c, quadCorners(pad, r)), [], r);
    }
    case 'chamfered_rect': {
      if (pad.chamferCorners === 0 || pad.chamferRatio <= 0) {
        const r = roundRadius(pad);
        return polygon(placeRing(pad, c, quadCorners(pad, r)), [], r);
      }
      return polygon(placeRing(pad, c, chamferedCorners(pad)), []);
    }
    case 'custom': {
      const parts: Shape[] = [];
      if (pad.anchor === 'rect') {
        const hx = Math.trunc(w / 2);
        const hy = Math.trunc(h / 2);
        parts.push(polygon(placeRing(pad, c, [-hx, -hy, hx, -hy, hx, hy, -hx, hy])));
      } else parts.push(circle(c.x, c.y, w / 2));
      for (const p of pad.primitives ?? []) {
        const s = modelPrimitive(pad, c, p);
        if (s) parts.push(s);
      }
      return parts.length === 1 ? parts[0] : compound(parts);
    }
  }
}

/** A pad's hole as a shape (a disc, or a slot as a segment), nm; null without a drill. */
export function padHoleShape(pad: Pad): Shape | null {
  const d = pad.drill;
  if (!d || d.w <= 0) return null;
  if (d.shape === 'circle' || d.w === d.h) return circle(pad.at.x, pad.at.y, d.w / 2);
  const half = Math.trunc(Math.abs(d.w - d.h) / 2);
  const local = d.w > d.h ? [-half, 0, half, 0] : [0, -half, 0, half];
  const [ax, ay] = rotatePoint(local[0], local[1], pad.rotation);
  const [bx, by] = rotatePoint(local[2], local[3], pad.rotation);
  return segment(pad.at.x + ax, pad.at.y + ay, pad.at.x + bx, pad.at.y + by, Math.min(d.w, d.h));
}


export function trackShape(t: Track): Shape {
  if (t.kind === 'arc' && t.mid) return arc(t.start.x, t.start.y, t.mid.x, t.mid.y, t.end.x, t.end.y, t.width);
  return segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width);
}

export function viaShape(v: Via): Shape {
  return circle(v.at.x, v.at.y, v.size / 2);
}

export function viaHoleShape(v: Via): Shape {
  return circle(v.at.x, v.at.y, v.drill / 2);
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
      // An unfilled circle is a ring: approximate it by its outline polygon's segments.
      const parts: Shape[] = [];
      const n = 32;
      for (let k = 0; k < n; k++) {
        const a0 = (2 * Math.PI * k) / n;
        const a1 = (2 * Math.PI * (k + 1)) / n;
        parts.push(
          segment(
            Math.round(p.center.x + p.radius * Math.cos(a0)),
            Math.round(p.center.y + p.radius * Math.sin(a0)),
            Math.round(p.center.x + p.radius * Math.cos(a1)),
            Math.round(p.center.y + p.radius * Math.sin(a1)),
            p.width,
          ),
        );
      }
      return compound(parts);
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
