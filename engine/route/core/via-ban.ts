// Where a net may not drill its next via: a drill knows no nets, so the DRC refuses two vias of
// one net closer than the hole-to-hole gap as it refuses two of two nets. The occupancy keeps
// other nets' vias apart; a net's own tree is free to it, so its searches are told these sites.

import type { Grid } from './grid.ts';

/**
 * Adds to `ban` the grid sites (cells) whose centre lies nearer (x, y) than `reach` (nm): a via
 * of drill d there and one of drill e at (x, y) are `reach` = d/2 + gap + e/2 apart at least.
 * The site nearest (x, y) is left out: a via there is that very via, which a join going on from
 * it shares.
 */
export function banViaSites(grid: Grid, ban: Set<number>, x: number, y: number, reach: number): void {
  const { x0, y0, step, nx, ny } = grid;
  const ci = Math.round((x - x0) / step);
  const cj = Math.round((y - y0) / step);
  const r = Math.ceil(reach / step);
  for (let j = Math.max(0, cj - r); j <= Math.min(ny - 1, cj + r); j++) {
    const dy = y0 + j * step - y;
    for (let i = Math.max(0, ci - r); i <= Math.min(nx - 1, ci + r); i++) {
      if (i === ci && j === cj) continue;
      const dx = x0 + i * step - x;
      if (dx * dx + dy * dy < reach * reach) ban.add(j * nx + i);
    }
  }
}
