// The routing lattice: a uniform square grid of track-centre sites over the board, one plane
// per copper layer. Moves between sites are octilinear, so every routed segment is 0/45/90°.
// The grid only maps nm ↔ sites and marks what lies inside the board outline (even-odd rule);
// what blocks a site is the obstacle map's business.

import type { RouterHost } from './host.ts';

/** A box (nm) a grid is limited to. */
export interface GridWindow {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export class Grid {
  readonly nx: number;
  readonly ny: number;
  /** Sites per layer. */
  readonly cells: number;
  /** 1 where the site lies inside the outline (or no outline exists). */
  readonly inside: Uint8Array;

  constructor(
    readonly x0: number,
    readonly y0: number,
    readonly step: number,
    width: number,
    height: number,
    readonly layers: number,
  ) {
    this.nx = Math.max(1, Math.floor(width / step) + 1);
    this.ny = Math.max(1, Math.floor(height / step) + 1);
    this.cells = this.nx * this.ny;
    this.inside = new Uint8Array(this.cells).fill(1);
  }

  x(cell: number): number {
    return this.x0 + (cell % this.nx) * this.step;
  }

  y(cell: number): number {
    return this.y0 + Math.floor(cell / this.nx) * this.step;
  }

  /** Column of the site nearest to x (clamped). */
  col(x: number): number {
    return Math.min(this.nx - 1, Math.max(0, Math.round((x - this.x0) / this.step)));
  }

  row(y: number): number {
    return Math.min(this.ny - 1, Math.max(0, Math.round((y - this.y0) / this.step)));
  }

  /** Column range [c0, c1] of sites within [minX, maxX] (possibly empty: c0 > c1). */
  colRange(minX: number, maxX: number): [number, number] {
    return [Math.max(0, Math.ceil((minX - this.x0) / this.step)), Math.min(this.nx - 1, Math.floor((maxX - this.x0) / this.step))];
  }

  rowRange(minY: number, maxY: number): [number, number] {
    return [Math.max(0, Math.ceil((minY - this.y0) / this.step)), Math.min(this.ny - 1, Math.floor((maxY - this.y0) / this.step))];
  }

  /** Marks sites outside the outline by the even-odd rule over its edges, one scanline a row. */
  markInside(edges: Float64Array): void {
    if (edges.length === 0) return;
    const xs: number[] = [];
    for (let r = 0; r < this.ny; r++) {
      const y = this.y0 + r * this.step;
      xs.length = 0;
      for (let i = 0; i < edges.length; i += 4) {
        const ay = edges[i + 1];
        const by = edges[i + 3];
        // Half-open in y so a vertex on the scanline is counted once.
        if ((ay <= y && by > y) || (by <= y && ay > y)) {
          const ax = edges[i];
          const bx = edges[i + 2];
          xs.push(ax + ((y - ay) * (bx - ax)) / (by - ay));
        }
      }
      xs.sort((a, b) => a - b);
      const row = r * this.nx;
      let k = 0;
      let inside = false;
      for (let c = 0; c < this.nx; c++) {
        const x = this.x0 + c * this.step;
        while (k < xs.length && xs[k] <= x) {
          inside = !inside;
          k++;
        }
        this.inside[row + c] = inside ? 1 : 0;
      }
    }
  }
}

function residue(v: number, step: number): number {
  return ((v % step) + step) % step;
}

/** The most common residue of values modulo step: aligning the grid to it puts most pad
 *  centres on sites. Ties go to the smallest residue, so the choice is deterministic. */
function commonResidue(values: number[], step: number): number {
  const count = new Map<number, number>();
  for (const v of values) {
    const r = residue(v, step);
    count.set(r, (count.get(r) ?? 0) + 1);
  }
  let best = 0;
  let bestN = -1;
  for (const [r, n] of [...count.entries()].sort((a, b) => a[0] - b[0])) {
    if (n > bestN) {
      best = r;
      bestN = n;
    }
  }
  return best;
}

/** The grid for a host: over the outline's box (else the pads'), with a step fine enough for
 *  the narrowest track pitch among the routed nets, its sites on the commonest pad residue —
 *  or on `anchor` when given (one connection's own finest end or first waypoint, so the lanes
 *  between its neighbours lie on sites where the board's commonest residue would miss them);
 *  only over `window` where given (a box round one connection: a finer look costs no more than
 *  the box). */
export function gridFor(host: RouterHost, step: number, anchor?: { x: number; y: number }, window?: GridWindow): Grid {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  const e = host.outlineEdges;
  for (let i = 0; i < e.length; i += 2) {
    minX = Math.min(minX, e[i]);
    maxX = Math.max(maxX, e[i]);
    minY = Math.min(minY, e[i + 1]);
    maxY = Math.max(maxY, e[i + 1]);
  }
  if (!(minX < maxX && minY < maxY)) {
    for (const p of host.pads) {
      minX = Math.min(minX, p.at.x - 5_000_000);
      maxX = Math.max(maxX, p.at.x + 5_000_000);
      minY = Math.min(minY, p.at.y - 5_000_000);
      maxY = Math.max(maxY, p.at.y + 5_000_000);
    }
  }
  if (window) {
    minX = Math.max(minX, window.minX);
    minY = Math.max(minY, window.minY);
    maxX = Math.min(maxX, window.maxX);
    maxY = Math.min(maxY, window.maxY);
  }
  const rx = anchor
    ? residue(anchor.x, step)
    : commonResidue(
        host.pads.map((p) => p.at.x),
        step,
      );
  const ry = anchor
    ? residue(anchor.y, step)
    : commonResidue(
        host.pads.map((p) => p.at.y),
        step,
      );
  const x0 = Math.floor((minX - rx) / step) * step + rx;
  const y0 = Math.floor((minY - ry) / step) * step + ry;
  const g = new Grid(x0, y0, step, maxX - x0, maxY - y0, host.layerCount);
  g.markInside(host.outlineEdges);
  return g;
}
