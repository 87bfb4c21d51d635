// The render tool: picks the region (a box, a net's extent, or a pad's neighbourhood), the
// layers and the marked nets, has engine/render draw the SVG, and answers it as text or, through
// the session's rasteriser port, as a PNG; both with the picture's scale, the router's grid step
// and the legend's colours, so an agent can read lengths off what it sees.

import type { Pt } from '../board/model.ts';
import { type Box, widenToAspect } from '../render/frame.ts';
import { MARKS, renderPicture } from '../render/svg.ts';
import { ToolError } from './errors.ts';
import type { End } from './ratsnest.ts';
import { mmToNm, nmToMm } from '../geom/units.ts';
import type { BoxMm, RenderResult } from './results.ts';
import type { ToolArgs } from './schemas.ts';
import type { SessionState } from './session-state.ts';
import { boardGridStep } from './router-host.ts';
import { currentOpen } from './tools-look.ts';

const PAD_FRAME = 3_000_000;

/** Bytes as base64 (a PNG's, for JSON). */
function base64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

export async function render(s: SessionState, a: ToolArgs<'render'>): Promise<RenderResult> {
  const { board } = s.design;
  const st = s.states.current;
  const net = a.net !== undefined ? s.names.net('render', 'net', a.net) : undefined;
  const pad = a.pad !== undefined ? s.names.pad('render', 'pad', a.pad) : undefined;
  const layers = a.layers ? a.layers.map((l) => s.names.layer('render', 'layers', l)) : board.copperLayers.map((l) => l.index);
  if (a.format === 'png' && !s.ports.rasterise)
    throw new ToolError('not_supported', 'render: format "png" needs a rasteriser this session was started without; use format "svg"');
  const open = currentOpen(s);
  const where = (e: End): Pt => {
    if ('pad' in e) return board.pads[e.pad].at;
    const z = board.zones[e.zone];
    const o = z.outline[0]?.outline[0];
    return o ?? { x: 0, y: 0 };
  };
  const pts: Pt[] = [];
  let box: Box | undefined;
  if (a.box_mm) {
    const [x1, y1, x2, y2] = a.box_mm.map(mmToNm);
    box = { minX: Math.min(x1, x2), minY: Math.min(y1, y2), maxX: Math.max(x1, x2), maxY: Math.max(y1, y2) };
  } else if (pad !== undefined) {
    const p = board.pads[pad].at;
    box = { minX: p.x - PAD_FRAME, minY: p.y - PAD_FRAME, maxX: p.x + PAD_FRAME, maxY: p.y + PAD_FRAME };
  } else if (net !== undefined) {
    for (const p of board.pads) if (p.net === net) pts.push(p.at);
    for (const t of st.copper.tracks) if (t.net === net) pts.push(t.start, t.end);
  } else {
    for (const p of board.pads) pts.push(p.at);
    for (const o of board.outline)
      if (o.shape.kind === 'line') pts.push(o.shape.a, o.shape.b);
      else if (o.shape.kind === 'rect') pts.push(o.shape.a, o.shape.b);
  }
  if (!box) {
    if (pts.length === 0) pts.push({ x: 0, y: 0 });
    box = {
      minX: Math.min(...pts.map((p) => p.x)) - 1_000_000,
      minY: Math.min(...pts.map((p) => p.y)) - 1_000_000,
      maxX: Math.max(...pts.map((p) => p.x)) + 1_000_000,
      maxY: Math.max(...pts.map((p) => p.y)) + 1_000_000,
    };
  }
  // A sliver of a region (a net along one row of pads) would be a picture a few pixels high.
  box = widenToAspect(box);
  // A stuck connection ending on the pad shows its blockers.
  const blockers = new Set<number>();
  if (pad !== undefined) {
    for (const [key, r] of st.note?.reasons ?? []) {
      const [, pa, pb] = key.split('|').map(Number);
      if (pa === pad || pb === pad) for (const b of r.blockers) blockers.add(b.net);
    }
  }
  const pic = renderPicture({
    board,
    tracks: st.copper.tracks,
    vias: st.copper.vias,
    box,
    layers,
    ratsnest: open.filter((c) => net === undefined || c.net === net).map((c) => ({ a: where(c.a), b: where(c.b) })),
    highlight: net !== undefined ? new Set([net]) : pad !== undefined ? new Set([board.pads[pad].net]) : undefined,
    blockers,
    labels: a.labels,
  });
  const meta = {
    width_px: pic.frame.widthPx,
    height_px: pic.frame.heightPx,
    px_per_mm: Math.round(pic.frame.pxPerMm * 1000) / 1000,
    scale_bar_mm: nmToMm(pic.frame.scaleBar),
    grid_pitch_mm: nmToMm(boardGridStep(s.design)),
    labelled_nets: pic.labels.length,
    legend: { layers: pic.layers, ...MARKS },
  };
  const head = { state: st.id, box_mm: [nmToMm(box.minX), nmToMm(box.minY), nmToMm(box.maxX), nmToMm(box.maxY)] satisfies BoxMm };
  if (a.format === 'png') {
    const png = await s.ports.rasterise!(pic.svg);
    return { ...head, mime: 'image/png', png_base64: base64(png), ...meta };
  }
  return { ...head, mime: 'image/svg+xml', svg: pic.svg, ...meta };
}
