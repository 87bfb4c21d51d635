// Vias that drill only some layers, into a live KiCad 9.0.8: a generated four-layer board whose
// rules allow blind/buried and micro-vias is routed by the engine, and the route, with a buried
// and a micro-via of the same nets beside it, goes in through the plugin's write-back as one
// commit; KiCad keeps every via's type and span as written.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBoard } from '../../engine/kicad/generate-board.ts';
import { loadDesign } from '../../engine/kicad/load.ts';
import { routeDesign } from '../../engine/route/index.ts';
import type { NewVia } from '../../engine/kicad/write-board.ts';
import type { KicadClient } from '../../ipc/index.ts';
import { writeBack } from '../../plugin/kicad/write-back.ts';
import { liveEnabled, startKicad, type KicadInstance } from './kicad-harness.ts';

const live = liveEnabled();
const TYPE = { through: 'through', blind: 'blind_buried', micro: 'micro' } as const;

describe.skipIf(!live)('blind, buried and micro-vias written into live KiCad', () => {
  const g = generateBoard({ nets: 45, padsPerNet: 4, layers: 4, width: 55, height: 45, seed: 22, blindVias: true, microVias: true });
  const dir = mkdtempSync(join(tmpdir(), 'tm-vias-'));
  const path = join(dir, 'hdi.kicad_pcb');
  writeFileSync(path, g.board);
  writeFileSync(join(dir, 'hdi.kicad_pro'), g.project);
  let kicad: KicadInstance;
  let client: KicadClient;

  beforeAll(async () => {
    kicad = await startKicad({ board: path });
    client = await kicad.connect();
  });

  afterAll(async () => {
    await kicad?.stop();
  });

  it('keeps each via’s type and layers', async () => {
    const design = loadDesign({ board: g.board, project: g.project });
    const result = routeDesign(design, { seed: 1 });
    expect(result.vias.length).toBeGreaterThan(0);
    // A buried via (In1.Cu–In2.Cu) and a micro-via (In2.Cu–B.Cu) of a routed net, in a free corner.
    const net = result.vias[0].net;
    const extra: NewVia[] = [
      { at: { x: 2_000_000, y: 2_000_000 }, size: 600_000, drill: 300_000, layerFrom: 1, layerTo: 2, net, type: 'blind', locked: true },
      { at: { x: 3_500_000, y: 2_000_000 }, size: 300_000, drill: 100_000, layerFrom: 2, layerTo: 3, net, type: 'micro', locked: true },
    ];
    const vias = [...result.vias, ...extra];
    const added = [...result.tracks.map((track) => ({ track })), ...vias.map((via) => ({ via }))];
    const written = await writeBack(client, design.board, { added, removed: [] }, [], 'TraceMaker live test: partial vias');
    const layer = (i: number) => design.board.copperLayers[i].name;
    const byId = new Map((await client.items(['via'])).map((v) => [('id' in v ? v.id : ''), v]));
    const got = written.uuids.slice(result.tracks.length).map((id) => byId.get(id));
    expect(got.map((v) => (v && v.kind === 'via' ? [v.type, v.startLayer, v.endLayer, v.diameter, v.drill] : null))).toEqual(
      vias.map((v) => [TYPE[v.type ?? 'through'], layer(v.layerFrom), layer(v.layerTo), v.size, v.drill]),
    );
    expect(new Set(got.map((v) => v?.kind === 'via' && v.type))).toEqual(new Set(['micro', 'blind_buried']));
  });
});
