// The pieces of a refilled plane on the routing grid. KiCad drops fill thinner than a zone's
// minimum width (it shrinks the fill by half that width and grows it back), so a neck that new
// copper leaves between its knock-out and the fill's edge joins nothing after the refill, though
// the grid's sites still run through it. Fill near knocked-out sites is thinned the same way
// before the pieces are labelled, and each piece then grows back over what the thinning took.

import type { Grid } from '../core/grid.ts';

/** Site states while labelling: a fill site not yet labelled, a site the other nets' new copper
 *  knocks out, and (only here) a fill site thinned away. 0 is outside the fill; > 0 a piece. */
export const FREE = -2;
export const KNOCKED = -1;
const THIN = -3;

/**
 * Labels the pieces of one fill polygon's sites (`cells`, ascending; FREE or KNOCKED in `state`)
 * 4-connected, writing piece numbers 1… into `state`; returns how many. With `halfWidth` (sites)
 * above 0, fill within that distance of a site that is not fill, where new copper is near enough
 * to have made a neck, is thinned first and grown back after: a neck narrower than the minimum
 * width splits its piece. Fill no piece grows back over is left KNOCKED.
 */
export function labelRefill(grid: Grid, state: Int32Array, cells: ArrayLike<number>, halfWidth: number): number {
  const thinned = halfWidth > 0 && thin(grid, state, cells, halfWidth);
  let labels = 0;
  const queue: number[] = [];
  for (let i = 0; i < cells.length; i++) {
    const s = cells[i];
    if (state[s] !== FREE) continue;
    state[s] = ++labels;
    queue.length = 0;
    queue.push(s);
    for (let h = 0; h < queue.length; h++) {
      const c = queue[h];
      const x = c % grid.nx;
      for (const m of [x > 0 ? c - 1 : -1, x < grid.nx - 1 ? c + 1 : -1, c - grid.nx, c + grid.nx]) {
        if (m < 0 || m >= grid.cells || state[m] !== FREE) continue;
        state[m] = labels;
        queue.push(m);
      }
    }
  }
  if (thinned) growBack(grid, state, cells, Math.ceil(halfWidth));
  return labels;
}

/** Offsets (dx, dy) of the sites within `r` sites of the origin. */
function disk(r: number): Int32Array {
  const out: number[] = [];
  const k = Math.floor(r);
  for (let dy = -k; dy <= k; dy++) for (let dx = -k; dx <= k; dx++) if (dx * dx + dy * dy <= r * r) out.push(dx, dy);
  return Int32Array.from(out);
}

/** Calls `mark` for each site of the grid at `offsets` from `c`. */
function stamp(grid: Grid, c: number, offsets: Int32Array, mark: (m: number) => void): void {
  const x = c % grid.nx;
  const y = (c - x) / grid.nx;
  for (let i = 0; i < offsets.length; i += 2) {
    const mx = x + offsets[i];
    const my = y + offsets[i + 1];
    if (mx >= 0 && mx < grid.nx && my >= 0 && my < grid.ny) mark(my * grid.nx + mx);
  }
}

/** The 4 neighbours of a site that lie on the grid (-1 for those off it). */
function neighbours(grid: Grid, c: number): [number, number, number, number] {
  const x = c % grid.nx;
  return [x > 0 ? c - 1 : -1, x < grid.nx - 1 ? c + 1 : -1, c >= grid.nx ? c - grid.nx : -1, c + grid.nx < grid.cells ? c + grid.nx : -1];
}

/**
 * Marks THIN the fill sites within `r` of a site that is not fill, among those within 2r + 1 of
 * knocked-out copper (fill as saved met the minimum width already; only new copper makes necks).
 * A neck n sites wide keeps its middle when n is more than about 2r. False when nothing is knocked out.
 */
function thin(grid: Grid, state: Int32Array, cells: ArrayLike<number>, r: number): boolean {
  const NEAR = 1;
  const BITTEN = 2;
  const flags = new Uint8Array(grid.cells);
  const reach = disk(2 * r + 1);
  const blocked = (m: number) => state[m] === KNOCKED || state[m] === 0;
  let any = false;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (state[c] !== KNOCKED || !neighbours(grid, c).some((m) => m >= 0 && state[m] === FREE)) continue;
    any = true;
    stamp(grid, c, reach, (m) => (flags[m] |= NEAR));
  }
  if (!any) return false;
  const bite = disk(r);
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (state[c] !== FREE || !(flags[c] & NEAR)) continue;
    for (const m of neighbours(grid, c)) {
      if (m < 0 || !blocked(m) || flags[m] & BITTEN) continue;
      flags[m] |= BITTEN;
      stamp(grid, m, bite, (s) => {
        if (state[s] === FREE && flags[s] & NEAR) state[s] = THIN;
      });
    }
  }
  return true;
}

/** Each piece grows back over thinned sites up to `depth` steps (8-connected; the first piece to
 *  reach a site takes it, in ascending site order); thinned sites none reaches become KNOCKED. */
function growBack(grid: Grid, state: Int32Array, cells: ArrayLike<number>, depth: number): void {
  const around = (c: number, visit: (m: number) => void) => {
    const x = c % grid.nx;
    for (let dy = -1; dy <= 1; dy++) {
      const row = c + dy * grid.nx;
      if (row < 0 || row >= grid.cells) continue;
      for (let dx = -1; dx <= 1; dx++) if ((dx || dy) && x + dx >= 0 && x + dx < grid.nx) visit(row + dx);
    }
  };
  let frontier: number[] = [];
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (state[c] <= 0) continue;
    let edge = false;
    around(c, (m) => (edge ||= state[m] === THIN));
    if (edge) frontier.push(c);
  }
  for (let d = 0; d < depth && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const c of frontier) {
      around(c, (m) => {
        if (state[m] !== THIN) return;
        state[m] = state[c];
        next.push(m);
      });
    }
    frontier = next;
  }
  for (let i = 0; i < cells.length; i++) if (state[cells[i]] === THIN) state[cells[i]] = KNOCKED;
}
