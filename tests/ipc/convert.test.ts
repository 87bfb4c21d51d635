// Wire ↔ plain translation: layer names, nanometres as exact numbers, the int64 guard, and new copper
// encoded the way KiCad 9.0.8 accepts it (nets by name, a full via padstack).
import { describe, expect, it } from 'vitest';
import { boardDesignRules, copperToAny, glyphShape, itemFromAny, layerName, layerValue } from '../../ipc/convert.ts';
import { KicadProtocolError } from '../../ipc/errors.ts';
import { decode, encode, int64, packAny, unpackAny } from '../../ipc/messages.ts';
import type { ApiGeneration } from '../../ipc/version.ts';

describe('layers', () => {
  it('map API numbers to file names and back', () => {
    expect(layerName(3)).toBe('F.Cu');
    expect(layerName(4)).toBe('In1.Cu');
    expect(layerName(34)).toBe('B.Cu');
    expect(layerName(47)).toBe('Edge.Cuts');
    expect(layerName(53)).toBe('User.1');
    expect(layerName(0)).toBeNull();
    for (const name of ['F.Cu', 'In30.Cu', 'B.Cu', 'F.SilkS', 'Dwgs.User', 'User.45', 'Rescue']) {
      expect(layerName(layerValue(name))).toBe(name);
    }
  });

  it('refuse names that are not layers', () => {
    expect(() => layerValue('F_Cu')).toThrow(/unknown layer name "F_Cu"/);
    expect(() => layerValue('In31.Cu')).toThrow(TypeError);
    expect(() => layerValue('UNKNOWN')).toThrow(TypeError);
  });
});

describe('int64', () => {
  it('passes exact values through, including negative ones on 10 wire bytes', () => {
    const bytes = encode('kiapi.common.types.Vector2', { x_nm: -1_500_000_000, y_nm: 2 ** 53 - 1 });
    const v = decode('kiapi.common.types.Vector2', bytes);
    expect([int64(v.x_nm), int64(v.y_nm)]).toEqual([-1_500_000_000, 2 ** 53 - 1]);
  });

  it('refuses a value a JS number cannot hold exactly', () => {
    const bytes = encode('kiapi.common.types.Distance', { value_nm: '9007199254740993' });
    expect(() => int64(decode('kiapi.common.types.Distance', bytes).value_nm)).toThrow(KicadProtocolError);
  });
});

describe('copper items', () => {
  it('encode a new track with the net by name, locked, on the API layer number', () => {
    const any = copperToAny({ kind: 'track', start: { x: 1, y: -2 }, end: { x: 3_000_000, y: 4 }, width: 250_000, layer: 'B.Cu', net: 'GND', locked: true }, 9);
    expect(any.type_url).toBe('type.googleapis.com/kiapi.board.types.Track');
    const w = unpackAny(any);
    expect(w.id).toBeNull();
    expect(w.layer).toBe(34);
    expect(w.locked).toBe(2);
    expect(w.net.name).toBe('GND');
    expect(itemFromAny(any)).toEqual({
      kind: 'track',
      id: '',
      locked: true,
      start: { x: 1, y: -2 },
      end: { x: 3_000_000, y: 4 },
      width: 250_000,
      layer: 'B.Cu',
      net: 'GND',
    });
  });

  it('encode a via with a full through padstack (KiCad takes a via without one as drill 0, size 0)', () => {
    const any = copperToAny({ kind: 'via', position: { x: 5, y: 6 }, diameter: 800_000, drill: 400_000, net: 'VCC' }, 9);
    const w = unpackAny(any);
    expect(w.type).toBe(1);
    expect(w.pad_stack.type).toBe(1);
    expect(w.pad_stack.layers).toEqual([3, 34]);
    expect(int64(w.pad_stack.drill.diameter.x_nm)).toBe(400_000);
    expect(int64(w.pad_stack.copper_layers[0].size.y_nm)).toBe(800_000);
    expect(itemFromAny(any)).toMatchObject({
      kind: 'via',
      diameter: 800_000,
      drill: 400_000,
      startLayer: 'F.Cu',
      endLayer: 'B.Cu',
      type: 'through',
      locked: false,
      net: 'VCC',
    });
  });

  it('keep the id of an item being updated', () => {
    const any = copperToAny(
      { kind: 'arc', id: 'abc', locked: false, start: { x: 0, y: 0 }, mid: { x: 1, y: 1 }, end: { x: 2, y: 0 }, width: 100, layer: 'F.Cu', net: '' },
      9,
    );
    expect(itemFromAny(any)).toMatchObject({ kind: 'arc', id: 'abc', mid: { x: 1, y: 1 } });
  });

  it('refuse a coordinate that is not an integer number of nm', () => {
    expect(() => copperToAny({ kind: 'track', start: { x: 0.5, y: 0 }, end: { x: 1, y: 0 }, width: 1, layer: 'F.Cu', net: '' }, 9)).toThrow(
      /integer number of nm/,
    );
  });

  it('send blind and buried vias as one type to KiCad 9 and as two to KiCad 10 and 11, and read both back apart', () => {
    const via = (type: 'blind' | 'buried' | 'micro', startLayer: string, endLayer: string) => ({
      kind: 'via' as const,
      position: { x: 0, y: 0 },
      diameter: 600_000,
      drill: 300_000,
      net: 'GND',
      type,
      startLayer,
      endLayer,
    });
    const wire = (v: ReturnType<typeof via>, generation: ApiGeneration) => unpackAny(copperToAny(v, generation)).type;
    const blind = via('blind', 'F.Cu', 'In1.Cu');
    const buried = via('buried', 'In1.Cu', 'In2.Cu');
    expect([wire(blind, 9), wire(buried, 9), wire(via('micro', 'In2.Cu', 'B.Cu'), 9)]).toEqual([2, 2, 3]);
    expect([wire(blind, 10), wire(buried, 10), wire(via('micro', 'In2.Cu', 'B.Cu'), 10)]).toEqual([4, 5, 3]);
    expect([wire(blind, 11), wire(buried, 11)]).toEqual([4, 5]);
    for (const generation of [9, 10, 11] as const) {
      expect(itemFromAny(copperToAny(blind, generation))).toMatchObject({ type: 'blind', startLayer: 'F.Cu', endLayer: 'In1.Cu' });
      expect(itemFromAny(copperToAny(buried, generation))).toMatchObject({ type: 'buried', startLayer: 'In1.Cu', endLayer: 'In2.Cu' });
    }
    // KiCad 9's one type, read back: blind when it reaches an outer layer, buried when it does not.
    expect(itemFromAny(packAny('kiapi.board.types.Via', { type: 'VT_BLIND_BURIED', pad_stack: { drill: { start_layer: 5, end_layer: 34 } } }))).toMatchObject({
      type: 'blind',
      startLayer: 'In2.Cu',
      endLayer: 'B.Cu',
    });
  });

  it('refuse a blind or buried via whose layers say otherwise', () => {
    const v = { kind: 'via' as const, position: { x: 0, y: 0 }, diameter: 600_000, drill: 300_000, net: 'GND' };
    expect(() => copperToAny({ ...v, type: 'buried', startLayer: 'F.Cu', endLayer: 'In1.Cu' }, 10)).toThrow(/buried via cannot span F.Cu–In1.Cu/);
    expect(() => copperToAny({ ...v, type: 'blind', startLayer: 'In1.Cu', endLayer: 'In2.Cu' }, 9)).toThrow(/blind via cannot span/);
  });
});

describe('items read from KiCad', () => {
  it('give footprints their reference and pads, pads their absolute position and padstack', () => {
    const pad = packAny('kiapi.board.types.Pad', {
      id: { value: 'p1' },
      number: '2',
      net: { name: 'SDA' },
      type: 'PT_SMD',
      position: { x_nm: 110_490_000, y_nm: 78_867_000 },
      pad_stack: {
        type: 'PST_NORMAL',
        layers: ['BL_F_Cu', 'BL_F_Mask'],
        angle: { value_degrees: 90 },
        copper_layers: [{ layer: 'BL_F_Cu', shape: 'PSS_ROUNDRECT', size: { x_nm: 1_000_000, y_nm: 600_000 }, corner_rounding_ratio: 0.25 }],
      },
    });
    const footprint = packAny('kiapi.board.types.FootprintInstance', {
      id: { value: 'f1' },
      position: { x_nm: 110_000_000, y_nm: 78_000_000 },
      orientation: { value_degrees: 180 },
      layer: 'BL_F_Cu',
      reference_field: { text: { text: { text: 'U3' } } },
      value_field: { text: { text: { text: 'MCP23017' } } },
      definition: { id: { library_nickname: 'Package_SO', entry_name: 'SOIC-28' }, items: [pad] },
    });
    const fp = itemFromAny(footprint);
    expect(fp).toMatchObject({ kind: 'footprint', reference: 'U3', value: 'MCP23017', libraryId: 'Package_SO:SOIC-28', orientation: 180, layer: 'F.Cu' });
    if (fp.kind !== 'footprint') throw new Error('expected a footprint');
    expect(fp.pads).toEqual([
      {
        kind: 'pad',
        id: 'p1',
        locked: false,
        number: '2',
        net: 'SDA',
        type: 'smd',
        position: { x: 110_490_000, y: 78_867_000 },
        angle: 90,
        padstack: 'normal',
        layers: ['F.Cu', 'F.Mask'],
        shapes: [{ layer: 'F.Cu', shape: 'roundrect', size: { x: 1_000_000, y: 600_000 }, offset: { x: 0, y: 0 }, cornerRoundingRatio: 0.25, chamferRatio: 0 }],
        drill: { x: 0, y: 0 },
        drillShape: 'none',
        clearanceOverride: null,
        footprint: 'U3',
      },
    ]);
  });

  it('report kinds the client does not model as "other"', () => {
    expect(itemFromAny(packAny('kiapi.board.types.BoardText', { id: { value: 't' } }))).toEqual({ kind: 'other', type: 'kiapi.board.types.BoardText' });
  });

  it('report KiCad 11\'s ellipses as "other" shapes, and refuse one among a text\'s glyphs', () => {
    const ellipse = { center: { x_nm: 1 }, major_radius: { value_nm: 3_000_000 }, minor_radius: { value_nm: 1_000_000 }, rotation: { value_degrees: 30 } };
    for (const geometry of [{ ellipse }, { ellipse_arc: { ...ellipse, start_angle: { value_degrees: 0 }, end_angle: { value_degrees: 90 } } }]) {
      const shape = packAny('kiapi.board.types.BoardGraphicShape', { id: { value: 'e' }, layer: 'BL_Edge_Cuts', shape: geometry });
      expect(itemFromAny(shape)).toEqual({ kind: 'other', type: 'kiapi.board.types.BoardGraphicShape' });
      expect(() => glyphShape(geometry)).toThrow('a text glyph is an ellipse, which this client does not model');
    }
    expect(() => itemFromAny(packAny('kiapi.board.types.BoardGraphicShape', { layer: 'BL_Edge_Cuts', shape: {} }))).toThrow('board shape without geometry');
  });

  it("count KiCad 11's coloured and hatched fills, and a fill newer than the client, as filled", () => {
    const shape = (fill_type?: number | string) =>
      itemFromAny(
        packAny('kiapi.board.types.BoardGraphicShape', {
          layer: 'BL_F_Cu',
          shape: { attributes: fill_type === undefined ? {} : { fill: { fill_type } }, circle: { radius_point: { x_nm: 5 } } },
        }),
      );
    expect([undefined, 'GFT_UNFILLED', 'GFT_FILLED', 'GFT_FILLED_WITH_COLOR', 'GFT_HATCH', 'GFT_CROSS_HATCH', 9].map((f) => shape(f))).toMatchObject(
      [false, false, true, true, true, true, true].map((filled) => ({ kind: 'shape', filled })),
    );
  });

  it('skip fields a newer KiCad adds (they reach the decoder as unknown fields)', () => {
    // A track with a field number this client does not know (KiCad adds fields, never renumbers them):
    // field 15, length-delimited, appended to a track's bytes.
    const known = encode('kiapi.board.types.Track', { id: { value: 't' }, layer: 'BL_F_Cu', width: { value_nm: 200_000 }, net: { name: 'GND' } });
    const extra = Uint8Array.from([(15 << 3) | 2, 3, 0x0a, 0x01, 0x41]);
    const bytes = new Uint8Array([...known, ...extra]);
    expect(itemFromAny({ type_url: 'type.googleapis.com/kiapi.board.types.Track', value: bytes })).toMatchObject({
      kind: 'track',
      id: 't',
      layer: 'F.Cu',
      width: 200_000,
      net: 'GND',
    });
  });
});

describe('board design rules (KiCad 11)', () => {
  it('read the minimums and the pre-defined sizes in nm, and whether custom rules parsed', () => {
    const d = (value_nm: number) => ({ value_nm });
    const reply = decode(
      'kiapi.board.commands.BoardDesignRulesResponse',
      encode('kiapi.board.commands.BoardDesignRulesResponse', {
        rules: {
          constraints: {
            min_clearance: d(200_000),
            min_track_width: d(150_000),
            min_via_size: d(500_000),
            min_through_drill: d(300_000),
            hole_to_hole_min: d(250_000),
            min_resolved_spokes: 2,
          },
          predefined_sizes: {
            tracks: [{ width: d(250_000) }, { width: d(400_000) }],
            vias: [{ diameter: d(600_000), drill: d(300_000) }],
            diff_pairs: [{ width: d(200_000), gap: d(150_000), via_gap: d(250_000) }],
          },
        },
        custom_rules_status: 'CRS_INVALID',
      }),
    );
    const rules = boardDesignRules(reply);
    expect(rules.minimums).toMatchObject({
      clearance: 200_000,
      trackWidth: 150_000,
      viaDiameter: 500_000,
      throughDrill: 300_000,
      holeToHole: 250_000,
      resolvedSpokes: 2,
      copperEdgeClearance: 0,
    });
    expect(rules.trackWidths).toEqual([250_000, 400_000]);
    expect(rules.vias).toEqual([{ diameter: 600_000, drill: 300_000 }]);
    expect(rules.diffPairs).toEqual([{ width: 200_000, gap: 150_000, viaGap: 250_000 }]);
    expect(rules.customRules).toBe('invalid');
    expect(boardDesignRules({}).customRules).toBe('unknown');
  });
});

describe('int64 from Long words', () => {
  it('is exact up to ±(2^53 - 1) and refuses beyond', () => {
    for (const n of [0, 1, -1, 2 ** 32, -(2 ** 32) - 5, 2 ** 53 - 1, -(2 ** 53 - 1), 1_500_000_000, -1_500_000_000]) {
      const bytes = encode('kiapi.common.types.Distance', { value_nm: n });
      expect(int64(decode('kiapi.common.types.Distance', bytes).value_nm)).toBe(n);
    }
    for (const text of ['9007199254740992', '-9007199254740993', '9223372036854775807']) {
      const bytes = encode('kiapi.common.types.Distance', { value_nm: text });
      expect(() => int64(decode('kiapi.common.types.Distance', bytes).value_nm)).toThrow(/does not fit/);
    }
  });
});
