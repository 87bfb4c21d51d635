// How the agreement suite compares counts: equal per "type:severity", except that a type both
// sides stopped at KiCad's limit agrees (KiCad's threads may report one past it).
import { describe, expect, it } from 'vitest';
import { compare } from '../../support/drc-agreement.ts';

const kicad = (counts: Record<string, number>, unconnected = 0) => ({ version: '9.0.8', counts, unconnected, seconds: 0 });
const engine = (counts: Record<string, number>, unconnected = 0) => ({ counts, unconnected, ms: 0 });

describe('agreement comparison', () => {
  it('reports a count that differs below the limit', () => {
    expect(compare('b', kicad({ 'clearance:error': 12 }), engine({ 'clearance:error': 11 }))).toEqual([
      { case: 'b', key: 'clearance:error', kicad: 12, engine: 11 },
    ]);
  });

  it('takes KiCad past the limit as agreeing with an engine at the limit', () => {
    expect(
      compare('b', kicad({ 'clearance:error': 500, 'shorting_items:error': 201 }), engine({ 'clearance:error': 499, 'shorting_items:error': 199 })),
    ).toEqual([]);
  });

  it('still reports an engine at the limit where KiCad stopped short of it', () => {
    expect(compare('b', kicad({ 'clearance:error': 498 }), engine({ 'clearance:error': 499 }))).toEqual([
      { case: 'b', key: 'clearance:error', kicad: 498, engine: 499 },
    ]);
  });

  it('reports unconnected counts that differ, and types KiCad has that the engine does not check are left out', () => {
    expect(compare('b', kicad({ 'silk_overlap:warning': 3 }, 4), engine({}, 5))).toEqual([{ case: 'b', key: 'unconnected_items', kicad: 4, engine: 5 }]);
  });
});
