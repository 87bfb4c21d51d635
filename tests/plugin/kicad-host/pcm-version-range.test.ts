// The package's KiCad range, by KiCad's PCM rule (kicad/pcm/pcm.cpp: the lowest with missing parts as 0,
// the highest with missing parts as 999): metadata.json installs on 9.0, 10.0, KiCad 11's development
// builds (10.99) and 11, and never on 8, whose KiCad has no IPC API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pcmAdmits, SUPPORTED_KICAD } from '../../../plugin/kicad-host/pcm-package.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const meta = JSON.parse(readFileSync(join(root, 'metadata.json'), 'utf8')) as { versions: { kicad_version: string; kicad_version_max?: string }[] };

describe("the package's KiCad range", () => {
  it('admits every supported KiCad, 11 and its development builds included, and not KiCad 8', () => {
    for (const k of SUPPORTED_KICAD) expect(pcmAdmits(meta.versions[0], k), k).toBe(true);
    expect(pcmAdmits(meta.versions[0], '8.0.9')).toBe(false);
    expect(pcmAdmits(meta.versions[0], '8.99.0')).toBe(false);
  });

  it("follows PCM's rule: a missing part of the lowest is 0, of the highest 999", () => {
    expect(pcmAdmits({ kicad_version: '9.0' }, '9.0.0')).toBe(true);
    expect(pcmAdmits({ kicad_version: '9.0.1' }, '9.0.0')).toBe(false);
    expect(pcmAdmits({ kicad_version: '9.0', kicad_version_max: '10.0' }, '10.0.7')).toBe(true);
    // A maximum of 10.0 takes 10.0.x only: KiCad 11's development builds and 11 itself are hidden.
    expect(pcmAdmits({ kicad_version: '9.0', kicad_version_max: '10.0' }, '10.99.0')).toBe(false);
    expect(pcmAdmits({ kicad_version: '9.0', kicad_version_max: '10' }, '10.99.0')).toBe(true);
    expect(pcmAdmits({ kicad_version: '9.0', kicad_version_max: '10' }, '11.0.0')).toBe(false);
  });
});
