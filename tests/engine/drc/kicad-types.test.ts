// The audit of KiCad's DRC types (engine/drc/kicad-audit.json) against each KiCad version under
// test: its types are exactly the ones that version's pcbnew writes into a new project (one
// severity per type) plus the ones it reports without a setting, with the same default
// severities; the engine checks exactly the types marked modelled; nothing added copper could
// cause is left unmodelled at error level.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newCopperCanBreak } from '../../../engine/board/rules.ts';
import { VIOLATION_TYPES } from '../../../engine/drc/violation.ts';
import { parseDru } from '../../../engine/kicad/read-dru.ts';
import { generateBoard } from '../../../engine/kicad/generate-board.ts';
import { defaultSeverity, kicadAudit } from '../../support/kicad-audit.ts';
import { kicads } from '../../support/kicad.ts';

const ORACLE = join(import.meta.dirname, '..', '..', 'oracle', 'pcbnew_rule_types.py');
const ROOT = join(import.meta.dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'tm-types-'));
// A board alone in its folder: pcbnew finds no project and writes its own defaults.
const board = join(dir, 'board.kicad_pcb');
writeFileSync(board, generateBoard({ nets: 2, padsPerNet: 2, layers: 2, width: 20, height: 20, seed: 1 }).board);
const audit = kicadAudit();

describe('the DRC audit table', () => {
  it('lists each type once, with what the engine does about it', () => {
    expect(new Set(audit.map((e) => e.type)).size).toBe(audit.length);
    for (const e of audit) {
      const said = { modelled: e.check, guarded: e.constraint, prevented: e.how, not_from_copper: e.why, not_modelled: e.when }[e.status];
      expect(said, `${e.type}: a ${e.status} type says ${e.status === 'modelled' ? 'which file checks it' : 'why'}`).toBeTruthy();
      if (e.check) expect(existsSync(join(ROOT, e.check)), `${e.type}: ${e.check}`).toBe(true);
    }
  });

  it('marks modelled exactly the types the engine checks (and the ratsnest)', () => {
    const modelled = audit
      .filter((e) => e.status === 'modelled')
      .map((e) => e.type)
      .sort();
    expect(modelled).toEqual([...VIOLATION_TYPES, 'unconnected_items'].sort());
  });

  it('guards each guarded type by its constraint: a rule setting it holds its nets back from the router', () => {
    for (const e of audit.filter((x) => x.status === 'guarded')) {
      expect(newCopperCanBreak(e.constraint!), e.type).toBe(true);
      const { rules } = parseDru(`(version 1)\n(rule "r" (condition "A.NetName == 'N'") (constraint ${e.constraint} (max 1mm)))\n`);
      expect(rules[0]?.unmodelled, e.type).toEqual([e.constraint]);
    }
  });

  it('leaves unmodelled only types that are not errors unless a project raises them', () => {
    expect(audit.filter((e) => e.status === 'not_modelled' && e.kicad.some((m) => defaultSeverity(e, m) === 'error')).map((e) => e.type)).toEqual([]);
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('DRC types of KiCad %s', (_version, k) => {
  const out = join(dir, `kicad${k.major}`);
  mkdirSync(out);
  const { severities } = JSON.parse(
    execFileSync(k.python, [ORACLE, board, out], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
      .split('\n')
      .pop()!,
  ) as { severities: Record<string, string> };
  const known = audit.filter((e) => e.kicad.includes(k.major));

  it('are the audit table\u2019s, with the same default severities', () => {
    expect(Object.keys(severities).sort()).toEqual(
      known
        .filter((e) => !e.reportedOnly)
        .map((e) => e.type)
        .sort(),
    );
    for (const e of known) if (!e.reportedOnly) expect(severities[e.type], e.type).toBe(defaultSeverity(e, k.major));
  });
});
