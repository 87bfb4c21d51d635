// Differential pairs as KiCad names them (engine/board/diff-pairs.ts), and inspect_net's pair and
// lengths on a dev board that has one (/USB_D+ and /USB_D-), before and after the pair is routed.
import { describe, expect, it } from 'vitest';
import { diffPairName, diffPairOf, pairsAmong, withPartners } from '../../../engine/board/diff-pairs.ts';
import { DEFAULT_PAIR_WORK, defaultWork, escalationBound } from '../../../engine/route/index.ts';
import { readDesignFiles } from '../../../plugin/design-files.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { realSession } from '../../support/real-session.ts';
import { benchBoards } from '../../support/bench.ts';
import { ok } from '../../support/tool-results.ts';

describe("KiCad's pair naming", () => {
  it('takes the last character before digits and underscores: +/- or P/N', () => {
    expect(diffPairName('/USB_D+')).toEqual({ base: '/USB_D', polarity: '+', partner: '/USB_D-' });
    expect(diffPairName('/USB_N')).toEqual({ base: '/USB_', polarity: '-', partner: '/USB_P' });
    expect(diffPairName('LVDS_P0')).toEqual({ base: 'LVDS_', polarity: '+', partner: 'LVDS_N0' });
    expect(diffPairName('TX-_12')).toEqual({ base: 'TX', polarity: '-', partner: 'TX+_12' });
    for (const none of ['GND', '+5V', '12_3', '', 'Net-(C6-Pad2)', '/usb_dp']) expect(diffPairName(none)).toBeNull();
  });

  it('is a pair only where the partner is a net of the board', () => {
    const nets = new Map([
      ['', 0],
      ['/CLK_P', 1],
      ['/CLK_N', 2],
      ['/RESET_N', 3],
      ['GND', 4],
    ]);
    expect(diffPairOf('/CLK_N', nets)?.partner).toBe('/CLK_P');
    expect(diffPairOf('/RESET_N', nets)).toBeNull();
    expect(diffPairOf('GND', nets)).toBeNull();
    expect(withPartners(['GND', '/CLK_P', '/CLK_N', '/RESET_N'], nets)).toEqual(['GND', '/CLK_P', '/CLK_N', '/RESET_N']);
    expect(withPartners(['/CLK_N', 'GND'], nets)).toEqual(['/CLK_N', '/CLK_P', 'GND']);
    const board = { nets: [...nets.keys()].map((name) => ({ name })), netByName: nets };
    expect(pairsAmong(board, new Set([2, 4, 1, 3]))).toEqual([[1, 2]]);
    expect(pairsAmong(board, new Set([2, 3, 4]))).toEqual([]);
  });
});

describe('inspect_net on a pair', () => {
  it('names the partner, and both lengths and their difference as copper is added', async () => {
    const b = benchBoards().find((x) => x.name === 'usb_rs232c_usb_rs232c_rev_a')!;
    const files = readDesignFiles(b.bare);
    const design = loadDesign(files);
    const s = realSession(design, files, b.name);
    const bare = ok(await s.call('inspect_net', { net: '/USB_D-' }));
    expect(bare.track_length_mm).toBe(0);
    expect(bare.pair).toEqual({
      base: '/USB_D',
      polarity: '-',
      partner: '/USB_D+',
      partner_track_length_mm: 0,
      length_difference_mm: 0,
      partner_open: 1,
      coupling: { class_gap_mm: 0.25, coupled_mm: 0, uncoupled_mm: 0, coupled_fraction: 0, gap_range_mm: null },
    });
    expect(ok(await s.call('inspect_net', { net: '/TX' })).pair).toBeNull();

    const r = ok(await s.call('route', { nets: ['/USB_D+'] }));
    expect(r.open_after).toBe(0);
    // The route names the pair it touched, with what inspect_net says of its + net.
    expect(r.pairs).toHaveLength(1);
    expect(r.pairs[0]).toMatchObject({ net: '/USB_D+', partner: '/USB_D-', partner_track_length_mm: 0, partner_open: 1 });
    expect(r.pairs[0].track_length_mm).toBe(r.nets[0].length_mm);
    expect(r.pair_notes).toEqual([
      `/USB_D+ and /USB_D- are routed as two single tracks, not as a coupled pair (0 % at the 0.25 mm pair gap; lengths ${r.pairs[0].track_length_mm} and 0 mm).`,
    ]);
    const plus = ok(await s.call('inspect_net', { net: '/USB_D+' }));
    const minus = ok(await s.call('inspect_net', { net: '/USB_D-' }));
    expect(plus.track_length_mm).toBeGreaterThan(0);
    expect(plus.track_length_mm).toBe(plus.session.length_mm);
    expect(minus.pair!.partner_track_length_mm).toBe(plus.track_length_mm);
    expect(minus.pair!.partner_open).toBe(0);
    expect(minus.pair!.length_difference_mm).toBe(plus.track_length_mm);
    expect(minus.open.length).toBe(1);
    // One net routed: nothing runs beside it, so all of its length is uncoupled.
    expect(plus.pair!.coupling).toEqual({ class_gap_mm: 0.25, coupled_mm: 0, uncoupled_mm: plus.track_length_mm, coupled_fraction: 0, gap_range_mm: null });
    const { net: _net, track_length_mm: _length, ...seen } = r.pairs[0];
    expect(seen).toEqual(plus.pair);
  });

  it("estimates a route's work with what laying the call's pairs as pairs adds, and routes within it", async () => {
    const b = benchBoards().find((x) => x.name === 'usb_rs232c_usb_rs232c_rev_a')!;
    const files = readDesignFiles(b.bare);
    const s = realSession(loadDesign(files), files, b.name);
    const alone = ok(await s.call('route', { nets: ['/USB_D+'], variants: 1, estimate: true }));
    const both = ok(await s.call('route', { nets: ['/USB_D+', '/USB_D-'], variants: 1, estimate: true }));
    expect(alone.work.per_variant).toBe(escalationBound(defaultWork(alone.connections)));
    expect(both.work.per_variant).toBe(escalationBound(defaultWork(both.connections) + DEFAULT_PAIR_WORK));
    expect(both.based_on).toContain('1 differential pair both of whose nets are among them');
    const r = ok(await s.call('route', { nets: ['/USB_D+', '/USB_D-'], variants: 1 }));
    expect(r.pairs[0].coupling.coupled_fraction).toBeGreaterThan(0);
    expect(r.work.bound).toBeLessThanOrEqual(both.work.bound);
    expect(r.work.used).toBeLessThanOrEqual(r.work.bound);
  });

  it('gives the length KiCad measures for length rules, vias counted, and the rules that govern the net', async () => {
    const b = benchBoards().find((x) => x.name === 'usb_rs232c_usb_rs232c_rev_a')!;
    const files = readDesignFiles(b.bare);
    const dru = `(version 1)\n(rule "usb skew" (condition "A.inDiffPair('/USB_D')") (constraint skew (max 0.5mm) (within_diff_pairs)))\n(rule "usb vias" (condition "A.NetName == '/USB_D+'") (constraint via_count (max 1)))\n`;
    const design = loadDesign({ ...files, dru, druName: 'b.kicad_dru' });
    const s = realSession(design, { ...files, dru }, b.name);
    const bare = ok(await s.call('inspect_net', { net: '/USB_D+' }));
    expect([bare.kicad_length_mm, bare.vias_counted]).toEqual([0, 0]);
    expect(bare.length_rules).toEqual({ length: null, skew: { rule: 'usb skew', max: 0.5, within_diff_pairs: true }, via_count: { rule: 'usb vias', max: 1 } });
    // Routed: the tracks, and each via's length through the 1.6 mm board (1.545 mm as KiCad 9
    // counts a top-to-bottom via on KiCad's default stack-up).
    ok(await s.call('route', { nets: ['/USB_D+'] }));
    const routed = ok(await s.call('inspect_net', { net: '/USB_D+' }));
    expect(routed.vias_counted).toBe(routed.session.vias);
    expect(routed.kicad_length_mm).toBeCloseTo(routed.track_length_mm + 1.545 * routed.vias_counted, 3);
    // A via standing alone joins no layers: KiCad gives it no length, but counts it.
    ok(await s.call('place_via', { net: '/USB_D+', at_mm: [150, 100] }));
    const more = ok(await s.call('inspect_net', { net: '/USB_D+' }));
    expect([more.kicad_length_mm, more.vias_counted]).toEqual([routed.kicad_length_mm, routed.vias_counted + 1]);
    expect(ok(await s.call('inspect_net', { net: '/TX' })).length_rules).toEqual({ length: null, skew: null, via_count: null });
  });
});
