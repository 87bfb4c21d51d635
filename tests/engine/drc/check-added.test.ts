// checkAdded judges only pairs that involve the new copper, and finds there what a full DRC run
// of the board with that copper finds: the router and the session refuse a route on its word.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkAdded, runDrc, type DrcReport } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import type { Design } from '../../../engine/board/design.ts';
import { benchBoards } from '../../support/bench.ts';
import { makeFault, type FaultKind } from '../../support/faults.ts';

function load(text: string, pro: string): Design {
  return loadDesign({ board: text, boardName: 'b.kicad_pcb', project: pro, projectName: 'b.kicad_pro' });
}

// Findings as comparable rows: type, severity, position and the new items named.
function rows(r: DrcReport, isNew: (kind: string, index: number) => boolean): string[] {
  return r.violations
    .filter((v) => v.items.some((i) => isNew(i.kind, i.index)))
    .map((v) => `${v.type}:${v.severity}@${v.pos.x},${v.pos.y}`)
    .sort();
}

const src = benchBoards().find((b) => b.tier === 'A' && b.name === 'Blink-Eras_AVR_ISP_Pogo')!;
const pro = readFileSync(src.pro, 'utf8');
const base = load(readFileSync(src.ref, 'utf8'), pro);

describe('checkAdded', () => {
  it.each<FaultKind>(['foreign-pad', 'crossing', 'thin-track', 'edge-cross', 'via-on-hole'])('finds what a full run finds for %s copper', (kind) => {
    const faulty = load(makeFault(base, kind)!.text, pro);
    const t0 = base.board.tracks.length;
    const v0 = base.board.vias.length;
    const tracks = faulty.board.tracks.slice(t0).map(({ index: _, ...t }) => t);
    const vias = faulty.board.vias.slice(v0).map(({ index: _, ...v }) => v);
    expect(tracks.length + vias.length).toBeGreaterThan(0);
    const isNew = (k: string, i: number) => (k === 'track' && i >= t0) || (k === 'via' && i >= v0);
    const added = checkAdded(base, tracks, vias);
    const full = runDrc(faulty);
    // A via dropped on a pad of another net, touching nothing else, takes the pad's net in KiCad
    // (net propagation): kicad-cli finds nothing on Blink-Eras, and neither may the engine.
    if (kind === 'via-on-hole') expect(rows(full, isNew)).toEqual([]);
    else expect(rows(full, isNew).length).toBeGreaterThan(0);
    expect(rows(added, isNew)).toEqual(rows(full, isNew));
    expect(added.unconnected).toBe(full.unconnected);
  });

  it('reports nothing about pairs of the board\u2019s own copper', () => {
    // The reference board has findings of its own (dangling ends, warnings); none may appear.
    const faulty = load(makeFault(base, 'thin-track')!.text, pro);
    const t0 = base.board.tracks.length;
    const tracks = faulty.board.tracks.slice(t0).map(({ index: _, ...t }) => t);
    const added = checkAdded(base, tracks, []);
    for (const v of added.violations) expect(v.items.some((i) => i.kind === 'track' && i.index >= t0)).toBe(true);
    expect(added.errors.track_width).toBe(1);
  });
});
