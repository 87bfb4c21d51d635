// Pins KiCad 9's connectivity rule found on opendous_Upconverter: a via-like pad whose rim exactly
// meets an SMD pad's edge does not connect (SHAPE::Collide with clearance 0 is strict), while any
// overlap does; DRC epsilon keeps a gap of exactly the rule legal.
import { describe, expect, it } from 'vitest';
import { joins } from '../../../engine/drc/connectivity.ts';
import { tooClose } from '../../../engine/drc/clearance.ts';
import { circle, rect, segment } from '../../../engine/geom/shapes.ts';

describe('connectivity contact', () => {
  it('pad rim touching a rect pad edge exactly does not join (IC1.2 / V315 on Upconverter)', () => {
    expect(joins(rect(46685200, 41465500, 47294800, 42354500), circle(46990000, 42926000, 571500))).toBe(false);
  });
  it('one nanometre of overlap joins', () => {
    expect(joins(rect(46685200, 41465500, 47294800, 42354501), circle(46990000, 42926000, 571500))).toBe(true);
  });
  it('tracks sharing an end point join', () => {
    expect(joins(segment(0, 0, 1000000, 0, 250000), segment(1000000, 0, 1000000, 1000000, 250000))).toBe(true);
  });
});

describe('clearance epsilon', () => {
  it('a gap exactly at the rule passes, and within 500 nm under it too', () => {
    const a = segment(0, 0, 1000000, 0, 200000);
    expect(tooClose(a, segment(0, 400000, 1000000, 400000, 200000), 200000)).toBe(false);
    expect(tooClose(a, segment(0, 399600, 1000000, 399600, 200000), 200000)).toBe(false);
    expect(tooClose(a, segment(0, 399000, 1000000, 399000, 200000), 200000)).toBe(true);
  });
});
