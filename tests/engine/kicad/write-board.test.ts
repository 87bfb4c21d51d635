// The writer adds copper and changes nothing else: on every bench board, the output minus the
// added block is the input byte for byte, and KiCad's own loader (pcbnew) reads back exactly the
// tracks, arcs and vias that were added, on their nets and layers, locked.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Board } from '../../../engine/board/model.ts';
import { parseBoard } from '../../../engine/kicad/read-board.ts';
import { addCopper, formatMm, type NewTrack, type NewVia } from '../../../engine/kicad/write-board.ts';
import { benchBoards, PCBNEW_PYTHON } from '../../support/bench.ts';

const ORACLE = join(import.meta.dirname, '..', '..', 'oracle', 'pcbnew_copper.py');
const dir = mkdtempSync(join(tmpdir(), 'tm-write-'));
afterAll(() => { if (!process.env.KEEP_TMP) rmSync(dir, { recursive: true, force: true }); });

/** Some copper on the first net that has two pads: a segment, an arc and a via. */
function sampleCopper(board: Board): { tracks: NewTrack[]; vias: NewVia[] } {
  const pads = board.pads.filter((p) => p.net > 0);
  const net = pads[0].net;
  const [a, b] = pads.filter((p) => p.net === net);
  const end = b && (b.at.x !== a.at.x || b.at.y !== a.at.y) ? b : { at: { x: a.at.x + 1_000_000, y: a.at.y } };
  const last = board.copperLayers.length - 1;
  // A half circle over the chord: a well-formed arc whatever the pads' positions.
  const dx = end.at.x - a.at.x;
  const dy = end.at.y - a.at.y;
  const mid = { x: Math.round((a.at.x + end.at.x) / 2 - dy / 2), y: Math.round((a.at.y + end.at.y) / 2 + dx / 2) };
  return {
    tracks: [
      { start: a.at, end: end.at, width: 250_000, layer: 0, net, locked: true },
      { start: a.at, mid, end: end.at, width: 200_000, layer: last, net, locked: true },
    ],
    vias: [{ at: a.at, size: 600_000, drill: 300_000, layerFrom: 0, layerTo: last, net, locked: true }],
  };
}

describe('formatMm', () => {
  it('writes nm as KiCad writes mm', () => {
    expect(formatMm(0)).toBe('0');
    expect(formatMm(1_524_000)).toBe('1.524');
    expect(formatMm(-250)).toBe('-0.00025');
    expect(formatMm(-1_500_000_000)).toBe('-1500');
    expect(() => formatMm(0.5)).toThrow(/integer nm/);
  });
});

describe('writer adds only copper', () => {
  const boards = benchBoards();
  const cases = boards.map((b) => {
    const input = readFileSync(b.bare, 'utf8');
    const board = parseBoard(input, { source: b.bare });
    const copper = sampleCopper(board);
    const output = addCopper(board, copper.tracks, copper.vias);
    const out = join(dir, `${b.name}.kicad_pcb`);
    writeFileSync(out, output);
    return { b, input, board, copper, output, out };
  });

  it.each(cases.map((c) => [c.b.name, c]))('%s: the rest of the text is untouched', (_n, c) => {
    let p = 0;
    while (p < c.input.length && c.input[p] === c.output[p]) p++;
    let s = 0;
    while (s < c.input.length - p && c.input[c.input.length - 1 - s] === c.output[c.output.length - 1 - s]) s++;
    expect(p + s).toBe(c.input.length);
    const added = c.output.slice(p, c.output.length - s);
    expect(added.match(/^\t\((segment|arc|via)\b/gm)).toEqual(['\t(segment', '\t(arc', '\t(via']);
    // Re-reading our own output gives the board plus the new items.
    const again = parseBoard(c.output);
    expect(again.pads.length).toBe(c.board.pads.length);
    expect(again.tracks.length).toBe(c.board.tracks.length + 2);
    expect(again.vias.length).toBe(c.board.vias.length + 1);
  });

  it('pcbnew reads back exactly the added items', () => {
    const lines = execFileSync(PCBNEW_PYTHON, [ORACLE, ...cases.map((c) => c.out)], { encoding: 'utf8', maxBuffer: 256 << 20 })
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; items: Record<string, unknown>[] });
    expect(lines.length).toBe(cases.length);
    for (const [i, c] of cases.entries()) {
      const netName = c.board.nets[c.copper.tracks[0].net].name;
      const names = c.board.copperLayers;
      const [seg, arc] = c.copper.tracks;
      const via = c.copper.vias[0];
      expect(lines[i].items, c.b.name).toEqual([
        { kind: 'segment', sx: seg.start.x, sy: seg.start.y, ex: seg.end.x, ey: seg.end.y, width: seg.width, layer: names[0].userName ?? 'F.Cu', net: netName, locked: true },
        expect.objectContaining({ kind: 'arc', sx: arc.start.x, sy: arc.start.y, ex: arc.end.x, ey: arc.end.y, width: arc.width, net: netName, locked: true }),
        expect.objectContaining({ kind: 'via', x: via.at.x, y: via.at.y, size: via.size, drill: via.drill, net: netName, locked: true }),
      ]);
    }
  });
});
