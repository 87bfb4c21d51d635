// RuleResolver.unmodelledRules: which custom rules the engine does not model may govern a net.
// Conditions on A/B NetClass and NetName are asked of the net; what cannot be told for one net
// (the other item, a layer) counts as a match; an unreadable condition matches every net its
// readable conjuncts allow.
import { describe, expect, it } from 'vitest';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { smallBoardHead } from '../../support/small-board.ts';

const BOARD = `${smallBoardHead(['GND', 'USB_D+', 'USB_D-', '+5V', 'SIG'])})\n`;

const PRO = JSON.stringify({
  net_settings: {
    classes: [
      { name: 'Default', clearance: 0.2, track_width: 0.25, via_diameter: 0.6, via_drill: 0.3, priority: 2147483647 },
      { name: 'Power', clearance: 0.2, track_width: 0.5, via_diameter: 0.8, via_drill: 0.4, priority: 1 },
    ],
    netclass_patterns: [
      { netclass: 'Power', pattern: '+5V' },
      { netclass: 'Power', pattern: 'GND' },
    ],
  },
});

const NETS = { GND: 1, DP: 2, DM: 3, V5: 4, SIG: 5 };

function design(dru: string) {
  return loadDesign({ board: BOARD, project: PRO, projectName: 'b.kicad_pro', dru, druName: '/some/where/b.kicad_dru' });
}

describe('RuleResolver.unmodelledConstraints', () => {
  it('by net name, with || and !=', () => {
    const d = design(`(version 1)
(rule "len_usb" (condition "A.NetName == 'USB_D+' || A.NetName == 'USB_D-'") (constraint track_angle (min 45deg)))
(rule "necks" (condition "A.NetName != 'GND' && A.NetClass != 'Power'") (constraint connection_width (min 0.1mm)))`);
    expect(d.rules.unmodelledConstraints(NETS.DP)).toEqual(['track_angle', 'connection_width']);
    expect(d.rules.unmodelledConstraints(NETS.DM)).toEqual(['track_angle', 'connection_width']);
    expect(d.rules.unmodelledConstraints(NETS.SIG)).toEqual(['connection_width']);
    expect(d.rules.unmodelledConstraints(NETS.GND)).toEqual([]);
    expect(d.rules.unmodelledConstraints(NETS.V5)).toEqual([]);
    expect(d.rules.unmodelledRules(NETS.DP)[0]).toEqual({ rule: 'len_usb', file: 'b.kicad_dru', constraints: ['track_angle'], unreadCondition: false });
  });

  it('by net class', () => {
    const d = design(`(version 1)
(rule "power angle" (condition "A.NetClass == 'Power'") (constraint track_angle (min 45deg)) (constraint track_width (min 0.5mm)))`);
    expect(d.rules.unmodelledConstraints(NETS.GND)).toEqual(['track_angle']);
    expect(d.rules.unmodelledConstraints(NETS.V5)).toEqual(['track_angle']);
    expect(d.rules.unmodelledConstraints(NETS.SIG)).toEqual([]);
    // The modelled constraint of the same rule still applies.
    expect(d.rules.trackWidth(NETS.V5, 0)).toBe(500_000);
  });

  it('a rule without a condition matches every net; copper-blind keywords match none', () => {
    const d = design(`(version 1)
(rule "segments" (constraint track_segment_length (min 0.1mm)))
(rule "silk" (constraint silk_clearance (min 0.1mm)))
(rule "mask" (constraint solder_mask_expansion (opt 0.05mm)))`);
    for (const n of Object.values(NETS)) expect(d.rules.unmodelledConstraints(n)).toEqual(['track_segment_length']);
  });

  it('what one net cannot tell counts as a match: the other item of a pair, a layer', () => {
    const d = design(`(version 1)
(rule "creep" (condition "A.NetName == '+5V'") (constraint creepage (min 2mm)))
(rule "len 5V" (condition "A.NetName == '+5V'") (constraint track_angle (min 45deg)))
(rule "segments top" (condition "A.Layer == 'F.Cu' && A.NetName == 'SIG'") (constraint track_segment_length (min 0.1mm)))
(rule "necks of B" (condition "B.NetClass == 'Power'") (constraint connection_width (min 0.1mm)))`);
    // Creepage is between two items: +5V's neighbours of any net are governed too.
    expect(d.rules.unmodelledConstraints(NETS.SIG)).toEqual(['creepage', 'track_segment_length', 'connection_width']);
    // Length is asked of one item (A): only +5V. A B-only condition on a one-item keyword
    // cannot be told (KiCad asks it with no B), so it matches.
    expect(d.rules.unmodelledConstraints(NETS.V5)).toEqual(['creepage', 'track_angle', 'connection_width']);
    expect(d.rules.unmodelledConstraints(NETS.GND)).toEqual(['creepage', 'connection_width']);
  });

  it('a rule whose condition cannot be read applies nothing; its unmodelled keywords guard the nets its readable conjuncts allow', () => {
    const d = design(`(version 1)
(rule "typed" (condition "A.Fabrication_Property == 'Heatsink pad'") (constraint clearance (min 0.5mm)) (constraint silk_clearance (min 1mm)))
(rule "typed len" (condition "A.Fabrication_Property == 'Heatsink pad' && A.NetName == 'SIG'") (constraint track_angle (min 45deg)))
(rule "dp skew" (condition "A.existsOnLayer('F.Cu') && A.NetClass == 'Power'") (constraint skew (max 1mm)))
(rule "either" (condition "A.existsOnLayer('F.Cu') || A.NetName == 'SIG'") (constraint connection_width (min 0.1mm)))
(rule "plain" (condition "A.NetName == 'SIG'") (constraint track_width (min 0.3mm) (opt 0.3mm)))`);
    // "typed" constrains only what the engine models: dropped as before, it guards nothing.
    // "typed len" can only match SIG, "dp skew" only the Power class; "either" any net.
    expect(d.rules.unmodelledConstraints(NETS.SIG)).toEqual(['track_angle', 'connection_width']);
    for (const n of [NETS.GND, NETS.V5]) expect(d.rules.unmodelledConstraints(n)).toEqual(['skew', 'connection_width']);
    expect(d.rules.unmodelledConstraints(NETS.DP)).toEqual(['connection_width']);
    expect(d.rules.unmodelledRules(NETS.SIG)[0]).toEqual({ rule: 'typed len', file: 'b.kicad_dru', constraints: ['track_angle'], unreadCondition: true });
    // As before: the unreadable rules set nothing; the readable one still applies.
    expect(d.rules.clearance({ net: NETS.SIG, layer: 0 }, { net: NETS.GND, layer: 0 })).toBe(200_000);
    expect(d.rules.maxClearance()).toBe(200_000);
    expect(d.rules.trackWidth(NETS.SIG, 0)).toBe(300_000);
    expect(d.warnings.find((w) => w.message.startsWith('rule "typed": condition'))?.message).toMatch(/the rule is not applied$/);
    expect(d.warnings.find((w) => w.message.startsWith('rule "typed len": condition'))?.message).toMatch(
      /could break its track_angle, the router leaves the nets it may govern unrouted \(the other rules still apply\)$/,
    );
    expect(d.warnings.find((w) => w.message.startsWith('rule "either": condition'))?.message).toMatch(/the router leaves any net unrouted/);
  });

  it('A.inDiffPair asks whether a net has its +/- or P/N partner and the pair\u2019s base name matches', () => {
    const d = design(`(version 1)
(rule "usb widths" (condition "A.inDiffPair('USB_D')") (constraint connection_width (min 0.1mm)) (constraint track_width (min 0.2mm) (opt 0.2mm)))
(rule "any pair" (condition "A.inDiffPair('*')") (constraint track_segment_length (min 0.1mm)))`);
    expect(d.rules.unmodelledConstraints(NETS.DP)).toEqual(['connection_width', 'track_segment_length']);
    expect(d.rules.unmodelledConstraints(NETS.DM)).toEqual(['connection_width', 'track_segment_length']);
    // +5V ends in a digit after no +/-; SIG ends in G: neither is in a pair.
    for (const n of [NETS.GND, NETS.V5, NETS.SIG]) expect(d.rules.unmodelledConstraints(n)).toEqual([]);
    // The rule reads, so its modelled width applies to the pair's nets.
    expect(d.rules.trackWidth(NETS.DP, 0)).toBe(200_000);
    expect(d.warnings.filter((w) => w.message.includes('condition'))).toEqual([]);
  });

  it('an unreadable condition over copper-blind keywords guards nothing', () => {
    const d = design(`(version 1)
(rule "typed silk" (condition "A.Fabrication_Property == 'Heatsink pad'") (constraint silk_clearance (min 0.2mm)) (constraint text_height (min 1mm)))`);
    for (const n of Object.values(NETS)) expect(d.rules.unmodelledConstraints(n)).toEqual([]);
  });

  it('no custom rules, no answer', () => {
    const d = loadDesign({ board: BOARD, project: PRO });
    for (const n of Object.values(NETS)) expect(d.rules.unmodelledRules(n)).toEqual([]);
  });
});

// Conditions on an item's kind (`A.Type`, `A.Pad_Type`, `A.isPlated()`, `!`) as kicad-cli 9.0.8
// and 10.0.7 evaluate them: names compare with case ignored and `*`/`?` wildcards, an arc is a
// "Track", a pad type asked of anything but a pad is neither equal nor unequal to anything, and
// without the item's kind (the router asking per net) a rule may only raise what applies.
describe('item-kind conditions', () => {
  const track = { net: NETS.SIG, layer: 0, kind: 'track' } as const;
  const via = { net: NETS.SIG, layer: -1, kind: 'via' } as const;
  const pth = { net: NETS.SIG, layer: -1, kind: 'pad', padType: 'thru_hole' } as const;
  const smd = { net: NETS.SIG, layer: 0, kind: 'pad', padType: 'smd' } as const;
  const npth = { net: NETS.SIG, layer: -1, kind: 'pad', padType: 'np_thru_hole' } as const;
  const zone = { net: NETS.GND, layer: 0, kind: 'zone' } as const;

  it('A.Type compares with case ignored and wildcards', () => {
    const d = design(`(version 1)
(rule "w" (condition "A.Type == 'track'") (constraint track_width (min 0.3mm)))
(rule "w2" (condition "A.Type == 'TR?CK' && A.NetName == 'GND'") (constraint track_width (min 0.4mm)))
(rule "v" (condition "A.Type != 'Track'") (constraint track_width (min 0.1mm)))`);
    expect(d.rules.minTrackWidth(track)).toBe(300_000);
    expect(d.rules.minTrackWidth({ ...track, net: NETS.GND })).toBe(400_000);
    // A via is no track: the third rule matches it.
    expect(d.rules.minTrackWidth(via)).toBe(100_000);
    // The router's own query is of a track.
    expect(d.rules.minTrackWidth(NETS.SIG, 0)).toBe(300_000);
    expect(d.rules.trackWidth(NETS.SIG, 0)).toBe(300_000);
  });

  it('A.Pad_Type: == and != are both false for anything but a pad', () => {
    const d = design(`(version 1)
(rule "npth" (condition "A.Pad_Type == 'NPTH, mechanical'") (constraint hole_size (min 0.5mm)))
(rule "notsmd" (condition "A.Pad_Type != 'smd'") (constraint hole_size (min 0.45mm)))`);
    expect(d.rules.minHoleSize(npth, false)).toBe(450_000);
    expect(d.rules.minHoleSize({ ...npth, padType: 'smd' }, false)).toBe(d.rules.minimums.throughHoleDiameter);
    expect(d.rules.minHoleSize(pth, false)).toBe(450_000);
    expect(d.rules.minHoleSize(via, false)).toBe(d.rules.minimums.throughHoleDiameter);
    const only = design(`(version 1)\n(rule "npth" (condition "A.Pad_Type == 'NPTH*'") (constraint hole_size (min 0.5mm)))`);
    expect(only.rules.minHoleSize(npth, false)).toBe(500_000);
    expect(only.rules.minHoleSize(pth, false)).toBe(only.rules.minimums.throughHoleDiameter);
    // The router's via: the rule cannot match it, so its drill stays the class's.
    expect(only.rules.via(NETS.SIG).drill).toBe(300_000);
  });

  it('A.isPlated() is true of vias and plated pads; ! negates', () => {
    const d = design(`(version 1)
(rule "ring" (condition "A.isPlated()") (constraint annular_width (min 0.15mm)))
(rule "bare" (condition "!A.isPlated() && A.Type == 'Pad'") (constraint annular_width (min 0.02mm)))`);
    expect(d.rules.minAnnularWidth(via)).toBe(150_000);
    expect(d.rules.minAnnularWidth(pth)).toBe(150_000);
    expect(d.rules.minAnnularWidth(npth)).toBe(20_000);
    expect(d.rules.minAnnularWidth(smd)).toBe(20_000);
    expect(d.rules.minAnnularWidth(zone)).toBe(d.rules.minimums.viaAnnularWidth);
  });

  it('an unknown kind: the rule may only raise (a pair rule on pads and tracks, asked per net)', () => {
    const d = design(`(version 1)
(rule "pt" (condition "A.Type == 'Pad' && B.Type == 'Track'") (constraint clearance (min 0.3mm)))
(rule "low" (condition "A.Type == 'Track' && B.Type == 'Track'") (constraint clearance (min 0.05mm)))`);
    const base = d.rules.clearance({ net: NETS.SIG, layer: 0 }, { net: NETS.GND, layer: 0 });
    expect(base).toBe(300_000);
    // Known kinds decide: the pair rule matches a track and a pad either way round.
    expect(d.rules.clearance(track, { ...smd, net: NETS.GND })).toBe(300_000);
    expect(d.rules.clearance({ ...smd, net: NETS.GND }, track)).toBe(300_000);
    // Two tracks: the later rule decides, below the class clearance.
    expect(d.rules.clearance(track, { ...track, net: NETS.GND })).toBe(50_000);
    expect(d.rules.clearance(via, { ...via, net: NETS.GND })).toBe(200_000);
  });

  it('annular_width keeps the router’s via ring; a custom minimum below the board’s decides', () => {
    const d = design(`(version 1)\n(rule "ring" (condition "A.Type == 'via'") (constraint annular_width (min 0.2mm)))`);
    // Drill 0.3 mm, ring 0.2 mm: 0.7 mm, past the class's 0.6 mm.
    expect(d.rules.via(NETS.SIG)).toEqual({ diameter: 700_000, drill: 300_000 });
    const low = design(`(version 1)\n(rule "ring" (constraint annular_width (min 0.01mm)))`);
    expect(low.rules.minAnnularWidth(via)).toBe(10_000);
  });

  it('hole_to_hole: a matching rule decides per pair; the router keeps the largest any via pair may need', () => {
    const d = design(`(version 1)
(rule "npth" (condition "A.Pad_Type == 'NPTH, mechanical' && B.Pad_Type == 'NPTH, mechanical'") (constraint hole_to_hole (min 1mm)))
(rule "vias" (condition "A.Type == 'Via'") (constraint hole_to_hole (min 0.5mm)))
(rule "low" (condition "A.Type == 'Pad' && B.Type == 'Pad'") (constraint hole_to_hole (min 0.1mm)))`);
    expect(d.rules.holeToHoleBetween(via, pth)).toBe(500_000);
    expect(d.rules.holeToHoleBetween(pth, via)).toBe(500_000);
    expect(d.rules.holeToHoleBetween(pth, npth)).toBe(100_000);
    expect(d.rules.holeToHoleBetween(npth, npth)).toBe(100_000);
    expect(d.rules.maxHoleToHole()).toBe(1_000_000);
    // No via takes part in the NPTH pair rule: the router needs 0.5 mm.
    expect(d.rules.holeToHole).toBe(500_000);
  });

  it('unmodelled rules hold no net when they can only match items the router never adds', () => {
    const d = design(`(version 1)
(rule "pads" (condition "A.Pad_Type == 'SMD'") (constraint disallow track))
(rule "zones" (condition "A.Type == 'Zone'") (constraint connection_width (min 0.2mm)))
(rule "npth" (condition "A.Pad_Type == 'NPTH*' && B.Pad_Type == 'NPTH*'") (constraint physical_clearance (min 0.3mm)))
(rule "pad-any" (condition "A.Type == 'Pad'") (constraint physical_clearance (min 0.3mm)))
(rule "vias" (condition "A.isPlated() && !(A.Type == 'Pad')") (constraint track_angle (min 45deg)))
(rule "slotted pads" (condition "A.Type == 'Pad' && A.Hole_Size_X != A.Hole_Size_Y") (constraint disallow track))
(rule "slotted any" (condition "A.isPlated() && A.Hole_Size_X != A.Hole_Size_Y") (constraint disallow track))`);
    // physical_clearance asks a pair: a track may be B beside a pad. track_angle matches a via.
    // An unread condition is bounded by its readable conjuncts: pads only, or plated (a via).
    expect(d.rules.unmodelledRules(NETS.SIG).map((r) => r.rule)).toEqual(['pad-any', 'vias', 'slotted any']);
  });
});
