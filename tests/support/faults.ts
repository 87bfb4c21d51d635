// Faulty copies of bench boards for the DRC agreement tests, made deterministically from the
// board model: each fault adds copper (through the board writer) or edits the text or the rules,
// in the board's own dialect (KiCad 9's net codes, KiCad 10's net names).
// Copies go to a temp folder with a .kicad_pro whose routing checks are all set to error, so
// KiCad reports what the fault breaks even where the bench profile would ignore it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Board, Pad, Pt } from '../../engine/board/model.ts';
import { loadDesign, type Design } from '../../engine/kicad/load.ts';
import { addCopper, formatMm, netArgument, type NewTrack, type NewVia } from '../../engine/kicad/write-board.ts';
import { VIOLATION_TYPES } from '../../engine/drc/violation.ts';

export type FaultKind =
  | 'foreign-pad'
  | 'edge-cross'
  | 'via-on-hole'
  | 'dangling-stub'
  | 'thin-track'
  | 'crossing'
  | 'keepout'
  | 'dru-tight'
  | 'disabled-layer'
  | 'bad-via'
  | 'strict';

export const FAULT_KINDS: readonly FaultKind[] = ['foreign-pad', 'edge-cross', 'via-on-hole', 'dangling-stub', 'thin-track', 'crossing', 'keepout', 'dru-tight', 'disabled-layer', 'bad-via', 'strict'];

/** The routing-relevant checks a strict copy sets to error: every type the engine checks. */
export const STRICT_TYPES: readonly string[] = VIOLATION_TYPES;

export interface FaultyBoard {
  name: string;
  board: string;
  pro: string;
  dru?: string;
}

export interface Source {
  name: string;
  board: string;
  pro: string;
}

function strictProject(proText: string): string {
  const pro = JSON.parse(proText);
  const sev = (pro.board ??= {}).design_settings ??= {};
  sev.rule_severities ??= {};
  for (const t of STRICT_TYPES) sev.rule_severities[t] = 'error';
  return JSON.stringify(pro, null, 2);
}

function outlineBox(board: Board): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const take = (p: Pt) => {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  };
  for (const o of board.outline) {
    const s = o.shape;
    if (s.kind === 'line') (take(s.a), take(s.b));
    else if (s.kind === 'arc') (take(s.start), take(s.mid), take(s.end));
    else if (s.kind === 'rect') (take(s.a), take(s.b));
    else if (s.kind === 'circle') (take({ x: s.center.x - s.radius, y: s.center.y - s.radius }), take({ x: s.center.x + s.radius, y: s.center.y + s.radius }));
    else if (s.kind === 'poly' || s.kind === 'curve') s.pts.forEach(take);
  }
  if (minX === Infinity) for (const p of board.pads) take(p.at);
  return { minX, minY, maxX, maxY };
}

function firstLayer(mask: number): number {
  return mask === 0 ? -1 : 31 - Math.clz32(mask & -mask);
}

function netted(board: Board): Pad[] {
  return board.pads.filter((p) => p.net > 0 && p.layers !== 0);
}

// A pad and the nearest pad of another net sharing a copper layer with it (middle of the list, so
// faults do not all land in one corner).
function foreignPair(board: Board): [Pad, Pad, number] | null {
  const pads = netted(board);
  for (let k = 0; k < pads.length; k++) {
    const a = pads[(k + (pads.length >> 1)) % pads.length];
    let best: Pad | null = null;
    let bd = Infinity;
    for (const b of pads) {
      if (b.net === a.net || (a.layers & b.layers) === 0) continue;
      const d = Math.hypot(a.at.x - b.at.x, a.at.y - b.at.y);
      if (d < bd) ((bd = d), (best = b));
    }
    if (best) return [a, best, firstLayer(a.layers & best.layers)];
  }
  return null;
}

function width(design: Design, net: number, layer: number): number {
  return design.rules.trackWidth(net, layer);
}

function track(design: Design, a: Pt, b: Pt, layer: number, net: number, w?: number): NewTrack {
  return { start: a, end: b, layer, net, width: w ?? width(design, net, layer) };
}

/** The faulty board text and rules for one kind, or null when the board has nothing to break. */
export function makeFault(design: Design, kind: FaultKind): { text: string; dru?: string } | null {
  const board = design.board;
  const box = outlineBox(board);
  const cx = Math.round((box.minX + box.maxX) / 2);
  const cy = Math.round((box.minY + box.maxY) / 2);
  const add = (tracks: NewTrack[], vias: NewVia[] = []) => ({ text: addCopper(board, tracks, vias) });
  switch (kind) {
    case 'foreign-pad': {
      const pair = foreignPair(board);
      if (!pair) return null;
      const [a, b, layer] = pair;
      return add([track(design, a.at, b.at, layer, a.net)]);
    }
    case 'edge-cross': {
      const pads = netted(board);
      if (!pads.length) return null;
      // From the pad nearest the right edge, out through the edge by 2 mm.
      let p = pads[0];
      for (const q of pads) if (q.at.x > p.at.x) p = q;
      return add([track(design, p.at, { x: box.maxX + 2_000_000, y: p.at.y }, firstLayer(p.layers), p.net)]);
    }
    case 'via-on-hole': {
      const holes = board.pads.filter((p) => p.drill && p.drill.w > 0);
      if (!holes.length) return null;
      const h = holes[holes.length >> 1];
      const other = board.nets.find((n) => n.code > 0 && n.code !== h.net);
      if (!other) return null;
      const v = design.rules.via(other.code);
      return add([], [{ at: h.at, size: v.diameter, drill: v.drill, layerFrom: 0, layerTo: board.copperLayers.length - 1, net: other.code }]);
    }
    case 'dangling-stub': {
      const pads = netted(board);
      if (!pads.length) return null;
      const p = pads[pads.length >> 2];
      return add([track(design, p.at, { x: p.at.x, y: p.at.y - 3_000_000 }, firstLayer(p.layers), p.net)]);
    }
    case 'thin-track': {
      const pads = netted(board);
      if (!pads.length) return null;
      const p = pads[(3 * pads.length) >> 2];
      const layer = firstLayer(p.layers);
      const w = Math.max(10_000, Math.round(design.rules.minTrackWidth(p.net, layer) / 2));
      return add([track(design, p.at, { x: p.at.x - 2_000_000, y: p.at.y }, layer, p.net, Math.max(10_000, w - (w % 1000)))]);
    }
    case 'crossing': {
      const nets = board.nets.filter((n) => n.code > 0);
      if (nets.length < 2) return null;
      const [n1, n2] = [nets[0].code, nets[1].code];
      const d = 1_500_000;
      return add([
        track(design, { x: cx - d, y: cy - d }, { x: cx + d, y: cy + d }, 0, n1),
        track(design, { x: cx - d, y: cy + d }, { x: cx + d, y: cy - d }, 0, n2),
      ]);
    }
    case 'keepout': {
      // A rule area forbidding tracks and vias over the board's middle quarter on every copper layer.
      const w = Math.round((box.maxX - box.minX) / 4);
      const h = Math.round((box.maxY - box.minY) / 4);
      const pts = [
        [cx - w, cy - h],
        [cx + w, cy - h],
        [cx + w, cy + h],
        [cx - w, cy + h],
      ]
        .map(([x, y]) => `(xy ${formatMm(x)} ${formatMm(y)})`)
        .join(' ');
      // A zone of no net: KiCad 9 says so with net 0, KiCad 10 by writing no net at all.
      const net = board.dialect === 'net-names' ? '' : '(net 0) (net_name "") ';
      const zone = `\t(zone ${net}(layers "*.Cu") (uuid "7d1e6c2a-0000-4000-8000-00000000fa17") (name "tm-keepout") (hatch edge 0.5)\n\t\t(connect_pads (clearance 0)) (min_thickness 0.25)\n\t\t(keepout (tracks not_allowed) (vias not_allowed) (pads allowed) (copperpour allowed) (footprints allowed))\n\t\t(fill (thermal_gap 0.5) (thermal_bridge_width 0.5))\n\t\t(polygon (pts ${pts}))\n\t)\n`;
      const end = board.text.lastIndexOf(')');
      return { text: board.text.slice(0, end) + zone + board.text.slice(end) };
    }
    case 'dru-tight':
      return {
        text: board.text,
        dru: '(version 1)\n(rule "tm_tight"\n\t(constraint clearance (min 0.4mm)))\n',
      };
    case 'disabled-layer': {
      // A 2 mm track from a pad on an inner layer the board does not enable (In5.Cu unless the
      // board has more than six copper layers). The writer knows only enabled layers, so the
      // segment is spliced in as text.
      const pads = netted(board);
      if (!pads.length) return null;
      const p = pads[pads.length >> 1];
      const layer = board.copperLayers.length <= 6 ? 'In5.Cu' : 'In29.Cu';
      const w = width(design, p.net, firstLayer(p.layers));
      const seg = `\t(segment (start ${formatMm(p.at.x)} ${formatMm(p.at.y)}) (end ${formatMm(p.at.x + 2_000_000)} ${formatMm(p.at.y)}) (width ${formatMm(w)}) (layer "${layer}") (net ${netArgument(board, p.net)}) (uuid "7d1e6c2a-0000-4000-8000-00000000d15a"))\n`;
      const end = board.text.lastIndexOf(')');
      return { text: board.text.slice(0, end) + seg + board.text.slice(end) };
    }
    case 'bad-via': {
      // A via too small in every way (0.35 mm across a 0.25 mm hole) at the board's middle, so the
      // via_diameter, annular_width and drill_out_of_range checks have something to find.
      const net = board.nets.find((n) => n.code > 0);
      if (!net) return null;
      return add([], [{ at: { x: cx + 250_000, y: cy + 250_000 }, size: 350_000, drill: 250_000, layerFrom: 0, layerTo: board.copperLayers.length - 1, net: net.code }]);
    }
    case 'strict':
      return { text: board.text };
  }
}

/** Writes the faulty copy of `src` for `kind` into `dir`; null when the fault does not apply. */
export function writeFault(src: Source, kind: FaultKind, dir: string): FaultyBoard | null {
  const proText = readFileSync(src.pro, 'utf8');
  const design = loadDesign({ board: readFileSync(src.board, 'utf8'), boardName: src.board, project: proText, projectName: src.pro });
  const f = makeFault(design, kind);
  if (!f) return null;
  const name = `${src.name}~${kind}`;
  const sub = join(dir, name);
  mkdirSync(sub, { recursive: true });
  const board = join(sub, 'board.kicad_pcb');
  const pro = join(sub, 'board.kicad_pro');
  writeFileSync(board, f.text);
  writeFileSync(pro, strictProject(proText));
  let dru: string | undefined;
  if (f.dru !== undefined) writeFileSync((dru = join(sub, 'board.kicad_dru')), f.dru);
  return { name, board, pro, dru };
}
