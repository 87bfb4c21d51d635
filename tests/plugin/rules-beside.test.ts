// A routed board carries its rules: `route --out` writes the input's .kicad_pro and .kicad_dru
// beside the output where none is there (never over one), and `drc` and `info` on a board with no
// .kicad_pro beside it say so first, since KiCad's defaults then decide.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tracemaker } from './cli.ts';

const ASSETS = join(import.meta.dirname, '..', '..', 'assets');
const dir = mkdtempSync(join(tmpdir(), 'tmk-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DRU = '(version 1)\n(rule "wide"\n  (constraint track_width (min 0.2mm)))\n';

describe('rules beside a board', () => {
  it("route --out writes the board's rules beside the output, and never over rules already there", () => {
    copyFileSync(join(ASSETS, 'demo.kicad_pcb'), join(dir, 'in.kicad_pcb'));
    copyFileSync(join(ASSETS, 'demo.kicad_pro'), join(dir, 'in.kicad_pro'));
    writeFileSync(join(dir, 'in.kicad_dru'), DRU);
    const out = join(dir, 'routed-out.kicad_pcb');
    const r = tracemaker(['route', join(dir, 'in.kicad_pcb'), '--out', out, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).rules_written).toEqual([join(dir, 'routed-out.kicad_pro'), join(dir, 'routed-out.kicad_dru')]);
    expect(readFileSync(join(dir, 'routed-out.kicad_pro'), 'utf8')).toBe(readFileSync(join(ASSETS, 'demo.kicad_pro'), 'utf8'));
    expect(readFileSync(join(dir, 'routed-out.kicad_dru'), 'utf8')).toBe(DRU);
    // The output now judges with the board's rules: no note.
    expect(tracemaker(['drc', out]).stdout.split('\n')[0]).toBe(out);
    writeFileSync(join(dir, 'routed-out.kicad_pro'), '{}');
    const again = tracemaker(['route', join(dir, 'in.kicad_pcb'), '--out', out, '--json']);
    expect(JSON.parse(again.stdout).rules_written).toEqual([]);
    expect(readFileSync(join(dir, 'routed-out.kicad_pro'), 'utf8')).toBe('{}');
  });

  it('drc and info say first that a board has no .kicad_pro beside it', () => {
    const lone = join(dir, 'lone.kicad_pcb');
    copyFileSync(join(ASSETS, 'demo.kicad_pcb'), lone);
    expect(existsSync(join(dir, 'lone.kicad_pro'))).toBe(false);
    const note = `note: no .kicad_pro beside ${lone}: KiCad's default rules are used`;
    expect(tracemaker(['drc', lone]).stdout.split('\n')[0]).toBe(note);
    expect(tracemaker(['info', lone]).stdout.split('\n')[0]).toBe(note);
    expect(JSON.parse(tracemaker(['drc', lone, '--json']).stdout).rules).toMatch(/no \.kicad_pro/);
    expect(JSON.parse(tracemaker(['info', lone, '--json']).stdout).rules).toMatch(/no \.kicad_pro/);
    expect(JSON.parse(tracemaker(['info', join(ASSETS, 'demo.kicad_pcb'), '--json']).stdout).rules).toBeUndefined();
  });
});
