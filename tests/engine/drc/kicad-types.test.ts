// The DRC types each KiCad version knows, as its pcbnew writes them into a new project (one
// severity per type), pinned: a type a KiCad release adds, renames or drops is noticed here, and
// every type the engine checks must still exist under its name. Run per KiCad version under test.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VIOLATION_TYPES } from '../../../engine/drc/violation.ts';
import { generateBoard } from '../../../engine/kicad/generate-board.ts';
import { KICAD10_ADDED_DRC_TYPES, KICAD9_DRC_TYPES } from '../../support/drc-agreement.ts';
import { kicads } from '../../support/kicad.ts';

const ORACLE = join(import.meta.dirname, '..', '..', 'oracle', 'pcbnew_rule_types.py');
const dir = mkdtempSync(join(tmpdir(), 'tm-types-'));
// A board alone in its folder: pcbnew finds no project and writes its own defaults.
const board = join(dir, 'board.kicad_pcb');
writeFileSync(board, generateBoard({ nets: 2, padsPerNet: 2, layers: 2, width: 20, height: 20, seed: 1 }).board);

/** The engine's checks that KiCad reports but writes no severity for in a project (KiCad 9 and 10
 *  leave via_diameter out of the list of types a project can set). */
const REPORTED_ONLY = new Set(['via_diameter']);

describe.each(kicads().map((k) => [k.version, k] as const))('DRC types of KiCad %s', (_version, k) => {
  const out = join(dir, `kicad${k.major}`);
  mkdirSync(out);
  const { severities } = JSON.parse(
    execFileSync(k.python, [ORACLE, board, out], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n').pop()!,
  ) as { severities: Record<string, string> };

  it('are KiCad 9\u2019s, plus the ones KiCad 10 added', () => {
    const expected = [...KICAD9_DRC_TYPES, ...(k.major >= 10 ? Object.keys(KICAD10_ADDED_DRC_TYPES) : [])].sort();
    expect(Object.keys(severities).sort()).toEqual(expected);
  });

  it('include every type the engine checks, under the same name', () => {
    expect(VIOLATION_TYPES.filter((t) => !REPORTED_ONLY.has(t) && !(t in severities))).toEqual([]);
  });
});
