// Regression: a fab template's `.kicad_dru` beside a board made the router route nothing — its
// rules asked `A.Type`, `A.isPlated()` and `A.Pad_Type` and set annular_width and hole_to_hole,
// which the engine could not read, so every net was held back (rule_not_supported). With a rule
// file of that kind beside bench board BB-PWR-8009, the engine routes every connection, and
// kicad-cli 9.0.8 and 10.0.7 find no error on the routed board that the bare one lacks.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCopper } from '../../../engine/board/added-copper.ts';
import { runDrc } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import { addCopper } from '../../../engine/kicad/write-board.ts';
import { routeDesign } from '../../../engine/route/index.ts';
import { benchBoards } from '../../support/bench.ts';
import { kicadDrc } from '../../support/kicad-drc.ts';
import { kicads } from '../../support/kicad.ts';
import { FAB_DRU as DRU } from '../../support/fab-rules.ts';

const NAME = 'BB-PWR-8009_BB-PWR-8009_revA';

const bench = benchBoards().find((b) => b.name === NAME)!;
const project = readFileSync(bench.pro, 'utf8');
const bare = readFileSync(bench.bare, 'utf8');
const design = loadDesign({ board: bare, boardName: bench.bare, project, projectName: bench.pro, dru: DRU, druName: 'b.kicad_dru' });
const result = routeDesign(design);

describe('a fab template rule file beside a bench board', () => {
  it('reads every rule but the silkscreen one, and holds no net back', () => {
    expect(design.warnings.filter((w) => w.source === 'b.kicad_dru').map((w) => w.message)).toEqual([
      'rule "Silkscreen off pads": constraint silk_clearance is not supported and is ignored',
    ]);
    expect(result.open.map((c) => c.stuck?.reason)).toEqual([]);
    expect(result.summary.open).toBe(0);
    expect(result.tracks.length).toBeGreaterThan(0);
  });

  it('the router keeps the rules: vias ringed and drilled as asked, tracks as wide, the engine’s DRC clean', () => {
    for (const v of result.vias) {
      expect(v.drill).toBeGreaterThanOrEqual(300_000);
      expect(v.size - v.drill).toBeGreaterThanOrEqual(2 * 150_000);
    }
    for (const t of result.tracks) expect(t.width).toBeGreaterThanOrEqual(150_000);
    const after = runDrc({ ...design, board: withCopper(design.board, result.tracks, result.vias) });
    expect(after.errors).toEqual({});
    expect(after.unconnected).toBe(0);
  });

  describe.each(kicads().map((k) => [k.version, k] as const))('judged by kicad-cli %s', (_v, k) => {
    it('no error the bare board lacks, nothing left unconnected', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tm-fab-'));
      const write = (name: string, text: string) => {
        const f = { board: join(dir, `${name}.kicad_pcb`), pro: join(dir, `${name}.kicad_pro`), dru: join(dir, `${name}.kicad_dru`) };
        writeFileSync(f.board, text);
        writeFileSync(f.pro, project);
        writeFileSync(f.dru, DRU);
        return f;
      };
      const before = await kicadDrc(k, write('bare', bare));
      const after = await kicadDrc(k, write('routed', addCopper(design.board, result.tracks, result.vias)));
      const errors = Object.entries(after.counts).filter(([key, n]) => key.endsWith(':error') && n > (before.counts[key] ?? 0));
      expect(errors).toEqual([]);
      expect(before.unconnected).toBeGreaterThan(0);
      expect(after.unconnected).toBe(0);
    }, 120_000);
  });
});
