// From a searched node path to copper: runs of sites on one layer become octilinear segments
// (collinear steps merged), layer changes become vias, and pad-entry stubs are spliced on at
// the ends. Pure geometry on the grid; no checks here (see checker.ts).

import type { Pt } from './host.ts';
import type { Grid } from './grid.ts';

export interface Leg {
  layer: number;
  /** Polyline, nm; consecutive points differ. */
  pts: Pt[];
  /** Track width when not the net class's: a neck into a pad too crowded for the full width. */
  width?: number;
}

/** A pad-entry stub: a polyline from a grid site into the pad (site first), and its width when
 *  it is a neck narrower than the net class's. */
export interface Stub {
  pts: Pt[];
  width?: number;
}

/** A layer change: where, the layers it joins, and its size when not the profile's (a via necked
 *  down where the class via does not fit). */
export interface PathVia {
  at: Pt;
  from: number;
  to: number;
  size?: { diameter: number; drill: number };
}

export interface PathCopper {
  legs: Leg[];
  /** Via centres with the layers they join. */
  vias: PathVia[];
}

function pushPoint(pts: Pt[], p: Pt): void {
  const n = pts.length;
  if (n && pts[n - 1].x === p.x && pts[n - 1].y === p.y) return;
  if (n >= 2) {
    const a = pts[n - 2];
    const b = pts[n - 1];
    // Drop b when a, b, p are collinear and b lies between them (same direction).
    const cross = (b.x - a.x) * (p.y - b.y) - (b.y - a.y) * (p.x - b.x);
    const dot = (b.x - a.x) * (p.x - b.x) + (b.y - a.y) * (p.y - b.y);
    if (cross === 0 && dot > 0) {
      pts[n - 1] = p;
      return;
    }
  }
  pts.push(p);
}

/**
 * Copper of a path. `startStub` / `endStub` are pad-entry polylines from the path's first /
 * last site into the pad (site first), or undefined.
 */
export function pathCopper(grid: Grid, path: ArrayLike<number>, startStub?: Stub, endStub?: Stub): PathCopper {
  const cells = grid.cells;
  const legs: Leg[] = [];
  const vias: PathCopper['vias'] = [];
  let cur: Leg | null = null;
  const site = (node: number): Pt => {
    const c = node % cells;
    return { x: grid.x(c), y: grid.y(c) };
  };
  for (let i = 0; i < path.length; i++) {
    const node = path[i];
    const layer = Math.floor(node / cells);
    const p = site(node);
    if (!cur || cur.layer !== layer) {
      if (cur) vias.push({ at: p, from: Math.min(cur.layer, layer), to: Math.max(cur.layer, layer) });
      cur = { layer, pts: [] };
      // A neck is a leg of its own width; a full-width stub runs on in the path's leg.
      if (i === 0 && startStub?.width !== undefined) legs.push({ layer, pts: [...startStub.pts].reverse(), width: startStub.width });
      legs.push(cur);
      if (i === 0 && startStub && startStub.width === undefined) for (let k = startStub.pts.length - 1; k >= 1; k--) pushPoint(cur.pts, startStub.pts[k]);
    }
    pushPoint(cur.pts, p);
  }
  if (cur && endStub) {
    if (endStub.width !== undefined) legs.push({ layer: cur.layer, pts: [...endStub.pts], width: endStub.width });
    else for (let k = 1; k < endStub.pts.length; k++) pushPoint(cur.pts, endStub.pts[k]);
  }
  // A leg of one point (a via straight onto a via) carries no track.
  return { legs: legs.filter((l) => l.pts.length >= 2), vias: mergeVias(vias) };
}

/** Consecutive layer changes at one site (a via passing through) are one via. */
function mergeVias(vias: PathCopper['vias']): PathCopper['vias'] {
  const out: PathCopper['vias'] = [];
  for (const v of vias) {
    const last = out[out.length - 1];
    if (last && last.at.x === v.at.x && last.at.y === v.at.y) {
      last.from = Math.min(last.from, v.from);
      last.to = Math.max(last.to, v.to);
    } else out.push({ ...v });
  }
  return out;
}

/** Track length of a path's copper, nm (rounded). */
export function copperLength(c: PathCopper): number {
  let s = 0;
  for (const l of c.legs) for (let i = 0; i + 1 < l.pts.length; i++) s += Math.hypot(l.pts[i + 1].x - l.pts[i].x, l.pts[i + 1].y - l.pts[i].y);
  return Math.round(s);
}
