// The engine's DRC against KiCad 9.0.8's `kicad-cli pcb drc` on every bench board (bare and
// routed) and on faulty copies: per board and per "type:severity" the counts must be equal, and
// the unconnected count too. Known disagreements are listed with their cause in
// known-mismatches.json and checked exactly, so a change either way is noticed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { agreementCases, compare, engineDrc, type Mismatch } from '../../support/drc-agreement.ts';
import { kicadDrc, type KicadDrc } from '../../support/kicad-drc.ts';

interface Known extends Mismatch {
  cause: string;
}

const known: Known[] = JSON.parse(readFileSync(join(import.meta.dirname, 'known-mismatches.json'), 'utf8'));
const cases = agreementCases();
const kicad = new Map<string, KicadDrc>();

describe('DRC agrees with kicad-cli', () => {
  beforeAll(async () => {
    await Promise.all(cases.map(async (c) => kicad.set(c.name, await kicadDrc(c))));
  }, 600_000);

  it.each(cases.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const got = compare(name, kicad.get(name)!, engineDrc(c)).map(({ key, kicad, engine }) => ({ key, kicad, engine }));
    const expected = known.filter((k) => k.case === name).map(({ key, kicad, engine }) => ({ key, kicad, engine }));
    expect(got).toEqual(expected);
  });
});
