// A pad joined to its net's zone by thermal spokes keeps other nets further off, so the refill has
// room for the spokes, but only on the layers that zone fills: on kicad-demo_flat_hierarchy the
// GND pour is on B.Cu alone, and the person's DATA-RB7 track passes U2's GND pin on F.Cu at the
// board's own clearance.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDesign } from '../../../../engine/kicad/load.ts';
import { Checker } from '../../../../engine/route/core/checker.ts';
import { padClearance } from '../../../../engine/route/core/host.ts';
import { hostFromDesign } from '../../../../engine/route/design/host-from-design.ts';
import { routeVariant } from '../../../../engine/route/index.ts';
import { BENCH } from '../../../support/bench.ts';

const NAME = 'kicad-demo_flat_hierarchy';
const base = join(BENCH, 'C', NAME, NAME);
const design = loadDesign({
  board: readFileSync(`${base}.kicad_pcb`, 'utf8'),
  boardName: `${base}.kicad_pcb`,
  project: readFileSync(`${base}.kicad_pro`, 'utf8'),
  projectName: `${base}.kicad_pro`,
});
const host = hostFromDesign(design);
const pad = (ref: string, number: string) => host.pads.find((p) => p.ref === ref && p.number === number)!;
const [F, B] = [0, host.layerCount - 1];
const nm = (mm: number) => Math.round(mm * 1e6);
/** The person's DATA-RB7 track from U2.12 over the pins to R12.2 (kicad-demo_flat_hierarchy.ref). */
const PERSON = [
  [120.65, 111.76],
  [120.65, 109.855],
  [121.285, 109.22],
  [132.715, 109.22],
  [135.255, 111.76],
].map(([x, y]) => [nm(x), nm(y)]);

describe('room for thermal spokes, on the zone’s layers only', () => {
  it('raises a GND pin’s clearance on B.Cu, where the pour is, and not on F.Cu', () => {
    const gnd = pad('U2', '13');
    expect(host.netNames[gnd.net]).toBe('GND');
    expect(gnd.throughHole).toBe(true);
    expect(gnd.spokes?.layers).toBe(1 << B);
    expect(padClearance(gnd, F)).toBe(gnd.clearance);
    expect(padClearance(gnd, B)).toBeGreaterThan(1_000_000);
  });

  it('lets the person’s F.Cu track pass the GND pin, and keeps it off on B.Cu', () => {
    const checker = new Checker(host, true);
    const net = pad('U2', '12').net;
    const hits = (layer: number) => PERSON.slice(1).map((q, i) => checker.track(net, layer, PERSON[i][0], PERSON[i][1], q[0], q[1], 400_000)?.net ?? 0);
    expect(hits(F)).toEqual([0, 0, 0, 0]);
    expect(hits(B)).toContain(pad('U2', '13').net);
  });

  it('routes U2.12–R12.2 off the grid on F.Cu past the pins', () => {
    const [a, b] = [pad('U2', '12'), pad('R12', '2')];
    const r = routeVariant(design, { connection: { net: a.net, from: a.index, to: b.index }, gridless: 'layer', work: 40_000_000 }, 0);
    expect(r.summary.routed).toBe(1);
    expect(r.tracks.length).toBeGreaterThan(0);
    expect(r.tracks.every((t) => t.layer === F)).toBe(true);
    expect(r.vias).toEqual([]);
  });
});
