// The command line on a board KiCad 10 saved (tests/fixtures/kicad10: the demo board after
// `kicad-cli pcb upgrade` 10.0.7, so nets are named, `(net "N3")`, with no net table): info, route
// and drc work, and the route adds copper in KiCad 10's own dialect and changes no other byte.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBoard } from '../../engine/kicad/read-board.ts';
import { tracemaker } from './cli.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'kicad10');
const dir = mkdtempSync(join(tmpdir(), 'tmk-k10-'));
const board = join(dir, 'demo.kicad_pcb');
copyFileSync(join(FIXTURE, 'demo.kicad_pcb'), board);
copyFileSync(join(FIXTURE, 'demo.kicad_pro'), join(dir, 'demo.kicad_pro'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the command line on a KiCad 10 board', () => {
  it('info names the format and counts what the KiCad 9 original holds', () => {
    const r = tracemaker(['info', board, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.format).toBe('KiCad 10');
    expect(info.version).toBe(20260206);
    const original = JSON.parse(tracemaker(['info', join(import.meta.dirname, '..', '..', 'assets', 'demo.kicad_pcb'), '--json']).stdout);
    expect(original.format).toBe('KiCad 6-9');
    expect(info.counts).toEqual(original.counts);
    expect(info.counts.nets).toBeGreaterThan(20);
    expect(info.net_classes).toEqual(original.net_classes);
  });

  it('routes every connection, writing named nets and keeping every other byte', () => {
    const out = join(dir, 'routed.kicad_pcb');
    const r = tracemaker(['route', board, '--out', out, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.open).toBe(0);
    expect(summary.tracks).toBeGreaterThan(50);

    const input = readFileSync(board, 'utf8');
    const output = readFileSync(out, 'utf8');
    // The added block sits before the final closing parenthesis; all else is the input's bytes.
    const tail = input.lastIndexOf(')');
    const head = input.slice(0, tail).replace(/\s+$/, '');
    expect(output.startsWith(head)).toBe(true);
    expect(output.endsWith(input.slice(head.length))).toBe(true);
    const added = output.slice(head.length, output.length - (input.length - head.length));
    const nets = [...added.matchAll(/\(net ([^)]*)\)/g)].map((m) => m[1]);
    expect(nets.length).toBe(summary.tracks + summary.vias);
    const before = parseBoard(input);
    for (const n of nets) {
      expect(n).toMatch(/^"/);
      expect(before.netByName.has(JSON.parse(n))).toBe(true);
    }

    const after = parseBoard(output, { source: out });
    expect(after.dialect).toBe('net-names');
    expect(after.tracks.length).toBe(before.tracks.length + summary.tracks);
    expect(after.vias.length).toBe(before.vias.length + summary.vias);
    expect(after.nets.map((n) => n.name).sort()).toEqual(before.nets.map((n) => n.name).sort());

    const drc = tracemaker(['drc', out, '--json']);
    expect(drc.code).toBe(0);
    expect(JSON.parse(drc.stdout)).toMatchObject({ violations: {}, unconnected_items: 0 });
  });

  it('says where a KiCad 10 net reference is malformed', () => {
    const bad = join(dir, 'bad.kicad_pcb');
    const text = readFileSync(board, 'utf8');
    const at = text.indexOf('(net "');
    writeFileSync(bad, text.slice(0, at) + '(net (x))' + text.slice(text.indexOf(')', at) + 1));
    const line = text.slice(0, at).split('\n').length;
    const column = at - text.lastIndexOf('\n', at - 1);
    const r = tracemaker(['info', bad]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`bad.kicad_pcb:${line}:${column + 5}`);
    expect(r.stderr).toContain('expects a net name');
  });
});
