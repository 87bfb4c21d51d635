// The reader against KiCad itself: pcbnew (KiCad 9.0.8's own loader) reads every bench board and
// the engine must see the same pads (position, orientation, size, net), nets, tracks, vias, zones.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBoard } from '../../../engine/kicad/read-board.ts';
import { benchBoards, demoBoards, PCBNEW_PYTHON } from '../../support/bench.ts';

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

const boards = [...benchBoards().flatMap((b) => [b.bare, b.ref]), ...demoBoards()];

describe('reader agrees with pcbnew', () => {
  it.each(boards.map((f) => [f.split('/').pop()!, f]))('%s', (_name, file) => {
    const kicad = JSON.parse(execFileSync(PCBNEW_PYTHON, [DUMP, file], { encoding: 'utf8', maxBuffer: 256 << 20 })) as Dump;
    const board = parseBoard(readFileSync(file, 'utf8'), { source: file });

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
  }, 600_000); // KiCad's vme-wren demo is 69 MB: pcbnew alone takes half a minute to load it
});
