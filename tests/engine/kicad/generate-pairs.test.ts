// Synthetic boards with differential pairs and their length rules (`tracemaker generate --pairs N
// --length-rules …`): each pair two nets KiCad pairs by name, on neighbouring pins at both ends, in
// their own net class; the rules file is one KiCad reads and applies (its DRC, 9.0.8 and 10.0.7).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateBoard } from '../../../engine/kicad/generate-board.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { diffPairOf } from '../../../engine/board/diff-pairs.ts';
import { kicadDrc } from '../../support/kicad-drc.ts';
import { kicads } from '../../support/kicad.ts';
import { tracemaker } from '../../plugin/cli.ts';

const OPTS = { nets: 10, padsPerNet: 3, layers: 2, width: 40, height: 30, seed: 3, pairs: 3 };

describe('generate --pairs', () => {
  it('makes pairs on neighbouring pins, in a class of their own, ahead of the other nets', () => {
    const g = generateBoard(OPTS);
    const design = loadDesign({ board: g.board, boardName: 'p.kicad_pcb', project: g.project, projectName: 'p.kicad_pro' });
    const { board, rules } = design;
    const names = board.nets.map((n) => n.name);
    expect(names.slice(1, 7)).toEqual(['/DP1_P', '/DP1_N', '/DP2_P', '/DP2_N', '/DP3_P', '/DP3_N']);
    expect(names.slice(7)).toEqual(Array.from({ length: 10 }, (_, i) => `N${i + 1}`));
    for (let k = 1; k <= 3; k++) {
      const p = board.netByName.get(`/DP${k}_P`)!;
      const n = board.netByName.get(`/DP${k}_N`)!;
      expect(diffPairOf(`/DP${k}_P`, board.netByName)?.partner).toBe(`/DP${k}_N`);
      expect(rules.netClass(p).name).toBe('DiffPair');
      const pp = board.pads.filter((q) => q.net === p);
      const nn = board.pads.filter((q) => q.net === n);
      expect([pp.length, nn.length]).toEqual([2, 2]);
      // At each end the P and N pins are neighbours of one part, and the nets do not swap sides.
      for (const a of pp) {
        const b = nn.find((q) => q.footprint === a.footprint)!;
        expect(Math.hypot(a.at.x - b.at.x, a.at.y - b.at.y)).toBeLessThanOrEqual(2_540_000);
      }
      // Joined P to P and N to N the two runs are no longer than swapped: they need not cross.
      const d = (a: (typeof pp)[0], b: (typeof pp)[0]) => Math.hypot(a.at.x - b.at.x, a.at.y - b.at.y);
      const across = (q: (typeof pp)[0]) => nn.find((r) => r.footprint !== q.footprint)!;
      expect(d(pp[0], pp[1]) + d(nn[0], nn[1])).toBeLessThanOrEqual(d(pp[0], across(pp[0])) + d(pp[1], across(pp[1])) + 1);
    }
    expect(g.rules).toBeUndefined();
  });

  it('puts each pair on pins with no other pin of the part between them, whatever the seed', () => {
    let boards = 0;
    for (let seed = 1; seed <= 20; seed++) {
      let g;
      try {
        g = generateBoard({ ...OPTS, seed, pairs: 4 });
      } catch (e) {
        // A board of mostly two-pin parts has too few neighbouring pins: said, not made.
        expect(String(e)).toMatch(/too few neighbouring free pins for 4 differential pairs; make it larger/);
        continue;
      }
      boards++;
      const { board } = loadDesign({ board: g.board, boardName: 'p.kicad_pcb', project: g.project, projectName: 'p.kicad_pro' });
      for (let k = 1; k <= 4; k++) {
        const p = board.netByName.get(`/DP${k}_P`)!;
        const n = board.netByName.get(`/DP${k}_N`)!;
        for (const a of board.pads.filter((q) => q.net === p)) {
          const b = board.pads.find((q) => q.net === n && q.footprint === a.footprint)!;
          const mid = { x: (a.at.x + b.at.x) / 2, y: (a.at.y + b.at.y) / 2 };
          const between = board.pads.filter((q) => q.footprint === a.footprint && q !== a && q !== b && Math.hypot(q.at.x - mid.x, q.at.y - mid.y) < 1_000);
          expect([seed, k, between.length]).toEqual([seed, k, 0]);
        }
      }
    }
    expect(boards).toBeGreaterThanOrEqual(10);
  });

  it('leaves a board without pairs as it always was', () => {
    const { pairs: _pairs, ...plain } = OPTS;
    expect(generateBoard({ ...plain, pairs: 0 })).toEqual(generateBoard(plain));
    expect(generateBoard(plain).board).not.toContain('/DP');
  });

  it('refuses length rules without pairs, and lengths that are not', () => {
    expect(() => generateBoard({ ...OPTS, pairs: 0, lengthRules: { max: 10 } })).toThrow(/length rules are for differential pairs/);
    expect(() => generateBoard({ ...OPTS, lengthRules: { skew: -1 } })).toThrow(/length rule skew must be a length in mm above 0, got -1/);
  });
});

describe('tracemaker generate --pairs --length-rules', () => {
  it('writes the board, its project and its rules under one stem, and names a bad rule', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-gen-cli-'));
    const out = join(dir, 'g.kicad_pcb');
    const args = ['generate', '--nets', '10', '--size', '40x30', '--seed', '3', '--pairs', '3', '--out', out];
    const r = tracemaker([...args, '--length-rules', 'skew=0.5,max=60']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'g.kicad_dru'), 'utf8')).toContain(`(constraint skew (max 0.5mm) (within_diff_pairs))`);
    expect(readFileSync(join(dir, 'g.kicad_dru'), 'utf8')).toContain(`(constraint length (max 60mm))`);
    expect(existsSync(join(dir, 'g.kicad_pro'))).toBe(true);
    const bad = tracemaker([...args, '--length-rules', 'skew=fast']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('generate: --length-rules expects skew=MM, min=MM and max=MM separated by commas, got "skew=fast"');
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('KiCad %s on the length rules', (_v, k) => {
  it('reads them and applies them to each net of the pairs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-gen-pairs-'));
    // A minimum no bare net meets: every net of a pair is too short, none other is judged.
    const g = generateBoard({ ...OPTS, lengthRules: { skew: 0.5, min: 1000 } });
    const f = { board: join(dir, 'p.kicad_pcb'), pro: join(dir, 'p.kicad_pro'), dru: join(dir, 'p.kicad_dru') };
    writeFileSync(f.board, g.board);
    writeFileSync(f.pro, g.project);
    writeFileSync(f.dru, g.rules!);
    const drc = await kicadDrc(k, f);
    expect(drc.counts).toEqual({ 'length_out_of_range:error': 6 });
  });
});
