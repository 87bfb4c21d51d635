// Pins KiCad 9's net propagation as kicad-cli 9.0.8 shows it on faulty bench copies: tracks and
// vias take the net of the pads their copper group touches (zone fills take no part), a group
// with pads of two nets keeps its nets, a group with no pad takes its first item's net, and
// such stray copper is a ratsnest node of its own.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { connect, effectiveNets, UnionFind } from '../../../engine/drc/connectivity.ts';
import { CopperItems, type CopperItem } from '../../../engine/drc/copper-items.ts';
import { runDrc } from '../../../engine/drc/drc.ts';
import { loadDesign } from '../../../engine/kicad/load.ts';
import type { Design } from '../../../engine/board/design.ts';
import { circle } from '../../../engine/geom/shapes.ts';
import { benchBoards } from '../../support/bench.ts';
import { makeFault, type FaultKind } from '../../support/faults.ts';

function bench(name: string): { base: Design; pro: string } {
  const b = benchBoards().find((x) => `${x.tier}/${x.name}` === name)!;
  const pro = readFileSync(b.pro, 'utf8');
  return { base: loadDesign({ board: readFileSync(b.ref, 'utf8'), boardName: 'b.kicad_pcb', project: pro, projectName: 'b.kicad_pro' }), pro };
}

function faulty(name: string, kind: FaultKind): { base: Design; design: Design } {
  const { base, pro } = bench(name);
  const design = loadDesign({ board: makeFault(base, kind)!.text, boardName: 'b.kicad_pcb', project: pro, projectName: 'b.kicad_pro' });
  return { base, design };
}

// The effective net names of the tracks (or vias) the fault added.
function addedNets(base: Design, design: Design, kind: 'track' | 'via'): string[] {
  const copper = new CopperItems(design.board, 0);
  const { nets } = connect(copper);
  const from = kind === 'track' ? base.board.tracks.length : base.board.vias.length;
  const ids = kind === 'track' ? copper.trackItem.slice(from) : copper.viaItem.slice(from);
  return ids.map((id) => design.board.nets[nets[id]].name);
}

function count(design: Design, type: string): number {
  return runDrc(design).violations.filter((v) => v.type === type).length;
}

describe('net propagation', () => {
  it('a via dropped on a lone pad of another net takes the pad\u2019s net: no short (Blink-Eras via-on-hole)', () => {
    const { base, design } = faulty('A/Blink-Eras_AVR_ISP_Pogo', 'via-on-hole');
    const hole = base.board.pads.filter((p) => p.drill && p.drill.w > 0);
    const pad = hole[hole.length >> 1];
    expect(design.board.vias.at(-1)!.net).not.toBe(pad.net);
    expect(addedNets(base, design, 'via')).toEqual([base.board.nets[pad.net].name]);
    expect(count(design, 'shorting_items')).toBe(0);
    expect(runDrc(design).unconnected).toBe(runDrc(base).unconnected);
  });

  it('crossing tracks on no pad take the first one\u2019s net and are a ratsnest node (kicad-demo_ecc83-pp crossing)', () => {
    const { base, design } = faulty('A/kicad-demo_ecc83-pp', 'crossing');
    expect(addedNets(base, design, 'track')).toEqual(['GND', 'GND']);
    expect(count(design, 'tracks_crossing')).toBe(0);
    expect(runDrc(design).unconnected).toBe(runDrc(base).unconnected + 1);
  });

  it('tracks lying in zone fills take the net of the track they cross, not the fills\u2019 (LibreSolar_bms-c1 crossing)', () => {
    const { base, design } = faulty('C/LibreSolar_bms-c1', 'crossing');
    expect(addedNets(base, design, 'track')).toEqual(['/Power Part/CHG_G', '/Power Part/CHG_G']);
    expect(count(design, 'tracks_crossing')).toBe(0);
  });

  it('a group touching pads of two nets keeps its nets: the shorts stay (kicad-demo_sonde-xilinx crossing)', () => {
    const { base, design } = faulty('B/kicad-demo_sonde-xilinx', 'crossing');
    expect(addedNets(base, design, 'track')).toEqual(['/CLK-D1', '/CTRL-D3']);
    expect(count(design, 'shorting_items')).toBe(2);
    expect(runDrc(design).unconnected).toBe(runDrc(base).unconnected + 2);
  });
});

describe('effectiveNets', () => {
  const item = (id: number, kind: CopperItem['kind'], net: number): CopperItem => ({
    id,
    kind,
    ref: id,
    net,
    layers: 1,
    shape: circle(0, 0, 1),
    hole: null,
    anchors: [],
    layer: -1,
    footprint: -1,
  });

  it('follows the pads, ignores net 0 pads, and leaves conflicting groups alone', () => {
    const items = [item(0, 'pad', 3), item(1, 'pad', 0), item(2, 'track', 5), item(3, 'via', 0), item(4, 'pad', 4), item(5, 'pad', 6), item(6, 'track', 4)];
    const g = new UnionFind(items.length);
    g.union(0, 2);
    g.union(1, 3);
    g.union(2, 3); // pads 3 and 0: one net
    g.union(4, 6);
    g.union(5, 6); // pads 4 and 6: conflicting
    expect([...effectiveNets(items, g)]).toEqual([3, 0, 3, 3, 4, 6, 4]);
  });
});
