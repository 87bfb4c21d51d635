// The copper outline of one KiCad pad on one layer, from a plain description, built the way
// KiCad's PAD::BuildEffectiveShapes builds the shapes its DRC collides: integer halves of the
// size, RotatePoint rounding, rect → SHAPE_RECT when it stays axis-aligned, oval → segment,
// roundrect → inner rect grown by r (exact), trapezoid → 4-vertex polygon.
// Chamfered pads are exact too (KiCad approximates their rounded corners inside by maxError).

import { compound, arc as arcShape, circle, polygon, rect, segment, inflate, type Shape } from './shapes.ts';
import { kiRound, rotatePoint } from './units.ts';

/** KiCad's pad shapes (the .kicad_pcb keywords). */
export type PadShapeKind = 'circle' | 'rect' | 'oval' | 'roundrect' | 'chamfered_rect' | 'trapezoid' | 'custom';

/** Which corners of a chamfered_rect pad are cut (KiCad's chamfer keywords). */
export interface ChamferCorners {
  readonly topLeft?: boolean;
  readonly topRight?: boolean;
  readonly bottomLeft?: boolean;
  readonly bottomRight?: boolean;
}

/** A custom pad primitive in pad-local nm (before the pad's rotation and position). */
export type PadPrimitive =
  | { readonly kind: 'line'; readonly sx: number; readonly sy: number; readonly ex: number; readonly ey: number; readonly width: number }
  | {
      readonly kind: 'arc';
      readonly sx: number;
      readonly sy: number;
      readonly mx: number;
      readonly my: number;
      readonly ex: number;
      readonly ey: number;
      readonly width: number;
    }
  | { readonly kind: 'circle'; readonly cx: number; readonly cy: number; readonly radius: number; readonly width: number; readonly filled: boolean }
  | {
      readonly kind: 'rect';
      readonly sx: number;
      readonly sy: number;
      readonly ex: number;
      readonly ey: number;
      readonly width: number;
      readonly filled: boolean;
    }
  | { readonly kind: 'poly'; readonly points: readonly number[]; readonly width: number; readonly filled: boolean };

/** A pad as the board file describes it; all lengths in integer nm. */
export interface PadDescription {
  readonly shape: PadShapeKind;
  /** Absolute pad position (the hole centre). */
  readonly x: number;
  readonly y: number;
  readonly sizeX: number;
  readonly sizeY: number;
  /** Absolute orientation in degrees (footprint + pad), KiCad's sense: see rotatePoint. */
  readonly rotation?: number;
  /** (drill (offset x y)): pad-local shift of the copper from the hole, rotated with the pad. */
  readonly offsetX?: number;
  readonly offsetY?: number;
  /** roundrect_rratio: corner radius = KiROUND(ratio × min(sizeX, sizeY)). Also rounds the
   *  uncut corners of a chamfered_rect. */
  readonly roundrectRatio?: number;
  /** chamfer_ratio: chamfer leg = KiROUND(ratio × min(sizeX, sizeY)). */
  readonly chamferRatio?: number;
  readonly chamfer?: ChamferCorners;
  /** rect_delta of a trapezoid. */
  readonly deltaX?: number;
  readonly deltaY?: number;
  /** Anchor of a custom pad (default circle). */
  readonly anchor?: 'circle' | 'rect';
  readonly primitives?: readonly PadPrimitive[];
}

/** Options: `inflate` grows the copper by that many nm (exact Minkowski sum, for clearance
 *  hulls; an integer or half-integer ≥ 0). No approximation error option: every pad shape
 *  here is exact, where KiCad polygonises chamfered and custom pads inside by its maxError. */
export interface PadShapeOptions {
  readonly inflate?: number;
}

// KiCad collapses a roundrect whose inner rect is below 100 nm (0.0001 mm) both ways to a disc.
const ROUNDRECT_MIN_LEN = 100;

// C++ integer division of a non-negative or negative int by 2 truncates toward zero.
function half(v: number): number {
  return Math.trunc(v / 2);
}

interface Frame {
  readonly px: number;
  readonly py: number;
  readonly rot: number;
}

// Pad-local point → board point: KiCad rotates the local point, then moves it to the shape position.
function place(f: Frame, x: number, y: number): [number, number] {
  const [rx, ry] = rotatePoint(x, y, f.rot);
  return [rx + f.px, ry + f.py];
}

// A pad-local polygon (flat pairs) in board coordinates: a Rect when it stays an axis-aligned
// rectangle (KiCad's SHAPE_RECT test), else a polygon; grown by r.
function placedQuadOrPolygon(f: Frame, local: readonly number[], r: number): Shape {
  const pts: number[] = [];
  for (let i = 0; i < local.length; i += 2) pts.push(...place(f, local[i], local[i + 1]));
  if (pts.length === 8) {
    const [x0, y0, x1, y1, x2, y2, x3, y3] = pts;
    if ((y0 === y1 && x1 === x2 && y2 === y3 && x3 === x0) || (x0 === x1 && y1 === y2 && x2 === x3 && y3 === y0)) {
      return rect(x0, y0, x2, y2, r);
    }
  }
  return polygon(pts, [], r);
}

function chamferedRect(pad: PadDescription, f: Frame): Shape {
  const sx = half(pad.sizeX);
  const sy = half(pad.sizeY);
  const shorter = Math.min(pad.sizeX, pad.sizeY);
  const r = kiRound(shorter * (pad.roundrectRatio ?? 0));
  const ch = Math.max(0, kiRound(shorter * (pad.chamferRatio ?? 0)));
  const c = pad.chamfer ?? {};
  // Corners in KiCad's order TL, TR, BR, BL (y down: top is -y); each with its inward axes.
  const corners = [
    { x: -sx, y: -sy, cut: !!c.topLeft, dx: 1, dy: 1 },
    { x: sx, y: -sy, cut: !!c.topRight, dx: -1, dy: 1 },
    { x: sx, y: sy, cut: !!c.bottomRight, dx: -1, dy: -1 },
    { x: -sx, y: sy, cut: !!c.bottomLeft, dx: 1, dy: -1 },
  ];
  const local: number[] = [];
  const discs: [number, number][] = [];
  for (let i = 0; i < 4; i++) {
    const k = corners[i];
    // Walking TL → TR → BR → BL, the edge into corner i runs along y for odd i and x for even i.
    const alongXFirst = i % 2 === 1;
    if (k.cut && ch > 0) {
      if (alongXFirst) local.push(k.x + k.dx * ch, k.y, k.x, k.y + k.dy * ch);
      else local.push(k.x, k.y + k.dy * ch, k.x + k.dx * ch, k.y);
    } else if (!k.cut && r > 0) {
      // Exact rounding: notch the corner square out and put back a disc at its centre.
      const cx = k.x + k.dx * r;
      const cy = k.y + k.dy * r;
      if (alongXFirst) local.push(cx, k.y, cx, cy, k.x, cy);
      else local.push(k.x, cy, cx, cy, cx, k.y);
      discs.push([cx, cy]);
    } else {
      local.push(k.x, k.y);
    }
  }
  const pts: number[] = [];
  for (let i = 0; i < local.length; i += 2) {
    const [x, y] = place(f, local[i], local[i + 1]);
    const n = pts.length;
    if (n >= 2 && pts[n - 2] === x && pts[n - 1] === y) continue; // cuts that meet leave duplicates
    pts.push(x, y);
  }
  if (pts.length >= 4 && pts[0] === pts[pts.length - 2] && pts[1] === pts[pts.length - 1]) pts.length -= 2;
  const body = polygon(pts);
  if (discs.length === 0) return body;
  return compound([body, ...discs.map(([x, y]) => circle(...place(f, x, y), r))]);
}

function primitiveShape(p: PadPrimitive, f: Frame): Shape {
  switch (p.kind) {
    case 'line':
      return segment(...place(f, p.sx, p.sy), ...place(f, p.ex, p.ey), p.width);
    case 'arc':
      return arcShape(...place(f, p.sx, p.sy), ...place(f, p.mx, p.my), ...place(f, p.ex, p.ey), p.width);
    case 'circle': {
      const [cx, cy] = place(f, p.cx, p.cy);
      if (p.filled) return circle(cx, cy, kiRound(p.radius) + p.width / 2);
      // A ring: a full-circle arc (start = end, mid diametrically opposite).
      const rr = kiRound(p.radius);
      return arcShape(cx + rr, cy, cx - rr, cy, cx + rr, cy, p.width);
    }
    case 'rect': {
      const local = [p.sx, p.sy, p.ex, p.sy, p.ex, p.ey, p.sx, p.ey];
      if (p.filled) return placedQuadOrPolygon(f, local, p.width / 2);
      return outlineSegments(f, local, p.width);
    }
    case 'poly':
      if (p.filled) return placedQuadOrPolygon(f, p.points, p.width / 2);
      return outlineSegments(f, p.points, p.width);
  }
}

function outlineSegments(f: Frame, local: readonly number[], width: number): Shape {
  const parts: Shape[] = [];
  const n = local.length;
  for (let i = 0; i < n; i += 2) {
    const j = (i + 2) % n;
    parts.push(segment(...place(f, local[i], local[i + 1]), ...place(f, local[j], local[j + 1]), width));
  }
  return compound(parts);
}

function baseShape(pad: PadDescription, kind: PadShapeKind, f: Frame): Shape {
  const hx = half(pad.sizeX);
  const hy = half(pad.sizeY);
  switch (kind) {
    case 'circle':
      return circle(f.px, f.py, hx);
    case 'oval': {
      if (pad.sizeX === pad.sizeY) return circle(f.px, f.py, hx);
      const hw = Math.min(hx, hy);
      const [lx, ly] = rotatePoint(hx - hw, hy - hw, f.rot);
      return segment(f.px - lx, f.py - ly, f.px + lx, f.py + ly, 2 * hw);
    }
    case 'rect':
    case 'trapezoid':
    case 'roundrect': {
      let ix = hx;
      let iy = hy;
      let r = 0;
      let tdx = 0;
      let tdy = 0;
      if (kind === 'roundrect') {
        r = kiRound(Math.min(pad.sizeX, pad.sizeY) * (pad.roundrectRatio ?? 0));
        ix -= r;
        iy -= r;
        if (r > 0 && ix < ROUNDRECT_MIN_LEN && iy < ROUNDRECT_MIN_LEN) return circle(f.px, f.py, r);
      } else if (kind === 'trapezoid') {
        tdx = half(pad.deltaX ?? 0);
        tdy = half(pad.deltaY ?? 0);
      }
      const local = [-ix - tdy, iy + tdx, ix + tdy, iy - tdx, ix - tdy, -iy + tdx, -ix + tdy, -iy - tdx];
      return placedQuadOrPolygon(f, local, r);
    }
    case 'chamfered_rect':
      return chamferedRect(pad, f);
    case 'custom':
      throw new Error('baseShape: a custom pad is built from its anchor');
  }
}

/**
 * The pad's copper as a Shape (nm). Position and offset: the shape sits at
 * (x, y) + rotatePoint(offset, rotation), KiCad's PAD::ShapePos. Rotation: degrees, KiCad's
 * sense (y down; +90° turns the pad counter-clockwise on screen, so a 2×1 mm rect at 90° stands
 * 1 mm wide and 2 mm tall). Sizes are halved with integer truncation and corner radii rounded
 * with KiROUND, as KiCad does, so odd sizes lose 1 nm just as they do in KiCad.
 */
export function padShape(pad: PadDescription, options: PadShapeOptions = {}): Shape {
  if (!(pad.sizeX >= 0 && pad.sizeY >= 0)) throw new RangeError(`padShape: size must be ≥ 0 nm, got ${pad.sizeX}×${pad.sizeY}`);
  const rot = pad.rotation ?? 0;
  const ox = pad.offsetX ?? 0;
  const oy = pad.offsetY ?? 0;
  let px = pad.x;
  let py = pad.y;
  if (ox !== 0 || oy !== 0) {
    const [rx, ry] = rotatePoint(ox, oy, rot);
    px += rx;
    py += ry;
  }
  const f: Frame = { px, py, rot };
  let s: Shape;
  if (pad.shape === 'custom') {
    const anchor = baseShape(pad, pad.anchor === 'rect' ? 'rect' : 'circle', f);
    s = compound([anchor, ...(pad.primitives ?? []).map((p) => primitiveShape(p, f))]);
  } else {
    s = baseShape(pad, pad.shape, f);
  }
  const by = options.inflate ?? 0;
  return by === 0 ? s : inflate(s, by);
}
