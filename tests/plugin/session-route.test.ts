// A session's `route` over all nets with the defaults writes what the router's own entry point
// and the board writer give on the same board (what `tracemaker route` writes).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeDesign } from '../../engine/route/index.ts';
import { addCopper } from '../../engine/kicad/write-board.ts';
import { loadDesignFile } from '../../plugin/design-files.ts';
import { openSession } from '../../plugin/session-host.ts';
import { benchBoards } from '../support/bench.ts';

describe('session route equals the router', () => {
  it('writes the same bytes as routeDesign + addCopper with the defaults', async () => {
    const b = benchBoards().find((x) => x.name === 'Blink-Eras_AVR_ISP_Pogo')!;
    const out = join(mkdtempSync(join(tmpdir(), 'tm-')), 'o.kicad_pcb');
    const { session } = openSession({ board: b.bare, out, diagnostics: () => undefined });
    const r = (await session.call('route', {})) as Record<string, unknown>;
    expect(r.committed).toBe(true);
    await session.call('save', {});
    const design = loadDesignFile(b.bare);
    const direct = routeDesign(design, {});
    expect(readFileSync(out, 'utf8')).toBe(addCopper(design.board, direct.tracks, direct.vias));
  });
});
