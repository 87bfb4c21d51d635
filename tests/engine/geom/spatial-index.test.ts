import { describe, expect, it } from 'vitest';
import { SpatialIndex, type Box } from '../../../engine/geom/index.ts';
import { int, rng } from './rng.ts';

const overlapsGrown = (b: Box, q: Box, m: number): boolean => b.minX - m <= q.maxX && b.maxX + m >= q.minX && b.minY - m <= q.maxY && b.maxY + m >= q.minY;

function randomBox(r: () => number): Box {
  const x = int(r, -1e9, 1e9),
    y = int(r, -1e9, 1e9);
  return { minX: x, minY: y, maxX: x + int(r, 0, 5e6), maxY: y + int(r, 0, 5e6) };
}

describe('SpatialIndex', () => {
  it('matches brute force, ascending, with margin', () => {
    const r = rng(1);
    const boxes = Array.from({ length: 3000 }, () => randomBox(r));
    const margin = 200_000;
    const idx = new SpatialIndex(boxes, margin);
    for (let i = 0; i < 200; i++) {
      const q = randomBox(r);
      const want = boxes.flatMap((b, k) => (overlapsGrown(b, q, margin) ? [k] : []));
      expect(idx.query({ minX: q.minX - 5e7, minY: q.minY - 5e7, maxX: q.maxX + 5e7, maxY: q.maxY + 5e7 })).toEqual(
        boxes.flatMap((b, k) => (overlapsGrown(b, { minX: q.minX - 5e7, minY: q.minY - 5e7, maxX: q.maxX + 5e7, maxY: q.maxY + 5e7 }, margin) ? [k] : [])),
      );
      expect(idx.query(q)).toEqual(want);
    }
  });
  it('touching boxes count as hits (closed boxes)', () => {
    const idx = new SpatialIndex([{ minX: 0, minY: 0, maxX: 10, maxY: 10 }]);
    expect(idx.query({ minX: 10, minY: 10, maxX: 20, maxY: 20 })).toEqual([0]);
    expect(idx.query({ minX: 11, minY: 10, maxX: 20, maxY: 20 })).toEqual([]);
  });
  it('overlay add/remove and hiding static items, deterministic order', () => {
    const idx = new SpatialIndex(
      [
        { minX: 0, minY: 0, maxX: 10, maxY: 10 },
        { minX: 100, minY: 0, maxX: 110, maxY: 10 },
      ],
      1,
    );
    idx.add(50, { minX: 5, minY: 5, maxX: 6, maxY: 6 });
    idx.add(7, { minX: 8, minY: 8, maxX: 9, maxY: 9 });
    expect(idx.query({ minX: 0, minY: 0, maxX: 200, maxY: 20 })).toEqual([0, 1, 7, 50]);
    expect(idx.size).toBe(4);
    expect(idx.remove(0)).toBe(true);
    expect(idx.remove(50)).toBe(true);
    expect(idx.remove(50)).toBe(false);
    expect(idx.query({ minX: 0, minY: 0, maxX: 200, maxY: 20 })).toEqual([1, 7]);
    expect(() => idx.add(1, { minX: 0, minY: 0, maxX: 1, maxY: 1 })).toThrow(/already/);
    idx.add(0, { minX: 300, minY: 300, maxX: 301, maxY: 301 }); // hidden static id reused
    expect(idx.query({ minX: 299, minY: 299, maxX: 302, maxY: 302 })).toEqual([0]);
    expect(idx.query({ minX: 0, minY: 0, maxX: 10, maxY: 10 })).toEqual([7]);
    idx.clearOverlay();
    expect(idx.query({ minX: 0, minY: 0, maxX: 200, maxY: 20 })).toEqual([0, 1]);
    expect(idx.unhide(0)).toBe(false);
  });
  it('works with no static items and grows the overlay', () => {
    const idx = new SpatialIndex([]);
    expect(idx.query({ minX: 0, minY: 0, maxX: 1, maxY: 1 })).toEqual([]);
    for (let i = 0; i < 100; i++) idx.add(99 - i, { minX: i, minY: 0, maxX: i, maxY: 0 });
    expect(idx.query({ minX: 10, minY: 0, maxX: 12, maxY: 0 })).toEqual([87, 88, 89]);
    expect(idx.size).toBe(100);
  });
});
