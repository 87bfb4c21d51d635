// Faulty copies of bench boards for the DRC agreement tests, made deterministically from the
// board model: each fault adds copper (through the board writer) or edits the text or the rules,
// in the board's own dialect (KiCad 9's net codes, KiCad 10's net names).
// Copies go to a temp folder with a .kicad_pro whose routing checks are all set to error, so
// KiCad reports what the fault breaks even where the bench profile would ignore it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Board, Pad, Pt } from '../../engine/board/model.ts';
import { loadDesign } from '../../engine/kicad/load.ts';
import type { Design } from '../../engine/board/design.ts';
import { parseSexpr } from '../../engine/kicad/sexpr.ts';
import { addCopper, formatMm, netArgument } from '../../engine/kicad/write-board.ts';
import type { NewTrack, NewVia } from '../../engine/board/added-copper.ts';
import { VIOLATION_TYPES } from '../../engine/drc/violation.ts';
import { graphicShape } from '../../engine/drc/item-shapes.ts';
import { bbox } from '../../engine/geom/shapes.ts';

export type FaultKind =
  | 'foreign-pad'
  | 'edge-cross'
  | 'via-on-hole'
  | 'dangling-stub'
  | 'thin-track'
  | 'crossing'
  | 'keepout'
  | 'dru-tight'
  | 'length-rules'
  | 'pair-rules'
  | 'disabled-layer'
  | 'bad-via'
  | 'npth-cross'
  | 'widened'
  | 'text-cross'
  | 'mask-bridge'
  | 'strict';

export const FAULT_KINDS: readonly FaultKind[] = [
  'foreign-pad',
  'edge-cross',
  'via-on-hole',
  'dangling-stub',
  'thin-track',
  'crossing',
  'keepout',
  'dru-tight',
  'length-rules',
  'pair-rules',
  'disabled-layer',
  'bad-via',
  'npth-cross',
  'widened',
  'text-cross',
  'mask-bridge',
  'strict',
];

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
  const sev = ((pro.board ??= {}).design_settings ??= {});
  sev.rule_severities ??= {};
  for (const t of STRICT_TYPES) sev.rule_severities[t] = 'error';
  return JSON.stringify(pro, null, 2);
}

function outlineBox(board: Board): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  const take = (p: Pt) => {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  };
  for (const o of board.outline) {
    const s = o.shape;
    if (s.kind === 'line' || s.kind === 'rect') [s.a, s.b].forEach(take);
    else if (s.kind === 'arc') [s.start, s.mid, s.end].forEach(take);
    else if (s.kind === 'circle')
      [
        { x: s.center.x - s.radius, y: s.center.y - s.radius },
        { x: s.center.x + s.radius, y: s.center.y + s.radius },
      ].forEach(take);
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
      if (d < bd) {
        bd = d;
        best = b;
      }
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
    case 'length-rules':
      // Every net's length, skew and via count under rules set so that some nets of a routed
      // board break them and some do not; a later rule on one layer takes that layer's tracks
      // (KiCad groups a net's items per rule), and pairs are matched within themselves.
      return {
        text: board.text,
        dru: [
          '(version 1)',
          '(rule "tm_length"\n\t(condition "A.NetName != \'\'")\n\t(constraint length (min 4mm) (max 30mm)))',
          '(rule "tm_back_length"\n\t(layer "B.Cu")\n\t(condition "A.NetClass == \'Default\'")\n\t(constraint length (max 6mm)))',
          '(rule "tm_vias"\n\t(condition "A.NetName != \'\'")\n\t(constraint via_count (max 1)))',
          '(rule "tm_skew"\n\t(condition "A.NetClass == \'Default\'")\n\t(constraint skew (max 20mm)))',
          '(rule "tm_pair_skew"\n\t(condition "A.inDiffPair(\'*\')")\n\t(constraint skew (max 0.5mm) (within_diff_pairs)))',
          '',
        ].join('\n'),
      };
    case 'pair-rules':
      // Every differential pair's gap and uncoupled length, the gap bounds tight enough that a
      // person's coupled stretches fall on both sides of them; a second rule takes the uncoupled
      // length of the Default class's pairs alone.
      return {
        text: board.text,
        dru: [
          '(version 1)',
          '(rule "tm_pair_gap"\n\t(condition "A.inDiffPair(\'*\')")\n\t(constraint diff_pair_gap (min 0.15mm) (max 0.2mm))\n\t(constraint diff_pair_uncoupled (max 15mm)))',
          '(rule "tm_default_pairs"\n\t(condition "A.inDiffPair(\'*\') && A.NetClass == \'Default\'")\n\t(constraint diff_pair_uncoupled (max 5mm)))',
          '',
        ].join('\n'),
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
      return add(
        [],
        [{ at: { x: cx + 250_000, y: cy + 250_000 }, size: 350_000, drill: 250_000, layerFrom: 0, layerTo: board.copperLayers.length - 1, net: net.code }],
      );
    }
    case 'mask-bridge': {
      // A mask opening (a filled circle on F.Mask) over a front pad and beside it a short track of
      // another net, both exposed: KiCad's solder_mask_bridge. The pad is one with nothing else
      // near, so the opening shows only these two.
      const front = netted(board).filter((p) => (p.maskSides ?? 0) & 1 && p.layers & 1);
      const other = (p: Pad) => board.pads.find((q) => q.net > 0 && q.net !== p.net);
      for (let k = 0; k < front.length; k++) {
        const p = front[(k + (front.length >> 1)) % front.length];
        const q = other(p);
        if (!q) continue;
        const half = Math.max(p.size.w, p.size.h) / 2;
        const w = width(design, q.net, 0);
        const gap = design.rules.clearance({ net: p.net, layer: 0 }, { net: q.net, layer: 0 });
        const r0 = Math.round(half + gap + w + 200_000);
        const radius = r0 + w + 500_000;
        const reach = radius + 500_000;
        const far = (x: number, y: number, r: number) => Math.hypot(x - p.at.x, y - p.at.y) > reach + r;
        if (!board.pads.every((o) => o === p || far(o.at.x, o.at.y, Math.max(o.size.w, o.size.h) / 2 + Math.hypot(o.offset.x, o.offset.y)))) continue;
        if (!board.vias.every((v) => far(v.at.x, v.at.y, v.size / 2))) continue;
        const off = (t: { start: Pt; end: Pt; width: number }) => {
          const dx = t.end.x - t.start.x,
            dy = t.end.y - t.start.y;
          const u = dx || dy ? Math.max(0, Math.min(1, ((p.at.x - t.start.x) * dx + (p.at.y - t.start.y) * dy) / (dx * dx + dy * dy))) : 0;
          return far(t.start.x + u * dx, t.start.y + u * dy, t.width / 2);
        };
        if (
          !board.tracks.every((t) => (t.kind === 'segment' ? off(t) : off({ ...t, start: t.start, end: t.start }) && off({ ...t, start: t.end, end: t.end })))
        )
          continue;
        // Copper graphics and text (KiCad 9 counts text under an opening as copper of no net).
        const clear = board.graphics.every((g) => {
          const sh = graphicShape(g.shape);
          if (g.layer !== 0 || !sh) return true;
          const b = bbox(sh);
          return b.minX > p.at.x + reach || b.maxX < p.at.x - reach || b.minY > p.at.y + reach || b.maxY < p.at.y - reach;
        });
        if (!clear) continue;
        const c = `\t(gr_circle (center ${formatMm(p.at.x)} ${formatMm(p.at.y)}) (end ${formatMm(p.at.x + radius)} ${formatMm(p.at.y)}) (stroke (width 0) (type solid)) (fill yes) (layer "F.Mask") (uuid "7d1e6c2a-0000-4000-8000-0000000a5c01"))\n`;
        const text = addCopper(board, [track(design, { x: p.at.x + r0, y: p.at.y }, { x: p.at.x + r0, y: p.at.y + 300_000 }, 0, q.net)], []);
        const end = text.lastIndexOf(')');
        return { text: text.slice(0, end) + c + text.slice(end) };
      }
      return null;
    }
    case 'npth-cross': {
      // A track of some net straight across the middle non-plated hole, on the first layer.
      const holes = board.pads.filter((p) => p.type === 'np_thru_hole' && p.drill && p.drill.w > 0);
      if (!holes.length) return null;
      const h = holes[holes.length >> 1];
      const net = board.nets.find((n) => n.code > 0);
      if (!net) return null;
      const reach = Math.max(h.drill!.w, h.drill!.h);
      return add([track(design, { x: h.at.x - reach, y: h.at.y }, { x: h.at.x + reach, y: h.at.y }, 0, net.code)]);
    }
    case 'widened': {
      // Every seventh straight track three times as wide, in the file's own text: the shorts and
      // clearance findings this makes come in clusters, which is where KiCad's counting rules
      // (one finding per track, which pair wins) show.
      const segs = board.tracks.filter((t) => t.kind === 'segment');
      if (segs.length < 7) return null;
      let text = board.text;
      for (const t of segs.filter((_, k) => k % 7 === 6).sort((a, b) => b.src - a.src)) {
        const end = t.src + parseSexpr(text.slice(t.src)).end;
        const block = text.slice(t.src, end).replace(/\(width [0-9.]+\)/, `(width ${formatMm(3 * t.width)})`);
        text = text.slice(0, t.src) + block + text.slice(end);
      }
      return { text };
    }
    case 'text-cross': {
      // A track of some net straight across the widest copper text, through the middle of the box
      // that holds its glyphs; fields, which KiCad's DRC passes by, are left alone (boards without
      // copper text have no such fault).
      const texts = board.graphics.filter((g) => g.text && !g.text.knockout && !g.text.field);
      if (!texts.length) return null;
      const wide = (g: (typeof texts)[number]) => g.text!.box.maxX - g.text!.box.minX;
      const g = texts.reduce((a, b) => (wide(b) > wide(a) ? b : a));
      const net = board.nets.find((n) => n.code > 0);
      if (!net) return null;
      const { minX, minY, maxX, maxY } = g.text!.box;
      const y = Math.round((minY + maxY) / 2);
      const inset = Math.round((maxX - minX) * 0.15);
      return add([track(design, { x: minX + inset, y }, { x: maxX - inset, y }, g.layer, net.code)]);
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
