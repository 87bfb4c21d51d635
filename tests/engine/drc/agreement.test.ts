// The engine's DRC against `kicad-cli pcb drc`, once per KiCad version under test, on every bench
// board (bare and routed) in that version's own format and on faulty copies made from those files:
// per board and per "type:severity" the counts must be equal, and the unconnected count too. Known
// disagreements are listed with their cause and the versions they occur in (known-mismatches.json)
// and checked exactly, so a change either way is noticed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { agreementCases, compare, engineDrc, type Mismatch } from '../../support/drc-agreement.ts';
import { kicadDrc, type KicadDrc } from '../../support/kicad-drc.ts';
import { kicads } from '../../support/kicad.ts';

interface Known extends Mismatch {
  /** The KiCad major versions whose kicad-cli disagrees so. */
  versions: number[];
  cause: string;
}

const known: Known[] = JSON.parse(readFileSync(join(import.meta.dirname, 'known-mismatches.json'), 'utf8'));

describe.each(kicads().map((k) => [k.version, k] as const))('DRC agrees with kicad-cli %s', (_version, k) => {
  const cases = agreementCases(k);
  const kicad = new Map<string, KicadDrc>();

  beforeAll(async () => {
    await Promise.all(cases.map(async (c) => kicad.set(c.name, await kicadDrc(k, c))));
  }, 1_200_000);

  it('every known mismatch of this version is a case of it', () => {
    const names = new Set(cases.map((c) => c.name));
    expect(known.filter((m) => m.versions.includes(k.major) && !names.has(m.case)).map((m) => m.case)).toEqual([]);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (name, c) => {
    expect(kicad.get(name)!.version).toBe(k.version);
    const got = compare(name, kicad.get(name)!, engineDrc(c)).map(({ key, kicad, engine }) => ({ key, kicad, engine }));
    const expected = known.filter((m) => m.case === name && m.versions.includes(k.major)).map(({ key, kicad, engine }) => ({ key, kicad, engine }));
    expect(got).toEqual(expected);
  });
});
