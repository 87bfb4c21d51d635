// KiCad's solder_mask_bridge on small boards: every expected count is what kicad-cli 9.0.8 (and,
// where said, 10.0.7) reported on the same board, so these pin the rule as KiCad applies it.
import { describe, expect, it } from 'vitest';
import { checkAdded, runDrc } from '../../../engine/drc/drc.ts';
import { circle, fp, maskDesign, pad, seg, via, zone, type MaskBoard } from './mask-board.ts';

const bridges = (b: MaskBoard) => runDrc(maskDesign(b)).violations.filter((v) => v.type === 'solder_mask_bridge').length;
const th = (net: number) => pad('1', 0, 0, 1.6, 1.6, net, '"*.Cu" "*.Mask"', 'thru_hole', 'circle', '(drill 1)');
const npth = (size: number) => pad('', 0, 0, size, size, 0, '"*.Cu" "*.Mask"', 'np_thru_hole', 'circle', '(drill 2)');

describe('solder_mask_bridge: a mask graphic takes the first net under it', () => {
  it.each<[string, MaskBoard, number]>([
    ['two nets under a filled circle', { body: circle(10, 10, 2) + seg(8, 9.5, 12, 9.5, 1) + seg(8, 10.5, 12, 10.5, 2) }, 1],
    [
      'three nets: one finding per net after the first',
      { body: circle(10, 10, 2) + seg(8, 9.5, 12, 9.5, 1) + seg(8, 10.5, 12, 10.5, 2) + seg(8, 11, 12, 11, 3) },
      2,
    ],
    ['A, A then B: only B bridges', { body: circle(10, 10, 2) + seg(8, 9.5, 12, 9.5, 1) + seg(8, 10, 12, 10, 1) + seg(8, 10.8, 12, 10.8, 2) }, 1],
    [
      'B, A then A: both A tracks bridge (file order decides the first net)',
      { body: circle(10, 10, 2) + seg(8, 10.8, 12, 10.8, 2) + seg(8, 9.5, 12, 9.5, 1) + seg(8, 10, 12, 10, 1) },
      2,
    ],
    ['one net only', { body: circle(10, 10, 2) + seg(8, 9.5, 12, 9.5, 1) + seg(8, 10, 12, 10, 1) + seg(8, 10.5, 12, 10.5, 1) }, 0],
    ['front opening, back copper', { body: circle(10, 10, 2) + seg(8, 9.5, 12, 9.5, 1) + seg(8, 10.5, 12, 10.5, 2, 'B.Cu') }, 0],
    [
      'back opening, back copper',
      { body: circle(10, 10, 2, 'B.Mask') + seg(8, 9.5, 12, 9.5, 1, 'B.Cu') + seg(8, 10.5, 12, 10.5, 2, 'B.Cu') + seg(8, 11, 12, 11, 3) },
      1,
    ],
    ['an unfilled circle opens its ring only', { body: circle(10, 10, 2, 'F.Mask', 'no', 0.2) + seg(7, 10, 13, 10, 1) + seg(9.5, 10.8, 10.5, 10.8, 2) }, 0],
    ['two openings over the same tracks', { body: circle(10, 10, 2) + circle(11, 10, 2) + seg(8, 9.5, 12, 9.5, 1) + seg(8, 10.5, 12, 10.5, 2) }, 2],
    [
      'a line opens its stroke width',
      {
        body:
          `(gr_line (start 8 10) (end 12 10) (stroke (width 1)) (layer "F.Mask") (uuid "00000000-0000-4000-8000-0000000000ff"))\n` +
          seg(8, 9.6, 12, 9.6, 1) +
          seg(8, 10.4, 12, 10.4, 2),
      },
      1,
    ],
    ['a pad and a track of another net', { body: circle(10, 10, 2) + fp('U1', 10, 10, [pad('1', 0, 0, 0.6, 0.6, 1)]) + seg(8, 11, 12, 11, 2) }, 1],
    [
      'a zone fill and a track',
      {
        body:
          circle(10, 10, 2) +
          zone(1, [
            [8, 8],
            [12, 8],
            [12, 9.8],
            [8, 9.8],
          ]) +
          seg(8, 10.5, 12, 10.5, 2),
      },
      1,
    ],
    ['no net (KiCad 9): net 0 copper counts as a net', { body: circle(10, 10, 2) + seg(8, 9.5, 12, 9.5, 0) + seg(8, 10.5, 12, 10.5, 1) }, 1],
    [
      'a footprint opening that allows bridges',
      {
        body:
          fp('L1', 10, 10, [], 'smd allow_soldermask_bridges', circle(0, 0, 2, 'F.Mask', 'yes', 0, 'fp')) + seg(8, 9.5, 12, 9.5, 1) + seg(8, 10.5, 12, 10.5, 2),
      },
      0,
    ],
    [
      'a mask-only pad is an opening like a graphic',
      { body: fp('M1', 10, 40, [pad('', 0, 0, 3, 3, 0, '"F.Mask"')]) + seg(8, 39.5, 12, 39.5, 1) + seg(8, 40.5, 12, 40.5, 2) },
      1,
    ],
    ['solder mask to copper clearance grows the opening', { body: circle(10, 10, 2) + seg(7, 7.9, 13, 7.9, 1) + seg(7, 12.1, 13, 12.1, 2), toCopper: 0.15 }, 1],
    [
      'KiCad 9 does not grow mask graphics by the board expansion',
      { body: circle(10, 10, 2) + seg(7, 7.8, 13, 7.8, 1) + seg(7, 12.2, 13, 12.2, 2), p2m: 0.2 },
      0,
    ],
  ])('%s', (_, b, n) => expect(bridges(b)).toBe(n));
});

describe('solder_mask_bridge: pad and via openings', () => {
  it.each<[string, MaskBoard, number]>([
    [
      'a track inside a pad’s own expansion',
      { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1, undefined, undefined, undefined, '(solder_mask_margin 0.1)')]) + seg(28, 10.65, 32, 10.65, 2) },
      1,
    ],
    [
      'a track past it',
      { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1, undefined, undefined, undefined, '(solder_mask_margin 0.1)')]) + seg(28, 10.75, 32, 10.75, 2) },
      0,
    ],
    ['the footprint’s expansion', { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1)], 'smd', '(solder_mask_margin 0.1)') + seg(28, 10.65, 32, 10.65, 2) }, 1],
    ['the board’s expansion', { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1)]) + seg(28, 10.65, 32, 10.65, 2), p2m: 0.1 }, 1],
    [
      'a footprint that allows bridges',
      { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1)], 'smd allow_soldermask_bridges') + seg(28, 10.65, 32, 10.65, 2), p2m: 0.1 },
      0,
    ],
    ['a through-hole pad on the back', { body: fp('J1', 30, 30, [th(1)], 'through_hole') + seg(28, 30.95, 32, 30.95, 2, 'B.Cu'), p2m: 0.1 }, 1],
    ['two pads whose openings meet', { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1)]) + fp('U2', 31.3, 10, [pad('1', 0, 0, 1, 1, 2)]), p2m: 0.2 }, 1],
    ['… of one footprint', { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1), pad('2', 1.3, 0, 1, 1, 2)]), p2m: 0.2 }, 1],
    [
      '… of one footprint that allows bridges',
      { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1), pad('2', 1.3, 0, 1, 1, 2)], 'smd allow_soldermask_bridges'), p2m: 0.2 },
      0,
    ],
    [
      '… of one footprint, the board allowing bridges in footprints',
      { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1), pad('2', 1.3, 0, 1, 1, 2)]), p2m: 0.2, setup: '(allow_soldermask_bridges_in_footprints yes)' },
      0,
    ],
    [
      '… the first footprint allowing bridges judges the pair',
      { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1)], 'smd allow_soldermask_bridges') + fp('U2', 31.3, 10, [pad('1', 0, 0, 1, 1, 2)]), p2m: 0.2 },
      1,
    ],
    [
      '… the other order',
      { body: fp('U2', 31.3, 10, [pad('1', 0, 0, 1, 1, 2)]) + fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1)], 'smd allow_soldermask_bridges'), p2m: 0.2 },
      0,
    ],
    ['… of one net', { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1)]) + fp('U2', 31.3, 10, [pad('1', 0, 0, 1, 1, 1)]), p2m: 0.2 }, 0],
    [
      'the mask web width between openings',
      { body: fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1)]) + fp('U2', 31.3, 10, [pad('1', 0, 0, 1, 1, 2)]), setup: '(solder_mask_min_width 0.4)' },
      1,
    ],
    ['untented vias: one finding per side', { body: via(30, 30, 1) + via(30.8, 30, 2), tenting: '(tenting)', setup: '(solder_mask_min_width 0.4)' }, 2],
    ['tented vias', { body: via(30, 30, 1) + via(30.8, 30, 2), setup: '(solder_mask_min_width 0.4)' }, 0],
    [
      'a via untented on its own, KiCad 10’s way',
      { body: via(30, 30, 1, '(tenting (front no) (back no))') + via(30.8, 30, 2, '(tenting (front no) (back no))'), setup: '(solder_mask_min_width 0.4)' },
      2,
    ],
    [
      'a via tented at the front only',
      { body: via(30, 30, 1, '(tenting front)') + via(30.8, 30, 2, '(tenting front)'), tenting: '(tenting)', setup: '(solder_mask_min_width 0.4)' },
      1,
    ],
    [
      'a pad opening over another net’s zone fill, even allowing bridges',
      {
        body:
          fp('U1', 30, 10, [pad('1', 0, 0, 1, 1, 1)], 'smd allow_soldermask_bridges') +
          zone(2, [
            [29, 10.6],
            [31, 10.6],
            [31, 12],
            [29, 12],
          ]),
        p2m: 0.2,
      },
      1,
    ],
    ['a hole with no copper ring opens nothing', { body: fp('H1', 30, 30, [npth(2)], 'through_hole') + seg(28, 31.05, 32, 31.05, 2), p2m: 0.1 }, 0],
    [
      'a non-plated hole with a copper ring is copper of no net',
      { body: fp('H1', 30, 30, [npth(2.4)], 'through_hole') + seg(28, 31.35, 32, 31.35, 2), p2m: 0.1 },
      1,
    ],
  ])('%s', (_, b, n) => expect(bridges(b)).toBe(n));
});

describe('solder_mask_bridge as KiCad 10 judges its own files', () => {
  const k10 = (b: MaskBoard): MaskBoard => ({ ...b, version: 20260206 });
  it('leaves copper of no net out of a mask graphic', () => {
    expect(bridges(k10({ body: circle(10, 10, 2) + seg(8, 9.5, 12, 9.5, 0) + seg(8, 10.2, 12, 10.2, 1) + seg(8, 10.8, 12, 10.8, 2) }))).toBe(1);
  });
  it('grows mask graphics and untented vias by the board’s expansion', () => {
    expect(bridges(k10({ body: circle(10, 10, 2) + seg(7, 7.8, 13, 7.8, 1) + seg(7, 12.2, 13, 12.2, 2), p2m: 0.2 }))).toBe(1);
    expect(bridges(k10({ body: via(30, 30, 1) + seg(28, 30.45, 32, 30.45, 2), tenting: '(tenting)', p2m: 0.2 }))).toBe(1);
  });
});

describe('solder_mask_bridge judged for added copper only', () => {
  const board: MaskBoard = { body: circle(10, 10, 2) + fp('U1', 10, 10, [pad('1', 0, 0, 0.6, 0.6, 1)]) + seg(30, 30, 35, 30, 3) };
  const track = (net: number, y: number) => ({
    kind: 'segment' as const,
    start: { x: 8_000_000, y },
    end: { x: 12_000_000, y },
    width: 200_000,
    layer: 0,
    net,
    locked: true,
    uuid: '',
    src: -1,
  });

  it('names the added track under another net’s opening', () => {
    const design = maskDesign(board);
    const r = checkAdded(design, [track(2, 11_000_000)], []);
    const found = r.violations.filter((v) => v.type === 'solder_mask_bridge');
    expect(found).toHaveLength(1);
    expect(found[0].items).toContainEqual({ kind: 'track', index: design.board.tracks.length });
    expect(found[0].items).toContainEqual({ kind: 'mask', index: 0 });
  });

  it('passes a track of the net the opening already shows, and one elsewhere', () => {
    const design = maskDesign(board);
    expect(checkAdded(design, [track(1, 11_000_000)], []).errors.solder_mask_bridge).toBeUndefined();
    expect(checkAdded(design, [track(2, 20_000_000)], []).errors.solder_mask_bridge).toBeUndefined();
  });

  it('leaves out the board’s own bridges', () => {
    const design = maskDesign({ body: board.body + seg(8, 9.5, 12, 9.5, 3) });
    expect(runDrc(design).errors.solder_mask_bridge).toBe(1);
    expect(checkAdded(design, [track(2, 20_000_000)], []).errors.solder_mask_bridge).toBeUndefined();
  });
});
