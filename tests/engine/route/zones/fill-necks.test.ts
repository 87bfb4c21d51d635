// KiCad's refill drops fill thinner than a zone's minimum width: a neck that new copper leaves
// in a plane joins nothing. labelRefill labels a fill's pieces on the grid the same way.
import { describe, expect, it } from 'vitest';
import { Grid } from '../../../../engine/route/core/grid.ts';
import { FREE, KNOCKED, labelRefill } from '../../../../engine/route/zones/fill-necks.ts';

const COLS = 40;
const ROWS = 20;

/** A fill over the whole grid whose columns 15–24 are knocked out but for a neck of `neck` rows
 *  from row 8: two blocks joined by a corridor `neck` sites wide and ten long. */
function corridor(neck: number, knocked = true): { grid: Grid; state: Int32Array; cells: number[] } {
  const grid = new Grid(0, 0, 100_000, (COLS - 1) * 100_000, (ROWS - 1) * 100_000, 1);
  const state = new Int32Array(grid.cells);
  const cells: number[] = [];
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      const wall = c >= 15 && c <= 24 && (r < 8 || r >= 8 + neck);
      if (wall && !knocked) continue;
      cells.push(r * COLS + c);
      state[r * COLS + c] = wall ? KNOCKED : FREE;
    }
  }
  return { grid, state, cells };
}

const at = (r: number, c: number) => r * COLS + c;

describe('fill necks', () => {
  it('splits a plane at a neck narrower than the minimum width, and keeps one as wide', () => {
    // Minimum width 0.25 mm on a 0.1 mm grid: half of it is 1.25 sites.
    for (const [neck, joined] of [
      [1, false],
      [2, false],
      [3, true],
      [5, true],
    ] as const) {
      const { grid, state, cells } = corridor(neck);
      labelRefill(grid, state, cells, 1.25);
      expect(state[at(10, 2)]).toBeGreaterThan(0);
      expect(state[at(10, 37)]).toBeGreaterThan(0);
      expect(state[at(10, 2)] === state[at(10, 37)], `neck of ${neck}`).toBe(joined);
    }
  });

  it('joins through any neck when the zone has no minimum width', () => {
    const { grid, state, cells } = corridor(1);
    expect(labelRefill(grid, state, cells, 0)).toBe(1);
    expect(state[at(10, 2)]).toBe(state[at(10, 37)]);
  });

  it('gives thinned fill back to its piece, so copper at a knock-out’s edge still touches it', () => {
    const { grid, state, cells } = corridor(1);
    labelRefill(grid, state, cells, 1.25);
    // Beside the wall on the left and on the right: thinned, then grown back by its block.
    expect(state[at(2, 14)]).toBe(state[at(10, 2)]);
    expect(state[at(2, 25)]).toBe(state[at(10, 37)]);
    // The neck itself is dropped.
    expect(state[at(8, 20)]).toBe(KNOCKED);
  });

  it('leaves a saved fill’s own narrow parts alone: only new copper makes necks', () => {
    // The same shape as a fill saved that way (its walls outside it, nothing knocked out).
    const { grid, state, cells } = corridor(1, false);
    expect(labelRefill(grid, state, cells, 1.25)).toBe(1);
    expect(state[at(8, 20)]).toBe(1);
  });
});
