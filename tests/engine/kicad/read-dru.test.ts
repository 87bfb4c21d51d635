// Custom rules the engine does not model are kept, not dropped: each rule keeps the constraint
// keywords it could not apply, with its condition, so the router can leave their nets alone. A
// net's length, skew and via count are modelled.
import { describe, expect, it } from 'vitest';
import { parseDru, parseLength } from '../../../engine/kicad/read-dru.ts';
import { KicadParseError } from '../../../engine/kicad/sexpr.ts';

const DRU = `(version 1)
(rule "len_usb"
  (condition "A.NetName == 'USB_D+' || A.NetName == 'USB_D-'")
  (constraint length (min 10mm) (max 40mm))
  (constraint skew (max 0.5mm)))
(rule "wide and few vias"
  (condition "A.NetClass == 'Power'")
  (constraint track_width (min 0.4mm))
  (constraint via_count (max 2)))
(rule "silk"
  (constraint silk_clearance (min 0.1mm)))
(rule "dp"
  (constraint diff_pair_gap (min 0.15mm) (max 0.2mm))
  (constraint diff_pair_uncoupled (max 5mm))
  (constraint track_angle (min 45deg))
  (constraint track_segment_length (min 0.2mm))
  (constraint creepage (min 2mm))
  (condition "A.NetClass == 'DP'"))
(rule "typed"
  (condition "A.Fabrication_Property == 'Heatsink pad'")
  (constraint clearance (min 0.3mm)))
(rule "typed len"
  (condition "A.Fabrication_Property == 'Heatsink pad' && A.NetClass == 'DP'")
  (constraint clearance (min 0.3mm))
  (constraint length (max 30mm)))
(rule "typed silk"
  (condition "A.Fabrication_Property == 'Heatsink pad'")
  (constraint silk_clearance (min 0.2mm)))
(rule "plain"
  (constraint clearance (min 0.25mm)))
`;

describe('parseDru: constraints the engine does not model', () => {
  const { rules, warnings } = parseDru(DRU, '/projects/board.kicad_dru');
  const byName = new Map(rules.map((r) => [r.name, r]));

  it('keeps every rule, with its unmodelled keywords and its condition', () => {
    expect(rules.map((r) => r.name)).toEqual(['len_usb', 'wide and few vias', 'silk', 'dp', 'typed len', 'typed silk', 'plain']);
    const len = byName.get('len_usb')!;
    expect(len.unmodelled).toEqual([]);
    expect(len.constraints).toEqual([
      { kind: 'length', min: 10_000_000, max: 40_000_000 },
      { kind: 'skew', max: 500_000 },
    ]);
    expect(len.condition).toEqual({
      kind: 'or',
      a: { kind: 'cmp', item: 'A', prop: 'NetName', negate: false, value: 'USB_D+' },
      b: { kind: 'cmp', item: 'A', prop: 'NetName', negate: false, value: 'USB_D-' },
    });
    expect(len.source).toBe('/projects/board.kicad_dru');
    expect(byName.get('wide and few vias')!.unmodelled).toEqual([]);
    expect(byName.get('wide and few vias')!.constraints).toEqual([
      { kind: 'track_width', min: 400_000 },
      { kind: 'via_count', max: 2 },
    ]);
    expect(byName.get('silk')!.unmodelled).toEqual(['silk_clearance']);
    expect(byName.get('dp')!.unmodelled).toEqual(['track_angle', 'track_segment_length', 'creepage']);
    expect(byName.get('dp')!.constraints).toEqual([
      { kind: 'diff_pair_gap', min: 150_000, max: 200_000 },
      { kind: 'diff_pair_uncoupled', max: 5_000_000 },
    ]);
    expect(byName.get('plain')!.unmodelled).toEqual([]);
    expect(byName.get('plain')!.unreadCondition).toBeUndefined();
  });

  it('a rule with an unreadable condition applies nothing; it stays only for keywords the engine does not model, bounded by its readable conjuncts', () => {
    // "typed" sets only a clearance: dropped as before.
    expect(byName.has('typed')).toBe(false);
    const typed = byName.get('typed len')!;
    expect(typed.unreadCondition).toBe(true);
    expect(typed.condition).toEqual({ kind: 'cmp', item: 'A', prop: 'NetClass', negate: false, value: 'DP' });
    expect(typed.constraints).toEqual([]);
    expect(typed.unmodelled).toEqual(['length']);
    expect(byName.get('typed silk')!.unmodelled).toEqual(['silk_clearance']);
  });

  it('warns once per clause, saying what the router does about it', () => {
    const text = warnings.map((w) => `${w.line}: ${w.message}`);
    expect(text.filter((t) => /constraint (length|skew|via_count) is not supported/.test(t))).toEqual([]);
    expect(text).toContain('11: rule "silk": constraint silk_clearance is not supported and is ignored');
    expect(text).toContain(
      '20: rule "typed": condition "A.Fabrication_Property == \'Heatsink pad\'" is not supported ("A.Fabrication_Property" is not one of A/B.NetClass, A/B.NetName, A/B.Layer, A/B.Type, A/B.Pad_Type, A/B.Via_Type, A/B.isPlated()); the rule is not applied',
    );
    expect(text).toContain(
      '23: rule "typed len": condition "A.Fabrication_Property == \'Heatsink pad\' && A.NetClass == \'DP\'" is not supported ("A.Fabrication_Property" is not one of A/B.NetClass, A/B.NetName, A/B.Layer, A/B.Type, A/B.Pad_Type, A/B.Via_Type, A/B.isPlated()); the rule is not applied; as new copper could break its length, the router leaves the nets it may govern unrouted (the other rules still apply)',
    );
    expect(text.find((t) => t.startsWith('27: rule "typed silk": condition'))).toMatch(/the rule is not applied$/);
    // File order is kept.
    const lines = warnings.map((w) => w.line!);
    expect([...lines].sort((a, b) => a - b)).toEqual(lines);
  });
});

// Conditions and constraints fab templates write: item kinds (KiCad's `A.Type`, `A.Pad_Type`,
// `A.isPlated()`, `!`) and the ring and hole-to-hole minimums, read as the engine applies them.
describe('parseDru: fab template rules', () => {
  const FAB = `(version 1)
(rule "ring" (condition "A.isPlated()") (constraint annular_width (min 0.13mm)))
(rule "drills apart" (constraint hole_to_hole (min 0.5mm)))
(rule "outer tracks" (layer outer) (condition "A.Type == 'Track' && !(B.Pad_Type != 'SMD')") (constraint track_width (min 0.127mm)))
(rule "slots" (condition "A.Hole_Size_X != A.Hole_Size_Y") (constraint hole_to_hole (min 1mm)))
(rule "bare" (condition "!A.isPlated") (constraint annular_width (min 0.1mm)))
`;
  const { rules, warnings } = parseDru(FAB, 'fab.kicad_dru');
  const byName = new Map(rules.map((r) => [r.name, r]));

  it('reads annular_width and hole_to_hole minimums', () => {
    expect(byName.get('ring')!.constraints).toEqual([{ kind: 'annular_width', min: 130_000 }]);
    expect(byName.get('ring')!.condition).toEqual({ kind: 'plated', item: 'A' });
    expect(byName.get('drills apart')!.constraints).toEqual([{ kind: 'hole_to_hole', min: 500_000 }]);
    expect(byName.get('drills apart')!.condition).toBeNull();
  });

  it('reads Type and Pad_Type comparisons and ! before a term', () => {
    expect(byName.get('outer tracks')!.layer).toBe('outer');
    expect(byName.get('outer tracks')!.condition).toEqual({
      kind: 'and',
      a: { kind: 'itemType', item: 'A', prop: 'Type', negate: false, value: 'Track' },
      b: { kind: 'not', a: { kind: 'itemType', item: 'B', prop: 'Pad_Type', negate: true, value: 'SMD' } },
    });
  });

  it('a hole-size comparison stays unread: its modelled hole_to_hole is not applied; a call without () is an error', () => {
    // Unread with only modelled keywords: nothing is kept.
    expect(byName.has('slots')).toBe(false);
    expect(byName.has('bare')).toBe(false);
    const text = warnings.map((w) => `${w.line}:${w.column} ${w.message}`);
    expect(text.find((t) => t.includes('"slots"'))).toMatch(/^5:15 rule "slots": condition .* is not supported \("A.Hole_Size_X" is not one of/);
    expect(text.find((t) => t.includes('"bare"'))).toMatch(/^6:14 rule "bare": condition "!A.isPlated" is not supported \(expected A.isPlated\(\)\)/);
    expect(warnings).toHaveLength(2);
  });
});

describe('parseDru: lengths as KiCad reads them', () => {
  it('rounds half a nanometre away from zero, as KiCad does (Math.round took -2.5 nm to -2)', () => {
    const { rules } = parseDru(
      '(version 1)\n(rule "neg"\n  (constraint clearance (min -0.0000025mm)))\n(rule "mil"\n  (constraint clearance (min -0.0125mil)))\n',
    );
    expect(rules.map((r) => r.constraints[0].min)).toEqual([-3, -318]);
    expect(parseLength('0.0000025mm')).toBe(3);
    expect(parseLength('8mil')).toBe(203_200);
    expect(Object.is(parseLength('-0.0000001mm'), 0)).toBe(true);
  });

  it('a length past ±1500 mm is an error naming the file, line and column of its bound', () => {
    let e: unknown;
    try {
      parseDru('(version 1)\n(rule "far"\n  (constraint length (min 1mm) (max 2000mm)))\n', 'rules.kicad_dru');
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(KicadParseError);
    expect((e as Error).message).toBe('rules.kicad_dru:3:32: rule "far": length max value "2000mm" is outside ±1500 mm');
  });
});
