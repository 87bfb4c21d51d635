// The reader against KiCad itself, once per KiCad version under test: that version's pcbnew reads
// every bench board in its own format (KiCad 9: the shared bench, net codes; KiCad 10: its copy of
// the bench, nets by name) and its own demos, and the engine must see the same pads (position,
// orientation, size, net), nets, tracks, vias, zones.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBoard } from '../../../engine/kicad/read-board.ts';
import { benchBoards, benchOf, demoBoards } from '../../support/bench.ts';
import { kicads } from '../../support/kicad.ts';

const DUMP = join(import.meta.dirname, '..', '..', 'oracle', 'pcbnew_dump.py');

interface Dump {
  pads: { ref: string; number: string; x: number; y: number; rot: number; w: number; h: number; net: string; drill: number }[];
  nets: string[];
  vias: number;
  arcs: number;
  segments: number;
  zones: number;
  copper_layers: number;
}

function norm(deg: number): number {
  const d = ((deg % 360) + 360) % 360;
  return Math.round(d * 1000) / 1000 === 360 ? 0 : Math.round(d * 1000) / 1000;
}

describe.each(kicads().map((k) => [k.version, k] as const))('reader agrees with pcbnew %s', (_version, k) => {
  const bench = benchBoards(benchOf(k)).flatMap((b) => [b.bare, b.ref]);
  const boards = [...bench, ...demoBoards(k.demos)];
  it.each(boards.map((f) => [f.split('/').pop()!, f]))(
    '%s',
    (_name, file) => {
      const kicad = JSON.parse(execFileSync(k.python, [DUMP, file], { encoding: 'utf8', maxBuffer: 512 << 20, stdio: ['ignore', 'pipe', 'pipe'] })) as Dump;
      const board = parseBoard(readFileSync(file, 'utf8'), { source: file });
      // The bench copy is in the version's own dialect (demos may be older files).
      if (bench.includes(file)) expect(board.dialect).toBe(k.major >= 10 ? 'net-names' : 'net-codes');

      expect(board.copperLayers.length).toBe(kicad.copper_layers);
      expect(board.tracks.filter((t) => t.kind === 'segment').length).toBe(kicad.segments);
      expect(board.tracks.filter((t) => t.kind === 'arc').length).toBe(kicad.arcs);
      expect(board.vias.length).toBe(kicad.vias);
      expect(board.zones.length).toBe(kicad.zones);
      expect(new Set(board.nets.map((n) => n.name))).toEqual(new Set(kicad.nets));

      const mine = board.pads.map((p) => {
        const fp = board.footprints[p.footprint];
        return `${fp.reference}|${p.number}|${p.at.x}|${p.at.y}|${norm(p.rotation)}|${p.size.w}|${p.size.h}|${board.nets[p.net].name}|${p.drill?.w ?? 0}`;
      });
      const theirs = kicad.pads.map((p) => `${p.ref}|${p.number}|${p.x}|${p.y}|${norm(p.rot)}|${p.w}|${p.h}|${p.net}|${p.drill}`);
      expect(mine.sort()).toEqual(theirs.sort());
    },
    600_000,
  ); // KiCad's vme-wren and jetson-agx-thor demos are 70-85 MB: pcbnew alone takes half a minute or more
});
