import { describe, expect, it } from 'vitest';
import { CoordinateRangeError, MAX_COORD_NM, assertCoord, kiRound, mmText, mmToNm, nmToMm, normalizeDegrees, rotatePoint } from '../../../engine/geom/index.ts';

describe('kiRound', () => {
  it('rounds half away from zero like KiCad', () => {
    expect(kiRound(2.5)).toBe(3);
    expect(kiRound(-2.5)).toBe(-3);
    expect(kiRound(2.4999)).toBe(2);
    expect(kiRound(-2.4999)).toBe(-2);
    expect(kiRound(0.5)).toBe(1);
    expect(kiRound(-0.5)).toBe(-1);
  });
});

describe('mmText', () => {
  it('prints four decimals and the unit by default, as KiCad prints a length', () => {
    expect(mmText(200_000)).toBe('0.2000 mm');
    expect(mmText(-1_234_567)).toBe('-1.2346 mm');
  });

  it('takes its digits, and with trim drops trailing zeros and the sign of a zero', () => {
    expect(mmText(250_000, 3)).toBe('0.250 mm');
    expect(mmText(250_000, 3, { trim: true })).toBe('0.25 mm');
    expect(mmText(-100, 3, { trim: true })).toBe('0 mm');
    expect(mmText(MAX_COORD_NM, 0)).toBe('1500 mm');
  });

  it('gives the number alone without the unit', () => {
    expect(mmText(12_345_678, 4, { trim: true, unit: false })).toBe('12.3457');
    expect(mmText(10_000, 6, { trim: true })).toBe('0.01 mm');
  });
});

describe('mmToNm / nmToMm', () => {
  it('converts with KiROUND', () => {
    expect(mmToNm(1)).toBe(1_000_000);
    expect(mmToNm(0.1)).toBe(100_000);
    expect(mmToNm(-0.0000005)).toBe(-1);
    expect(mmToNm(0.0000005)).toBe(1);
    expect(mmToNm(123.456789)).toBe(123_456_789);
    expect(mmToNm(-123.456789)).toBe(-123_456_789);
    expect(Object.is(mmToNm(-0.0000001), 0)).toBe(true);
    expect(nmToMm(1_500_000)).toBe(1.5);
  });
  it('throws a typed error past ±1.5e9 nm', () => {
    expect(mmToNm(1500)).toBe(MAX_COORD_NM);
    expect(() => mmToNm(1500.001)).toThrow(CoordinateRangeError);
    expect(() => mmToNm(Number.NaN)).toThrow(CoordinateRangeError);
    expect(() => assertCoord(1.5)).toThrow(CoordinateRangeError);
    expect(() => assertCoord(-MAX_COORD_NM - 1)).toThrow(/±1500000000/);
    expect(assertCoord(-MAX_COORD_NM)).toBe(-MAX_COORD_NM);
  });
});

describe('rotatePoint (KiCad RotatePoint)', () => {
  it('normalises angles', () => {
    expect(normalizeDegrees(-90)).toBe(270);
    expect(normalizeDegrees(720)).toBe(0);
    expect(normalizeDegrees(-360)).toBe(0);
  });
  it('+90° turns right into up on a y-down screen (counter-clockwise)', () => {
    expect(rotatePoint(1000, 0, 90)).toEqual([0, -1000]);
    expect(rotatePoint(0, -1000, 90)).toEqual([-1000, 0]);
    expect(rotatePoint(1000, 0, -90)).toEqual([0, 1000]);
    expect(rotatePoint(1000, 0, 270)).toEqual([0, 1000]);
    expect(rotatePoint(1000, 7, 180)).toEqual([-1000, -7]);
  });
  it('is exact at multiples of 90° even at the coordinate limit', () => {
    expect(rotatePoint(MAX_COORD_NM, -MAX_COORD_NM + 1, 90)).toEqual([-MAX_COORD_NM + 1, -MAX_COORD_NM]);
    expect(rotatePoint(MAX_COORD_NM, 3, 450)).toEqual([3, -MAX_COORD_NM]);
  });
  it('rounds with KiROUND at other angles and rotates about a centre', () => {
    const [x, y] = rotatePoint(1_000_000, 0, 45);
    expect([x, y]).toEqual([707_107, -707_107]);
    expect(rotatePoint(11_000_000, 10_000_000, 90, 10_000_000, 10_000_000)).toEqual([10_000_000, 9_000_000]);
    // 30°: (y·sin + x·cos, y·cos − x·sin) of (1, 0)·1e6 = (866025.40…, −500000)
    expect(rotatePoint(1_000_000, 0, 30)).toEqual([866_025, -500_000]);
  });
});
