// Vias that drill only some layers, into a live KiCad of each version under test: a generated
// four-layer board whose rules allow blind/buried and micro-vias (for KiCad 10 first upgraded to its
// own format by its kicad-cli) is routed by the engine, and the route, with a buried and a micro-via
// of the same nets beside it, goes in through the plugin's write-back as one commit; KiCad keeps every
// via's type and span as written — in its items, and in the board it would save (KiCad 10 writes
// blind and buried apart, `(via buried …)`; 9 writes both as `(via blind …)`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { generateBoard } from '../../engine/kicad/generate-board.ts';
import { loadDesign } from '../../engine/kicad/load.ts';
import { routeDesign } from '../../engine/route/index.ts';
import type { NewVia } from '../../engine/board/added-copper.ts';
import type { ViaType } from '../../ipc/index.ts';
import { writeBack } from '../../plugin/kicad-host/write-back.ts';
import { describeKicads, useKicad } from './kicad-harness.ts';

const g = generateBoard({ nets: 45, padsPerNet: 4, layers: 4, width: 55, height: 45, seed: 22, blindVias: true, microVias: true });

/** The board in this KiCad's own format: as generated for 9, through `kicad-cli pcb upgrade` for 10. */
function boardFor(cli: string, major: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'tm-vias-'));
  const path = join(dir, 'hdi.kicad_pcb');
  writeFileSync(path, g.board);
  writeFileSync(join(dir, 'hdi.kicad_pro'), g.project);
  if (major >= 10) {
    const r = spawnSync(cli, ['pcb', 'upgrade', '--force', path], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`kicad-cli pcb upgrade failed: ${r.stderr || r.stdout}`);
  }
  return path;
}

describeKicads('blind, buried and micro-vias written into live pcbnew', (kicad) => {
  const path = kicad.major === 0 ? '' : boardFor(kicad.cli, kicad.major);
  const live = useKicad(kicad, { board: path });
  afterAll(() => {
    if (path) rmSync(dirname(path), { recursive: true, force: true });
  });

  it('keeps each via’s type and layers', async () => {
    const { client } = live;
    const text = readFileSync(path, 'utf8');
    const design = loadDesign({ board: text, project: g.project });
    expect(design.board.dialect).toBe(kicad.major >= 10 ? 'net-names' : 'net-codes');
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
    const last = design.board.copperLayers.length - 1;
    const layer = (i: number) => design.board.copperLayers[i].name;
    // KiCad's names: the engine's "blind" is blind when it reaches an outer layer, buried when it does not.
    const typeOf = (v: NewVia): ViaType =>
      v.type === 'micro' ? 'micro' : v.type !== 'blind' ? 'through' : [v.layerFrom, v.layerTo].some((l) => l === 0 || l === last) ? 'blind' : 'buried';
    const uuids = written.uuids.slice(result.tracks.length);
    const byId = new Map((await client.items(['via'])).map((v) => ['id' in v ? v.id : '', v]));
    const got = uuids.map((id) => byId.get(id));
    expect(got.map((v) => (v && v.kind === 'via' ? [v.type, v.startLayer, v.endLayer, v.diameter, v.drill] : null))).toEqual(
      vias.map((v) => [typeOf(v), layer(v.layerFrom), layer(v.layerTo), v.size, v.drill]),
    );
    expect(new Set(got.map((v) => v?.kind === 'via' && v.type))).toEqual(
      new Set(['micro', 'blind', 'buried'].filter((t) => vias.some((v) => typeOf(v) === t))),
    );
    expect(got.some((v) => v?.kind === 'via' && v.type === 'buried')).toBe(true);

    // The board KiCad would save: each via's keyword is its type as this version stores it.
    const saved = await client.boardText();
    const keyword = new Map([...saved.matchAll(/\(via(?: (blind|buried|micro))?\s[^]*?\(uuid "([^"]+)"\)/g)].map((m) => [m[2], m[1] ?? 'through']));
    expect(uuids.map((id) => keyword.get(id))).toEqual(
      vias.map((v) => {
        const t = typeOf(v);
        return kicad.major < 10 && t === 'buried' ? 'blind' : t;
      }),
    );
  });
});
