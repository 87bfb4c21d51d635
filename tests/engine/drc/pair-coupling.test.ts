// A pair's coupling as KiCad's coupling check measures it (engine/drc/pair-coupling.ts): the
// common stretch of parallel tracks on one layer, at the edge-to-edge gap where they come nearest;
// arcs count by length.
import { describe, expect, it } from 'vitest';
import { gapTolerance, pairCoupling, type PairTrack } from '../../../engine/drc/pair-coupling.ts';

const MM = 1_000_000;
const t = (x1: number, y1: number, x2: number, y2: number, layer = 0, width = 0.25): PairTrack => ({
  start: { x: x1 * MM, y: y1 * MM },
  end: { x: x2 * MM, y: y2 * MM },
  width: width * MM,
  layer,
});

describe('pairCoupling', () => {
  it('couples the common stretch of parallel tracks at their edge gap', () => {
    // + from 0 to 10 mm, - from 2 to 14 mm, 0.45 mm apart at 0.25 mm: 8 mm coupled at 0.2 mm.
    const c = pairCoupling([t(0, 0, 10, 0)], [t(2, 0.45, 14, 0.45)]);
    expect(c.stretches).toHaveLength(1);
    expect(c.stretches[0].length).toBeCloseTo(8 * MM, 0);
    expect(c.stretches[0].gap).toBeCloseTo(0.2 * MM, 0);
    expect(c.lengthP).toBeCloseTo(10 * MM, 0);
    expect(c.lengthN).toBeCloseTo(12 * MM, 0);
    expect(c.coupled).toBeCloseTo(8 * MM, 0);
    expect(c.uncoupled).toBeCloseTo(4 * MM, 0);
  });

  it('pairs every parallel track that shares a stretch, on 45° runs too, each at its own gap, and counts only gaps in range', () => {
    const s = 0.45 / Math.SQRT2;
    const plus = [t(0, 0, 5, 5)];
    const minus = [t(s, -s, 5 + s, 5 - s), t(3, -3, 8, 2)];
    const c = pairCoupling(plus, minus, gapTolerance(0.2 * MM));
    // As kicad-cli 9.0.8 and 10.0.7 do: not only the nearest; the far one is 4 mm off.
    expect(c.stretches.map((x) => x.minus)).toEqual([0, 1]);
    expect(c.stretches[0].gap).toBeCloseTo(0.2 * MM, -1);
    expect(c.stretches[1].gap).toBeGreaterThan(3.9 * MM);
    expect(c.coupled).toBeCloseTo(5 * Math.SQRT2 * MM, -1);
    // The same pair judged against a 0.3 mm class gap is not coupled at all.
    expect(pairCoupling(plus, minus, gapTolerance(0.3 * MM)).coupled).toBe(0);
  });

  it('takes a track 1 µm askew over 20 mm as parallel, and never counts more than all of a net as coupled', () => {
    const askew = pairCoupling([t(0, 0, 20, 0)], [t(0, 0.45, 20, 0.451)]);
    expect(askew.stretches).toHaveLength(1);
    // KiCad takes the gap where the two come nearest.
    expect(askew.stretches[0].gap).toBe(200_000);
    const twice = pairCoupling([t(0, 0, 10, 0)], [t(0, 0.45, 10, 0.45), t(0, -0.45, 10, -0.45)], gapTolerance(0.2 * MM));
    expect(twice.coupled).toBeCloseTo(20 * MM, 0);
    expect(twice.share).toBe(1);
    expect(twice.uncoupled).toBe(0);
  });

  it('couples nothing across layers, at an angle, or without a common stretch', () => {
    expect(pairCoupling([t(0, 0, 10, 0)], [t(0, 0.45, 10, 0.45, 1)]).stretches).toEqual([]);
    expect(pairCoupling([t(0, 0, 10, 0)], [t(0, 0.45, 10, 0.6)]).stretches).toEqual([]);
    expect(pairCoupling([t(0, 0, 10, 0)], [t(11, 0.45, 20, 0.45)]).stretches).toEqual([]);
  });

  it('measures an arc along the arc', () => {
    const arc: PairTrack = { start: { x: 0, y: 0 }, mid: { x: MM, y: MM }, end: { x: 2 * MM, y: 0 }, width: 0.25 * MM, layer: 0 };
    expect(pairCoupling([arc], []).lengthP).toBeCloseTo(Math.PI * MM, 0);
  });

  it('never counts coupling tighter than 10 µm round a small class gap', () => {
    expect(gapTolerance(50_000)).toEqual({ min: 40_000, max: 60_000 });
    expect(gapTolerance(200_000)).toEqual({ min: 180_000, max: 220_000 });
  });
});
