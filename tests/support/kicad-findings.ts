// kicad-cli's own DRC findings of a board written out with its project and rules, in the judging
// KiCad's own format (KiCad 10 upgrades the file first, as the engine follows the KiCad that wrote
// it: kicad-version.ts): each finding's type and text, for word-for-word comparison with the engine.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kicad } from './kicad.ts';

export interface Finding {
  type: string;
  description: string;
}

/** The findings of the given types, and the board text KiCad judged. */
export function kicadFindings(
  kicad: Kicad,
  files: { board: string; project: string; dru: string },
  types: readonly string[],
): { findings: Finding[]; board: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tm-findings-'));
  const file = join(dir, 'b.kicad_pcb');
  writeFileSync(file, files.board);
  writeFileSync(join(dir, 'b.kicad_pro'), files.project);
  writeFileSync(join(dir, 'b.kicad_dru'), files.dru);
  if (kicad.major >= 10) execFileSync(kicad.cli, ['pcb', 'upgrade', '--force', file], { stdio: 'ignore' });
  execFileSync(kicad.cli, ['pcb', 'drc', '--format', 'json', '--severity-all', '-o', join(dir, 'd.json'), file], { stdio: 'ignore' });
  const report = JSON.parse(readFileSync(join(dir, 'd.json'), 'utf8')) as { violations: Finding[] };
  return {
    findings: report.violations.filter((v) => types.includes(v.type)).map(({ type, description }) => ({ type, description })),
    board: readFileSync(file, 'utf8'),
  };
}
