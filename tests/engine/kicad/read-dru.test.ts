// Custom rules the engine does not model are kept, not dropped: each rule keeps the constraint
// keywords it could not apply, with its condition, so the router can leave their nets alone. A
// net's length, skew and via count are modelled.
import { describe, expect, it } from 'vitest';
import { parseDru } from '../../../engine/kicad/read-dru.ts';

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
  (condition "A.Type == 'track'")
  (constraint clearance (min 0.3mm)))
(rule "typed len"
  (condition "A.Type == 'track' && A.NetClass == 'DP'")
  (constraint clearance (min 0.3mm))
  (constraint length (max 30mm)))
(rule "typed silk"
  (condition "A.Type == 'text'")
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
      '20: rule "typed": condition "A.Type == \'track\'" is not supported ("A.Type" is not one of A/B.NetClass, A/B.NetName, A/B.Layer); the rule is not applied',
    );
    expect(text).toContain(
      '23: rule "typed len": condition "A.Type == \'track\' && A.NetClass == \'DP\'" is not supported ("A.Type" is not one of A/B.NetClass, A/B.NetName, A/B.Layer); the rule is not applied; as new copper could break its length, the router leaves the nets it may govern unrouted (the other rules still apply)',
    );
    expect(text.find((t) => t.startsWith('27: rule "typed silk": condition'))).toMatch(/the rule is not applied$/);
    // File order is kept.
    const lines = warnings.map((w) => w.line!);
    expect([...lines].sort((a, b) => a - b)).toEqual(lines);
  });
});
