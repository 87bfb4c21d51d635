// The board read two ways over the live socket must agree: SaveDocumentToString parsed by the engine's
// .kicad_pcb reader, and the items and nets the API reports. Same pads (footprint, number, position,
// net) and same nets (code and name).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBoard } from '../../engine/kicad/read-board.ts';
import type { KicadClient } from '../../ipc/index.ts';
import { benchBoard, liveEnabled, startKicad, type KicadInstance } from './kicad-harness.ts';

const live = liveEnabled();
// A 4-layer board with zones and ~900 pins: big enough that a mismatch would show.
const BOARD = benchBoard('C', 'LibreSolar_bms-c1');

describe.skipIf(!live)('board as text vs board as items (live KiCad)', () => {
  let kicad: KicadInstance;
  let client: KicadClient;

  beforeAll(async () => {
    kicad = await startKicad({ board: BOARD });
    client = await kicad.connect();
  });

  afterAll(async () => {
    await kicad?.stop();
  });

  it('gives the same pads and nets', async () => {
    const board = parseBoard(await client.boardText(), { source: 'SaveDocumentToString' });
    const footprints = await client.footprints();
    const flatPads = await client.pads();
    const nets = await client.nets();

    const fromText = board.pads.map((p) => {
      const ref = board.footprints[p.footprint].reference;
      return `${ref}/${p.number} @${p.at.x},${p.at.y} net=${board.nets[p.net]?.name ?? '?'}`;
    }).sort();
    const fromItems = footprints.flatMap((f) => f.pads.map((p) =>
      `${f.reference}/${p.number} @${p.position.x},${p.position.y} net=${p.net}`)).sort();
    expect(fromItems.length).toBeGreaterThan(500);
    expect(fromItems).toEqual(fromText);
    // The flat pad query returns the same pads as the footprints carry.
    expect(flatPads.map((p) => p.id).sort()).toEqual(footprints.flatMap((f) => f.pads.map((p) => p.id)).sort());

    const textNets = board.nets.map((n) => `${n.code}:${n.name}`).sort();
    const itemNets = nets.map((n) => `${n.code}:${n.name}`).sort();
    expect(itemNets).toEqual(textNets);
  });
});
