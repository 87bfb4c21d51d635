// Nets under a custom length or via-count rule are routed, and the final design-rule check, which
// measures a net as KiCad does, keeps a net only where its route meets the rule: a net whose route
// is too long stays open and says by how much. KiCad (9.0.8 and 10.0.7, on the routed board with
// its rules) finds no error the route added.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCopper } from '../../../engine/board/added-copper.ts';
import { runDrc } from '../../../engine/drc/drc.ts';
import { generateBoard } from '../../../engine/kicad/generate-board.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { addCopper } from '../../../engine/kicad/write-board.ts';
import { routeDesign } from '../../../engine/route/index.ts';
import { kicadDrc } from '../../support/kicad-drc.ts';
import { kicads } from '../../support/kicad.ts';

const OPTS = { nets: 10, padsPerNet: 3, layers: 2, width: 40, height: 30, seed: 3, pairs: 3 };
const PAIR_NETS = ['/DP1_P', '/DP1_N', '/DP2_P', '/DP2_N', '/DP3_P', '/DP3_N'];

function routed(lengthRules: { min?: number; max?: number }, extra = '') {
  const g = generateBoard({ ...OPTS, lengthRules });
  const dru = g.rules! + extra;
  const design = loadDesign({ board: g.board, boardName: 'p.kicad_pcb', project: g.project, projectName: 'p.kicad_pro', dru, druName: 'p.kicad_dru' });
  const result = routeDesign(design);
  const after = runDrc({ ...design, board: withCopper(design.board, result.tracks, result.vias) });
  return { g, dru, design, result, after };
}

describe('length and via-count rules in the router', () => {
  it('routes the nets a length maximum governs where their routes are short enough', () => {
    const { result, after } = routed({ max: 80 });
    expect(result.open).toEqual([]);
    expect(after.errors.length_out_of_range).toBeUndefined();
  });

  it('leaves open, with the measured length, each net whose route is longer than the maximum', () => {
    const { result, after } = routed({ max: 12 });
    const open = result.open.filter((c) => PAIR_NETS.includes(c.netName));
    expect(open.map((c) => c.netName).sort()).toEqual([...PAIR_NETS].sort());
    for (const c of open)
      expect(c.stuck?.why).toMatch(
        /the final design-rule check refused it \(Track length out of range \(rule 'pair length' max length 12\.0000 mm; actual \d+\.\d{4} mm\)\)/,
      );
    // The other nets route as before; no pair net keeps copper that breaks the rule.
    expect(result.open.length).toBe(open.length);
    expect(after.errors.length_out_of_range).toBeUndefined();
  });

  it('keeps a net to its via count', () => {
    const { result, after } = routed({ max: 80 }, `(rule "no vias"\n\t(condition "A.inDiffPair('/DP*')")\n\t(constraint via_count (max 0)))\n`);
    const withVias = result.nets.filter((n) => PAIR_NETS.includes(n.name) && n.vias.length > 0);
    expect(withVias).toEqual([]);
    expect(after.errors.too_many_vias).toBeUndefined();
    // The board needs a via for one pair at least: that net is left open, said why.
    expect(result.open.some((c) => /Too many vias on a connection \(rule 'no vias' max count 0; actual [1-9]/.test(c.stuck?.why ?? ''))).toBe(true);
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('KiCad %s judges the routed board', (_v, k) => {
  it('finds no error the route added under the length rules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-len-route-'));
    const { g, dru, design, result } = routed({ max: 12 });
    const write = (name: string, text: string) => {
      const f = { board: join(dir, `${name}.kicad_pcb`), pro: join(dir, `${name}.kicad_pro`), dru: join(dir, `${name}.kicad_dru`) };
      writeFileSync(f.board, text);
      writeFileSync(f.pro, g.project);
      writeFileSync(f.dru, dru);
      return f;
    };
    const bare = await kicadDrc(k, write('bare', g.board));
    const after = await kicadDrc(k, write('routed', addCopper(design.board, result.tracks, result.vias)));
    for (const [key, n] of Object.entries(after.counts)) if (key.endsWith(':error')) expect([key, n]).toEqual([key, bare.counts[key] ?? 0]);
    expect(after.unconnected).toBe(result.open.length);
  });
});
