// The board read two ways over the live socket must agree, on each KiCad under test:
// SaveDocumentToString parsed by the engine's .kicad_pcb reader, and the items and nets the API
// reports. Same pads (footprint, number, position, net) and same nets: by code and name on KiCad 9,
// whose file keeps the editor's codes; by name on 10, whose file names nets and keeps no codes.
import { expect, it } from 'vitest';
import { parseBoard } from '../../engine/kicad/read-board.ts';
import { benchBoard, describeKicads, useKicad } from './kicad-harness.ts';

describeKicads('board as text vs board as items in live pcbnew', (kicad) => {
  // A 4-layer board with zones and ~900 pins: big enough that a mismatch would show.
  const live = useKicad(kicad, { board: benchBoard('C', 'LibreSolar_bms-c1', kicad) });

  it('gives the same pads and nets', async () => {
    const { client } = live;
    const text = await client.boardText();
    const board = parseBoard(text, { source: 'SaveDocumentToString' });
    expect(board.dialect).toBe(kicad.major >= 10 ? 'net-names' : 'net-codes');
    const footprints = await client.footprints();
    const flatPads = await client.pads();
    const nets = await client.nets();

    const fromText = board.pads
      .map((p) => {
        const ref = board.footprints[p.footprint].reference;
        return `${ref}/${p.number} @${p.at.x},${p.at.y} net=${board.nets[p.net]?.name ?? '?'}`;
      })
      .sort();
    const fromItems = footprints.flatMap((f) => f.pads.map((p) => `${f.reference}/${p.number} @${p.position.x},${p.position.y} net=${p.net}`)).sort();
    expect(fromItems.length).toBeGreaterThan(500);
    expect(fromItems).toEqual(fromText);
    // The flat pad query returns the same pads as the footprints carry.
    expect(flatPads.map((p) => p.id).sort()).toEqual(footprints.flatMap((f) => f.pads.map((p) => p.id)).sort());

    const byCode = kicad.major < 10;
    const key = (n: { code: number; name: string }) => (byCode ? `${n.code}:${n.name}` : n.name);
    const textNets = board.nets.map(key).sort();
    const itemNets = nets.map(key).sort();
    expect(itemNets.length).toBeGreaterThan(50);
    expect(itemNets).toEqual(textNets);
  });
});
