// The writer adds copper and changes nothing else, on every bench board in each KiCad version's
// own format (KiCad 9: net codes; KiCad 10: nets by name): the output minus the added block is the
// input byte for byte, that version's pcbnew reads back exactly the tracks, arcs and vias that
// were added, on their nets (by name) and layers, locked, and a save in that pcbnew leaves the
// added items' text as the writer wrote it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Board } from '../../../engine/board/model.ts';
import { parseBoard } from '../../../engine/kicad/read-board.ts';
import { addCopper, formatMm } from '../../../engine/kicad/write-board.ts';
import type { NewTrack, NewVia } from '../../../engine/board/added-copper.ts';
import { benchBoards, benchOf } from '../../support/bench.ts';
import { kicads } from '../../support/kicad.ts';

const ORACLE = join(import.meta.dirname, '..', '..', 'oracle', 'pcbnew_copper.py');
const RESAVE = join(import.meta.dirname, '..', '..', 'oracle', 'pcbnew_resave.py');
const dir = mkdtempSync(join(tmpdir(), 'tm-write-'));
afterAll(() => {
  if (!process.env.KEEP_TMP) rmSync(dir, { recursive: true, force: true });
});

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

/** The output's text that is not the input's: the longest common prefix and suffix cut off. */
function addedText(input: string, output: string): { prefix: number; suffix: number; added: string } {
  let p = 0;
  while (p < input.length && input[p] === output[p]) p++;
  let s = 0;
  while (s < input.length - p && input[input.length - 1 - s] === output[output.length - 1 - s]) s++;
  return { prefix: p, suffix: s, added: output.slice(p, output.length - s) };
}

/** The text of the top-level item whose uuid is `uuid`, from its `\t(` line to its `\t)` line. */
function itemText(text: string, uuid: string): string | undefined {
  const at = text.indexOf(`(uuid "${uuid}")`);
  if (at < 0) return undefined;
  const start = text.lastIndexOf('\n\t(', at) + 1;
  const end = text.indexOf('\n\t)', at) + 3;
  return text.slice(start, end);
}

describe.each(kicads().map((k) => [k.version, k] as const))('writer adds only copper (KiCad %s)', (_version, k) => {
  const boards = benchBoards(benchOf(k));
  const sub = join(dir, `kicad${k.major}`);
  mkdirSync(sub, { recursive: true });
  const cases = boards.map((b) => {
    const input = readFileSync(b.bare, 'utf8');
    const board = parseBoard(input, { source: b.bare });
    const copper = sampleCopper(board);
    const output = addCopper(board, copper.tracks, copper.vias);
    const out = join(sub, `${b.name}.kicad_pcb`);
    writeFileSync(out, output);
    return { b, input, board, copper, output, out };
  });

  it("every board is in this version's dialect", () => {
    expect(new Set(cases.map((c) => c.board.dialect))).toEqual(new Set([k.major >= 10 ? 'net-names' : 'net-codes']));
  });

  it.each(cases.map((c) => [c.b.name, c]))('%s: the rest of the text is untouched', (_n, c) => {
    const { prefix, suffix, added } = addedText(c.input, c.output);
    expect(prefix + suffix).toBe(c.input.length);
    expect(added.match(/^\t\((segment|arc|via)\b/gm)).toEqual(['\t(segment', '\t(arc', '\t(via']);
    // Nets in the file's own dialect: KiCad 9 refers to the table by code, KiCad 10 names the net.
    const net = c.copper.tracks[0].net;
    const ref = c.board.dialect === 'net-names' ? `(net ${JSON.stringify(c.board.nets[net].name)})` : `(net ${net})`;
    expect(
      added
        .split('\n')
        .filter((l) => l.startsWith('\t\t(net '))
        .map((l) => l.trim()),
    ).toEqual([ref, ref, ref]);
    // Re-reading our own output gives the board plus the new items.
    const again = parseBoard(c.output);
    expect(again.dialect).toBe(c.board.dialect);
    expect(again.nets).toEqual(c.board.nets);
    expect(again.pads.length).toBe(c.board.pads.length);
    expect(again.tracks.length).toBe(c.board.tracks.length + 2);
    expect(again.vias.length).toBe(c.board.vias.length + 1);
  });

  it(`pcbnew ${k.version} reads back exactly the added items`, () => {
    const lines = execFileSync(k.python, [ORACLE, ...cases.map((c) => c.out)], { encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { file: string; items: Record<string, unknown>[] });
    expect(lines.length).toBe(cases.length);
    for (const [i, c] of cases.entries()) {
      const netName = c.board.nets[c.copper.tracks[0].net].name;
      const names = c.board.copperLayers;
      const [seg, arc] = c.copper.tracks;
      const via = c.copper.vias[0];
      // A bare board has no copper of its own: the added items are all pcbnew lists.
      expect(lines[i].items, c.b.name).toEqual([
        {
          kind: 'segment',
          sx: seg.start.x,
          sy: seg.start.y,
          ex: seg.end.x,
          ey: seg.end.y,
          width: seg.width,
          layer: names[0].userName ?? 'F.Cu',
          net: netName,
          locked: true,
        },
        expect.objectContaining({ kind: 'arc', sx: arc.start.x, sy: arc.start.y, ex: arc.end.x, ey: arc.end.y, width: arc.width, net: netName, locked: true }),
        expect.objectContaining({ kind: 'via', x: via.at.x, y: via.at.y, size: via.size, drill: via.drill, net: netName, locked: true }),
      ]);
    }
  }, 300_000);

  it(`a save in pcbnew ${k.version} leaves the added items as written`, () => {
    const pairs = cases.flatMap((c) => [c.out, c.out.replace(/\.kicad_pcb$/, '.saved.kicad_pcb')]);
    execFileSync(k.python, [RESAVE, ...pairs], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const c of cases) {
      const saved = readFileSync(c.out.replace(/\.kicad_pcb$/, '.saved.kicad_pcb'), 'utf8');
      const uuids = [...addedText(c.input, c.output).added.matchAll(/\(uuid "([^"]+)"\)/g)].map((m) => m[1]);
      expect(uuids.length, c.b.name).toBe(3);
      for (const u of uuids) expect(itemText(saved, u), `${c.b.name} ${u}`).toBe(itemText(c.output, u));
    }
  }, 300_000);
});
