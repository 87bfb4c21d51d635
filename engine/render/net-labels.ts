// Where a picture's net labels go: one per net that has track in view, on the longest visible
// piece of its track, moved along that piece (or to the next longest) so labels neither overlap
// each other nor leave the picture. Pure placement in nm; svg.ts draws them.

import type { Box } from './frame.ts';
import { textWidth, CAP_UNITS, DESCENT_UNITS } from './stroke-font.ts';

/** A track as the labeller sees it: a straight piece (an arc by its chord). */
export interface LabelTrack {
  net: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

export interface NetLabel {
  net: number;
  text: string;
  /** Top-left of the text's cap box, nm. */
  x: number;
  y: number;
  /** Cap height, nm. */
  height: number;
  /** The box the label covers with its halo, nm. */
  box: Box;
}

/** Longest label text; a longer name keeps its start and ends in "..". */
const MAX_CHARS = 24;
/** Pieces of a net's track tried, longest first, and where along each. */
const TRIED_PIECES = 3;
const ALONG = [0.5, 0.3, 0.7, 0.15, 0.85];

/** What a label shows of a net name: its last path part (as KiCad labels tracks), clipped. */
export function labelText(name: string): string {
  const short = name.slice(name.lastIndexOf('/') + 1) || name;
  return short.length > MAX_CHARS ? short.slice(0, MAX_CHARS - 2) + '..' : short;
}

/** The part of segment a–b inside `b` (Liang–Barsky), or undefined when none of it is. */
export function clipToBox(t: LabelTrack, box: Box): LabelTrack | undefined {
  let t0 = 0;
  let t1 = 1;
  const dx = t.bx - t.ax;
  const dy = t.by - t.ay;
  const edges: [number, number][] = [
    [-dx, t.ax - box.minX],
    [dx, box.maxX - t.ax],
    [-dy, t.ay - box.minY],
    [dy, box.maxY - t.ay],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return undefined;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return undefined;
  }
  return { net: t.net, ax: t.ax + t0 * dx, ay: t.ay + t0 * dy, bx: t.ax + t1 * dx, by: t.ay + t1 * dy };
}

function overlaps(a: Box, b: Box): boolean {
  return a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY;
}

/**
 * Labels for the nets of `tracks` in view of `view`: `height` is the cap height (nm) and `pad`
 * the halo around each label (nm); `avoid` holds boxes already drawn on (the legend, the scale
 * bar). Nets with more visible track are placed first (ties by net
 * code), so the order and the result depend on the input only. A net whose every try collides is
 * left without a label rather than drawn over another.
 */
export function placeNetLabels(
  tracks: readonly LabelTrack[],
  names: (net: number) => string,
  view: Box,
  height: number,
  pad: number,
  avoid: readonly Box[] = [],
): NetLabel[] {
  const byNet = new Map<number, { piece: LabelTrack; len: number }[]>();
  for (const t of tracks) {
    if (t.net <= 0) continue;
    const piece = clipToBox(t, view);
    if (!piece) continue;
    const len = Math.hypot(piece.bx - piece.ax, piece.by - piece.ay);
    let l = byNet.get(t.net);
    if (!l) byNet.set(t.net, (l = []));
    l.push({ piece, len });
  }
  const nets = [...byNet.entries()].map(([net, pieces]) => {
    pieces.sort((a, b) => b.len - a.len || a.piece.ax - b.piece.ax || a.piece.ay - b.piece.ay);
    return { net, pieces, total: pieces.reduce((s, p) => s + p.len, 0) };
  });
  nets.sort((a, b) => b.total - a.total || a.net - b.net);
  const descent = (height * DESCENT_UNITS) / CAP_UNITS;
  const placed: NetLabel[] = [];
  for (const n of nets) {
    const text = labelText(names(n.net));
    if (!text) continue;
    const w = textWidth(text, height);
    // The label must fit the picture with its halo; a picture too small for it gets none.
    if (w + 2 * pad > view.maxX - view.minX || height + descent + 2 * pad > view.maxY - view.minY) continue;
    found: for (const { piece } of n.pieces.slice(0, TRIED_PIECES)) {
      for (const f of ALONG) {
        const cx = piece.ax + f * (piece.bx - piece.ax);
        const cy = piece.ay + f * (piece.by - piece.ay);
        // Centred on the track, kept inside the picture.
        const x = Math.round(Math.min(Math.max(cx - w / 2, view.minX + pad), view.maxX - pad - w));
        const y = Math.round(Math.min(Math.max(cy - height / 2, view.minY + pad), view.maxY - pad - height - descent));
        const box = { minX: x - pad, minY: y - pad, maxX: x + w + pad, maxY: Math.round(y + height + descent + pad) };
        if (placed.some((p) => overlaps(p.box, box)) || avoid.some((a) => overlaps(a, box))) continue;
        placed.push({ net: n.net, text, x, y, height, box });
        break found;
      }
    }
  }
  return placed;
}
