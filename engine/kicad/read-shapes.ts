// Graphic primitives as KiCad writes them (gr_*, fp_*, pad primitives, zone polygons), read into
// the model's Primitive and polygon types in nm. Footprint-local items are placed by the caller's
// transform; KiCad 6's centre/angle arcs are converted to start/mid/end.

import type { Primitive, Pt } from '../board/model.ts';
import { arcToPolyline } from '../geom/arc.ts';
import { rotatePoint } from '../geom/units.ts';
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
        const [mx, my] = rotatePoint(rel.x, rel.y, -sweep / 2);
        const [ex, ey] = rotatePoint(rel.x, rel.y, -sweep);
        return {
          kind: 'arc',
          start: tf(s),
          mid: tf({ x: c.x + mx, y: c.y + my }),
          end: tf({ x: c.x + ex, y: c.y + ey }),
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

/** An arc through start, mid and end as a polyline with chord error ≤ maxError nm. */
function arcPolyline(s: Pt, m: Pt, e: Pt, maxError: number): Pt[] {
  const flat = arcToPolyline(s.x, s.y, m.x, m.y, e.x, e.y, maxError);
  const out: Pt[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push({ x: flat[i], y: flat[i + 1] });
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
