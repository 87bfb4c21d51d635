// The corners a shortest track bends round. Every obstacle is grown by how far a track's centre
// line must stay from it (half the track and the clearance); its round ends and corners become
// polylines that lie on or just outside the grown outline, touching it at their ends and along
// their straight sides, so a lane exactly as wide as a track and its two clearances still has its
// centre line from corner to corner. Each corner keeps its two neighbours along its outline: a
// line through a corner that leaves both on one side only grazes the obstacle there (gridless.ts).

import { arcToPolyline, ringArea2, type Primitive, type Shape } from '../../geom/index.ts';

/** The widest turn (radians) one side of a round end's polyline spans: its corners lie at most
 *  1/cos(15°) − 1, 3.5 %, outside the grown circle. */
const MAX_TURN = Math.PI / 6;
/** Chord error (nm) an arc track is drawn with; it is grown by as much again. */
const ARC_ERROR = 1_000;

/** Corners with their outline neighbours, in the order they were made (integer nm). */
export class CornerList {
  readonly x: number[] = [];
  readonly y: number[] = [];
  readonly prevX: number[] = [];
  readonly prevY: number[] = [];
  readonly nextX: number[] = [];
  readonly nextY: number[] = [];

  get count(): number {
    return this.x.length;
  }

  /** A free point: its own neighbours, so any line through it grazes. */
  addPoint(x: number, y: number): void {
    for (const a of [this.x, this.prevX, this.nextX]) a.push(x);
    for (const a of [this.y, this.prevY, this.nextY]) a.push(y);
  }

  /** A closed ring of corners (flat x,y pairs), each kept where `keep` says, knowing both ring
   *  neighbours whether they are kept or not. */
  addRing(pts: number[], keep: (x: number, y: number) => boolean): void {
    const ring: number[] = [];
    for (let i = 0; i < pts.length; i += 2) {
      const n = ring.length;
      if (n > 0 && ring[n - 2] === pts[i] && ring[n - 1] === pts[i + 1]) continue;
      ring.push(pts[i], pts[i + 1]);
    }
    while (ring.length > 2 && ring[0] === ring[ring.length - 2] && ring[1] === ring[ring.length - 1]) ring.length -= 2;
    const n = ring.length / 2;
    if (n < 2) return;
    for (let i = 0; i < n; i++) {
      const x = ring[2 * i];
      const y = ring[2 * i + 1];
      if (!keep(x, y)) continue;
      const p = (i + n - 1) % n;
      const q = (i + 1) % n;
      this.x.push(x);
      this.y.push(y);
      this.prevX.push(ring[2 * p]);
      this.prevY.push(ring[2 * p + 1]);
      this.nextX.push(ring[2 * q]);
      this.nextY.push(ring[2 * q + 1]);
    }
  }
}

/** The corners of `shape` grown by `grow` (nm) into `out`, those `keep` accepts. */
export function addGrownCorners(out: CornerList, shape: Shape, grow: number, keep: (x: number, y: number) => boolean, turn = MAX_TURN): void {
  if (shape.kind === 'compound') {
    for (const p of shape.parts) addGrownCorners(out, p, grow, keep, turn);
    return;
  }
  addPrimitive(out, shape, grow, keep, turn);
}

function addPrimitive(out: CornerList, p: Primitive, grow: number, keep: (x: number, y: number) => boolean, turn: number): void {
  switch (p.kind) {
    case 'circle':
      return out.addRing(disc(p.x, p.y, p.r + grow, turn), keep);
    case 'segment':
      return out.addRing(stadium(p.ax, p.ay, p.bx, p.by, p.width / 2 + grow, turn), keep);
    case 'arc': {
      const line = arcToPolyline(p.sx, p.sy, p.mx, p.my, p.ex, p.ey, ARC_ERROR);
      for (let i = 0; i + 3 < line.length; i += 2)
        out.addRing(stadium(line[i], line[i + 1], line[i + 2], line[i + 3], p.width / 2 + grow + ARC_ERROR, turn), keep);
      return;
    }
    case 'rect':
      return addRings(out, [Float64Array.of(p.minX, p.minY, p.maxX, p.minY, p.maxX, p.maxY, p.minX, p.maxY)], [], p.radius + grow, keep, turn);
    case 'polygon':
      return addRings(out, [p.outline], p.holes, p.radius + grow, keep, turn);
  }
}

/** The corners of a polygon's outlines and holes grown by r: one round corner at every vertex
 *  the material turns round (none where the free side does, which no shortest path bends at). */
function addRings(
  out: CornerList,
  outlines: readonly Float64Array[],
  holes: readonly Float64Array[],
  r: number,
  keep: (x: number, y: number) => boolean,
  turn: number,
): void {
  for (const [rings, material] of [
    [outlines, 1],
    [holes, -1],
  ] as const) {
    for (const ring of rings) {
      // Walked with the material on the left: outlines turning towards increasing angle, holes the other way.
      const flip = Math.sign(ringArea2(ring)) !== material;
      const n = ring.length / 2;
      const at = (i: number): [number, number] => {
        const k = flip ? n - 1 - (((i % n) + n) % n) : ((i % n) + n) % n;
        return [ring[2 * k], ring[2 * k + 1]];
      };
      const pts: number[] = [];
      for (let i = 0; i < n; i++) {
        const [px, py] = at(i - 1);
        const [x, y] = at(i);
        const [qx, qy] = at(i + 1);
        const ix = x - px;
        const iy = y - py;
        const ox = qx - x;
        const oy = qy - y;
        const cross = ix * oy - iy * ox;
        if (cross <= 0 || (ix === 0 && iy === 0) || (ox === 0 && oy === 0)) continue;
        // The outward normal of the edge in, turned by the material's turn to that of the edge out.
        roundCorner(pts, x, y, r, Math.atan2(-ix, iy), Math.atan2(cross, ix * ox + iy * oy), turn);
      }
      out.addRing(pts, keep);
    }
  }
}

/** A track's outline grown to radius r, turning towards increasing angle. */
function stadium(ax: number, ay: number, bx: number, by: number, r: number, turn: number): number[] {
  if (ax === bx && ay === by) return disc(ax, ay, r, turn);
  const t = Math.atan2(by - ay, bx - ax);
  const pts: number[] = [];
  roundCorner(pts, bx, by, r, t - Math.PI / 2, Math.PI, turn);
  roundCorner(pts, ax, ay, r, t + Math.PI / 2, Math.PI, turn);
  return pts;
}

function disc(x: number, y: number, r: number, turn: number): number[] {
  const m = Math.ceil((2 * Math.PI) / turn);
  const h = (2 * Math.PI) / m;
  const rc = r / Math.cos(h / 2);
  const pts: number[] = [];
  for (let k = 0; k < m; k++) pts.push(Math.round(x + rc * Math.cos(k * h)), Math.round(y + rc * Math.sin(k * h)));
  return pts;
}

/** Round corner of radius r about (cx, cy) from angle a0 through `sweep` (radians, towards
 *  increasing angle): its two ends on the circle, and between them the corners of the tangent
 *  lines that hug it from outside. */
function roundCorner(pts: number[], cx: number, cy: number, r: number, a0: number, sweep: number, turn: number): void {
  const m = Math.max(1, Math.ceil(sweep / turn - 1e-9));
  const h = sweep / m;
  const rc = r / Math.cos(h / 2);
  pts.push(Math.round(cx + r * Math.cos(a0)), Math.round(cy + r * Math.sin(a0)));
  for (let k = 0; k < m; k++) {
    const a = a0 + (k + 0.5) * h;
    pts.push(Math.round(cx + rc * Math.cos(a)), Math.round(cy + rc * Math.sin(a)));
  }
  pts.push(Math.round(cx + r * Math.cos(a0 + sweep)), Math.round(cy + r * Math.sin(a0 + sweep)));
}
