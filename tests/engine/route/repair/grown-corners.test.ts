// The corners a gridless search bends round (grown-corners.ts) lie on or outside each obstacle
// grown by the distance a track's centre keeps from it, and so do the lines from each corner to
// its outline neighbours: a path along them never cuts into the grown obstacle.
import { describe, expect, it } from 'vitest';
import { circle, distance, polygon, rect, segment, type Shape } from '../../../../engine/geom/index.ts';
import { addGrownCorners, CornerList } from '../../../../engine/route/repair/grown-corners.ts';

const GROW = 257_150;

function corners(s: Shape, turn?: number): CornerList {
  const c = new CornerList();
  addGrownCorners(c, s, GROW, () => true, turn);
  return c;
}

/** Least distance from `s` to each corner and to each line from a corner to its next neighbour. */
function nearest(s: Shape, c: CornerList): { corner: number; side: number } {
  let corner = Infinity;
  let side = Infinity;
  for (let i = 0; i < c.count; i++) {
    corner = Math.min(corner, distance(s, circle(c.x[i], c.y[i], 0)));
    side = Math.min(side, distance(s, segment(c.x[i], c.y[i], c.nextX[i], c.nextY[i], 0)));
  }
  return { corner, side };
}

const shapes: [string, Shape][] = [
  ['a disc', circle(1_000_000, 2_000_000, 230_000)],
  ['a track at an odd angle', segment(0, 0, 3_000_000, 4_000_000, 114_300)],
  ['a rounded rectangle', rect(-400_000, -200_000, 400_000, 200_000, 50_000)],
  [
    'a pad turned by 60°, polygon with a radius',
    polygon([129_312_956, 126_109_109, 129_454_474, 125_863_993, 129_241_400, 125_740_975, 129_099_882, 125_986_091], [], 79_982),
  ],
  ['an L, one corner turned in', polygon([0, 0, 4_000_000, 0, 4_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 4_000_000, 0, 4_000_000])],
  [
    'a fill with a hole',
    polygon(
      [0, 0, 6_000_000, 0, 6_000_000, 6_000_000, 0, 6_000_000],
      [Float64Array.of(2_000_000, 2_000_000, 4_000_000, 2_000_000, 4_000_000, 4_000_000, 2_000_000, 4_000_000)],
    ),
  ],
];

describe('grown corners', () => {
  for (const [name, s] of shapes)
    it(`stay outside ${name} grown by the track's reach, and so do the lines between them`, () => {
      for (const turn of [Math.PI / 6, Math.PI / 24]) {
        const c = corners(s, turn);
        expect(c.count).toBeGreaterThan(3);
        const { corner, side } = nearest(s, c);
        // Rounding each corner to the nm may bring it 0.71 nm closer.
        expect(corner).toBeGreaterThanOrEqual(GROW - 1);
        expect(side).toBeGreaterThanOrEqual(GROW - 1.5);
      }
    });

  it('touch a track exactly along its sides: a lane as wide as a track and its clearances runs corner to corner', () => {
    const c = corners(segment(0, 0, 3_000_000, 4_000_000, 114_300));
    // Beside each end, on both sides, a corner at exactly half the width and the reach.
    const r = 57_150 + GROW;
    const onSide = (x: number, y: number) => [...Array(c.count).keys()].some((i) => Math.hypot(c.x[i] - x, c.y[i] - y) <= 0.71);
    for (const [x, y] of [
      [0, 0],
      [3_000_000, 4_000_000],
    ])
      for (const s of [1, -1]) expect(onSide(x - (s * r * 4) / 5, y + (s * r * 3) / 5)).toBe(true);
  });

  it('turn in finer steps on the second look: the polyline hugs the circle closer', () => {
    const d = circle(0, 0, 230_000);
    const far = (c: CornerList) => Math.max(...c.x.map((x, i) => Math.hypot(x, c.y[i])));
    const coarse = far(corners(d, Math.PI / 6));
    const fine = far(corners(d, Math.PI / 24));
    expect(coarse / (230_000 + GROW)).toBeCloseTo(1 / Math.cos(Math.PI / 12), 5);
    expect(fine / (230_000 + GROW)).toBeCloseTo(1 / Math.cos(Math.PI / 48), 5);
  });

  it('keep only the corners asked for, each still knowing both neighbours', () => {
    const c = new CornerList();
    addGrownCorners(c, segment(0, 0, 1_000_000, 0, 100_000), GROW, (x) => x > 500_000);
    expect(c.count).toBeGreaterThan(0);
    for (let i = 0; i < c.count; i++) expect(c.x[i]).toBeGreaterThan(500_000);
    // A neighbour may be a corner that was not kept.
    expect(c.prevX.some((x) => x <= 500_000) || c.nextX.some((x) => x <= 500_000)).toBe(true);
  });
});
