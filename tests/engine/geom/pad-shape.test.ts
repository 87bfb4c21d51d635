import { describe, expect, it } from 'vitest';
import { bbox, circle, distance, padShape, pointInPolygon, polygonArea, type Shape } from '../../../engine/geom/index.ts';

const MM = 1_000_000;
const at = (x: number, y: number) => circle(x, y, 0);

describe('padShape', () => {
  it('rect 2×1 mm at rotation 90 stands with its long side vertical', () => {
    const s = padShape({ shape: 'rect', x: 10 * MM, y: 20 * MM, sizeX: 2 * MM, sizeY: MM, rotation: 90 });
    expect(s.kind).toBe('rect');
    expect(bbox(s)).toEqual({ minX: 9.5 * MM, minY: 19 * MM, maxX: 10.5 * MM, maxY: 21 * MM });
    const flat = padShape({ shape: 'rect', x: 0, y: 0, sizeX: 2 * MM, sizeY: MM });
    expect(bbox(flat)).toEqual({ minX: -MM, minY: -0.5 * MM, maxX: MM, maxY: 0.5 * MM });
  });
  it('a rotated rect becomes a 4-vertex polygon with KiCad-rounded corners', () => {
    const s = padShape({ shape: 'rect', x: 0, y: 0, sizeX: 2 * MM, sizeY: 2 * MM, rotation: 45 });
    expect(s.kind).toBe('polygon');
    if (s.kind !== 'polygon') return;
    // KiCad starts at local (−1, +1) mm; +45° takes it to (0, +√2) mm.
    expect(Array.from(s.outline)).toEqual([0, 1_414_214, 1_414_214, 0, 0, -1_414_214, -1_414_214, 0]);
  });
  it('offset moves the copper relative to the hole and turns with the pad', () => {
    const s = padShape({ shape: 'circle', x: 0, y: 0, sizeX: MM, sizeY: MM, offsetX: 0.5 * MM, offsetY: 0, rotation: 90 });
    expect(s).toEqual({ kind: 'circle', x: 0, y: -0.5 * MM, r: 0.5 * MM });
  });
  it('circle uses size.x / 2 truncated, like KiCad', () => {
    expect(padShape({ shape: 'circle', x: 0, y: 0, sizeX: 1_000_001, sizeY: 1_000_001 })).toEqual({ kind: 'circle', x: 0, y: 0, r: 500_000 });
  });
  it('oval is a capsule segment along its long side; a square oval is a circle', () => {
    const s = padShape({ shape: 'oval', x: 0, y: 0, sizeX: 2 * MM, sizeY: MM });
    expect(s).toEqual({ kind: 'segment', ax: -0.5 * MM, ay: 0, bx: 0.5 * MM, by: 0, width: MM });
    const v = padShape({ shape: 'oval', x: 0, y: 0, sizeX: 2 * MM, sizeY: MM, rotation: 90 });
    expect(bbox(v)).toEqual({ minX: -0.5 * MM, minY: -MM, maxX: 0.5 * MM, maxY: MM });
    expect(padShape({ shape: 'oval', x: 1, y: 2, sizeX: MM, sizeY: MM }).kind).toBe('circle');
  });
  it('roundrect is its inner rect grown by r = ratio × min side (exact)', () => {
    const s = padShape({ shape: 'roundrect', x: 0, y: 0, sizeX: 2 * MM, sizeY: MM, roundrectRatio: 0.25 });
    expect(s).toEqual({ kind: 'rect', minX: -750_000, minY: -250_000, maxX: 750_000, maxY: 250_000, radius: 250_000 });
    expect(bbox(s)).toEqual({ minX: -MM, minY: -0.5 * MM, maxX: MM, maxY: 0.5 * MM });
    // The corner is round: the box corner is outside by r(√2 − 1).
    expect(distance(s, at(MM, 0.5 * MM))).toBeCloseTo(250_000 * (Math.SQRT2 - 1), 6);
    const rot = padShape({ shape: 'roundrect', x: 0, y: 0, sizeX: 2 * MM, sizeY: MM, roundrectRatio: 0.25, rotation: 30 });
    expect(rot.kind).toBe('polygon');
    // A square roundrect with ratio 0.5 collapses to a disc.
    expect(padShape({ shape: 'roundrect', x: 0, y: 0, sizeX: MM, sizeY: MM, roundrectRatio: 0.5 })).toEqual({ kind: 'circle', x: 0, y: 0, r: 0.5 * MM });
  });
  it('trapezoid follows KiCad corner formula for rect_delta', () => {
    const s = padShape({ shape: 'trapezoid', x: 0, y: 0, sizeX: 2 * MM, sizeY: MM, deltaX: 0.2 * MM });
    expect(s.kind).toBe('polygon');
    if (s.kind !== 'polygon') return;
    expect(Array.from(s.outline)).toEqual([-MM, 600_000, MM, 400_000, MM, -400_000, -MM, -600_000]);
  });
  it('chamfered rect cuts the chosen corners; with rounding the other corners are exact arcs', () => {
    const s = padShape({ shape: 'chamfered_rect', x: 0, y: 0, sizeX: 2 * MM, sizeY: MM, chamferRatio: 0.2, chamfer: { topLeft: true } });
    expect(s.kind).toBe('polygon');
    if (s.kind !== 'polygon') return;
    expect(Array.from(s.outline)).toEqual([-MM, -300_000, -800_000, -0.5 * MM, MM, -0.5 * MM, MM, 0.5 * MM, -MM, 0.5 * MM]);
    expect(polygonArea(s)).toBe(2 * MM * MM - (200_000 * 200_000) / 2);
    expect(pointInPolygon(s, -MM + 10, -0.5 * MM + 10)).toBe(-1);
    const rr: Shape = padShape({
      shape: 'chamfered_rect',
      x: 0,
      y: 0,
      sizeX: 2 * MM,
      sizeY: MM,
      chamferRatio: 0.2,
      roundrectRatio: 0.25,
      chamfer: { topLeft: true, bottomRight: true },
    });
    expect(rr.kind).toBe('compound');
    // Uncut corner (top right): rounded with r = 250 000 exactly like a roundrect.
    expect(distance(rr, at(MM, -0.5 * MM))).toBeCloseTo(250_000 * (Math.SQRT2 - 1), 6);
    // Cut corner (bottom right): the chamfer line x + y = 1.3 mm.
    expect(distance(rr, at(MM, 0.5 * MM))).toBeCloseTo(200_000 / Math.SQRT2, 6);
    expect(bbox(rr)).toEqual({ minX: -MM, minY: -0.5 * MM, maxX: MM, maxY: 0.5 * MM });
  });
  it('custom pads combine the anchor and the primitives, turned with the pad', () => {
    const s = padShape({
      shape: 'custom',
      x: 5 * MM,
      y: 5 * MM,
      sizeX: MM,
      sizeY: MM,
      rotation: 90,
      anchor: 'circle',
      primitives: [
        { kind: 'line', sx: 0, sy: 0, ex: 3 * MM, ey: 0, width: 0.2 * MM },
        { kind: 'poly', points: [0, 0, MM, 0, MM, MM], width: 0, filled: true },
        { kind: 'circle', cx: -2 * MM, cy: 0, radius: 0.5 * MM, width: 0.1 * MM, filled: false },
      ],
    });
    expect(s.kind).toBe('compound');
    if (s.kind !== 'compound') return;
    expect(s.parts[0]).toEqual({ kind: 'circle', x: 5 * MM, y: 5 * MM, r: 0.5 * MM });
    // +90°: pad-local +x points up on screen (−y).
    expect(s.parts[1]).toEqual({ kind: 'segment', ax: 5 * MM, ay: 5 * MM, bx: 5 * MM, by: 2 * MM, width: 0.2 * MM });
    // The ring (local centre (−2, 0) → board (5, 7) mm): its centre is 0.45 mm from copper.
    expect(distance(s, at(5 * MM, 7 * MM))).toBeCloseTo(450_000, 3);
  });
  it('inflate grows the copper by the clearance exactly', () => {
    const s = padShape({ shape: 'rect', x: 0, y: 0, sizeX: 2 * MM, sizeY: MM }, { inflate: 200_000 });
    expect(s).toEqual({ kind: 'rect', minX: -MM, minY: -0.5 * MM, maxX: MM, maxY: 0.5 * MM, radius: 200_000 });
  });
});
