// Graphic primitives as KiCad writes them (gr_*, fp_*, pad primitives, zone polygons), read into
// the model's Primitive and polygon types in nm. Footprint-local items are placed by the caller's
// transform; KiCad 6's centre/angle arcs are converted to start/mid/end.

import type { Primitive, Pt } from '../board/model.ts';
import { rotate } from '../board/transform.ts';
import { atomAt, child, head, type SList } from './sexpr.ts';
import type { ReadContext } from './values.ts';

export type Transform = (p: Pt) => Pt;
export const identity: Transform = (p) => p;

/** Stroke width of a graphic: `(stroke (width w))` (KiCad 7+) or `(width w)` (KiCad 6). */
function strokeWidth(ctx: ReadContext, node: SList): number {
  const stroke = child(node, 'stroke');
  if (stroke) {
    const w = ctx.optNm(stroke, 'width');
    if (w !== undefined) return Math.max(0, w);
  }
  return Math.max(0, ctx.optNm(node, 'width') ?? 0);
}

function isFilled(node: SList): boolean {
  const f = child(node, 'fill');
  if (!f) return false;
  const v = atomAt(f, 1);
  if (v === 'solid' || v === 'yes' || v === 'true') return true;
  // KiCad 9 writes (fill (type solid)) in some places.
  const t = child(f, 'type');
  return !!t && atomAt(t, 1) === 'solid';
}

/** Points of a `(pts (xy …) (arc (start …) (mid …) (end …)) …)` list; arcs become polylines. */
export function readPts(ctx: ReadContext, pts: SList, tf: Transform, maxError: number): Pt[] {
  const out: Pt[] = [];
  for (let k = 1; k < pts.items.length; k++) {
    const it = pts.items[k];
    if (it.kind !== 'list') continue;
    const h = head(it);
    if (h === 'xy') out.push(tf(ctx.pt(it)));
    else if (h === 'arc') {
      const s = ctx.pt(ctx.need(it, 'start'));
      const m = ctx.pt(ctx.need(it, 'mid'));
      const e = ctx.pt(ctx.need(it, 'end'));
      for (const p of arcPolyline(s, m, e, maxError)) out.push(tf(p));
    }
  }
  return out;
}

/**
 * Reads one graphic primitive (`gr_line`, `fp_arc`, pad `gr_poly` …) or returns null for kinds that
 * hold no geometry for copper purposes. Coordinates pass through `tf`.
 */
export function readPrimitive(ctx: ReadContext, node: SList, tf: Transform, maxError: number): Primitive | null {
  const kind = head(node).replace(/^(gr|fp)_/, '');
  const width = strokeWidth(ctx, node);
  switch (kind) {
    case 'line':
      return { kind: 'line', a: tf(ctx.pt(ctx.need(node, 'start'))), b: tf(ctx.pt(ctx.need(node, 'end'))), width };
    case 'arc': {
      const angle = child(node, 'angle');
      if (angle) {
        // KiCad 6: (start) is the centre, (end) the arc start, (angle) the sweep in degrees.
        const c = ctx.pt(ctx.need(node, 'start'));
        const s = ctx.pt(ctx.need(node, 'end'));
        const sweep = ctx.num(angle, 1);
        const rel = { x: s.x - c.x, y: s.y - c.y };
        const mRel = rotate(rel, -sweep / 2);
        const eRel = rotate(rel, -sweep);
        return {
          kind: 'arc',
          start: tf(s),
          mid: tf({ x: c.x + mRel.x, y: c.y + mRel.y }),
          end: tf({ x: c.x + eRel.x, y: c.y + eRel.y }),
          width,
        };
      }
      return {
        kind: 'arc',
        start: tf(ctx.pt(ctx.need(node, 'start'))),
        mid: tf(ctx.pt(ctx.need(node, 'mid'))),
        end: tf(ctx.pt(ctx.need(node, 'end'))),
        width,
      };
    }
    case 'circle': {
      const c = ctx.pt(ctx.need(node, 'center'));
      const e = ctx.pt(ctx.need(node, 'end'));
      return { kind: 'circle', center: tf(c), radius: Math.round(Math.hypot(e.x - c.x, e.y - c.y)), width, filled: isFilled(node) };
    }
    case 'rect': {
      const a = ctx.pt(ctx.need(node, 'start'));
      const b = ctx.pt(ctx.need(node, 'end'));
      const pts = [a, { x: b.x, y: a.y }, b, { x: a.x, y: b.y }].map(tf);
      // A rotated footprint turns its rectangles; keep them as polygons then.
      if (pts[0].x === pts[3].x || pts[0].y === pts[3].y) {
        const xs = pts.map((p) => p.x);
        const ys = pts.map((p) => p.y);
        if ((pts[0].x === pts[3].x && pts[0].y === pts[1].y) || (pts[0].y === pts[3].y && pts[0].x === pts[1].x)) {
          return {
            kind: 'rect',
            a: { x: Math.min(...xs), y: Math.min(...ys) },
            b: { x: Math.max(...xs), y: Math.max(...ys) },
            width,
            filled: isFilled(node),
          };
        }
      }
      return { kind: 'poly', pts, width, filled: isFilled(node) };
    }
    case 'poly': {
      const pts = child(node, 'pts');
      if (!pts) throw ctx.error(node, `(${head(node)}) has no (pts)`);
      // Polygons are filled unless the file says otherwise (KiCad 6 pad primitives had no fill token).
      const fill = child(node, 'fill');
      const filled = fill ? isFilled(node) : true;
      return { kind: 'poly', pts: readPts(ctx, pts, tf, maxError), width, filled };
    }
    case 'curve': {
      const pts = child(node, 'pts');
      if (!pts) throw ctx.error(node, `(${head(node)}) has no (pts)`);
      return { kind: 'curve', pts: bezierPolyline(readPts(ctx, pts, tf, maxError)), width };
    }
    default:
      return null;
  }
}

/** Layer name of a graphic: `(layer "F.Cu")`. */
export function layerOf(node: SList): string | undefined {
  const l = child(node, 'layer');
  return l ? atomAt(l, 1) : undefined;
}

/** Names listed by `(layers "F.Cu" "B.Cu" …)`. */
export function layerList(node: SList): string[] {
  const l = child(node, 'layers');
  if (!l) return [];
  const out: string[] = [];
  for (let k = 1; k < l.items.length; k++) {
    const it = l.items[k];
    if (it.kind === 'atom') out.push(it.text);
  }
  return out;
}


/** Circle through three points, or null when they are collinear. */
export function circleThrough(a: Pt, b: Pt, c: Pt): { c: Pt; r: number } | null {
  const d = 2 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
  if (d === 0) return null;
  const a2 = a.x * a.x + a.y * a.y;
  const b2 = b.x * b.x + b.y * b.y;
  const c2 = c.x * c.x + c.y * c.y;
  const x = (a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d;
  const y = (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d;
  return { c: { x, y }, r: Math.hypot(a.x - x, a.y - y) };
}

/**
 * An arc through start, mid and end as a polyline whose chord error is at most maxError nm
 * (the start and end points are kept exactly).
 */
export function arcPolyline(s: Pt, m: Pt, e: Pt, maxError: number): Pt[] {
  const circ = circleThrough(s, m, e);
  if (!circ) return [s, e];
  const { c, r } = circ;
  const a0 = Math.atan2(s.y - c.y, s.x - c.x);
  const am = Math.atan2(m.y - c.y, m.x - c.x);
  const a1 = Math.atan2(e.y - c.y, e.x - c.x);
  const norm = (v: number) => ((v % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  // Sweep direction: the one that passes through the mid point.
  let sweep = norm(a1 - a0);
  if (norm(am - a0) > sweep) sweep -= 2 * Math.PI;
  const step = r > maxError ? 2 * Math.acos(1 - maxError / r) : Math.PI / 2;
  const n = Math.max(2, Math.ceil(Math.abs(sweep) / Math.max(step, 1e-9)));
  const out: Pt[] = [s];
  for (let i = 1; i < n; i++) {
    const a = a0 + (sweep * i) / n;
    out.push({ x: Math.round(c.x + r * Math.cos(a)), y: Math.round(c.y + r * Math.sin(a)) });
  }
  out.push(e);
  return out;
}

/** A cubic Bézier (4 control points) as a 16-piece polyline; anything else passes through. */
function bezierPolyline(p: Pt[]): Pt[] {
  if (p.length !== 4) return p;
  const out: Pt[] = [];
  for (let i = 0; i <= 16; i++) {
    const t = i / 16;
    const u = 1 - t;
    const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
    out.push({
      x: Math.round(w[0] * p[0].x + w[1] * p[1].x + w[2] * p[2].x + w[3] * p[3].x),
      y: Math.round(w[0] * p[0].y + w[1] * p[1].y + w[2] * p[2].y + w[3] * p[3].y),
    });
  }
  return out;
}
