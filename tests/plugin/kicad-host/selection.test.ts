// Which nets a selection means, and --nets parsing.
import { describe, expect, it } from 'vitest';
import type { BoardItem } from '../../../ipc/index.ts';
import { netsOfSelection, parseNetList, unknownNets } from '../../../plugin/kicad-host/actions.ts';

const base = { id: 'x', locked: false };
const pad = (net: string) =>
  ({
    ...base,
    kind: 'pad',
    net,
    number: '1',
    type: 'smd',
    position: { x: 0, y: 0 },
    angle: 0,
    padstack: 'normal',
    layers: [],
    shapes: [],
    drill: { x: 0, y: 0 },
    drillShape: 'none',
    clearanceOverride: null,
    footprint: '',
  }) as BoardItem;

describe('selection', () => {
  it('takes the nets of pads, copper, zones and every pad of a footprint, once each, without ""', () => {
    const items: BoardItem[] = [
      pad('SDA'),
      { ...base, kind: 'track', start: { x: 0, y: 0 }, end: { x: 1, y: 1 }, width: 1, layer: 'F.Cu', net: 'SCL' },
      {
        ...base,
        kind: 'footprint',
        reference: 'U1',
        value: '',
        libraryId: '',
        position: { x: 0, y: 0 },
        orientation: 0,
        layer: 'F.Cu',
        pads: [pad('INT') as never, pad('SDA') as never, pad('') as never],
      },
      { kind: 'other', type: 'kiapi.board.types.BoardText' },
      { ...base, kind: 'via', position: { x: 0, y: 0 }, type: 'through', diameter: 1, drill: 1, startLayer: 'F.Cu', endLayer: 'B.Cu', net: '' },
    ];
    expect(netsOfSelection(items)).toEqual(['SDA', 'SCL', 'INT']);
    expect(netsOfSelection([])).toEqual([]);
  });

  it('parses --nets and names unknown nets', () => {
    expect(parseNetList(' SDA, SCL,,SDA ')).toEqual(['SDA', 'SCL']);
    expect(
      unknownNets(
        ['SDA', 'X', ''],
        new Map([
          ['SDA', 1],
          ['', 0],
        ]),
      ),
    ).toEqual(['', 'X']);
  });
});
