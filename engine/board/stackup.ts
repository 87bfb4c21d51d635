// How far apart two copper layers are through the board, as KiCad counts a via's length for
// length and skew rules: from the board's stack-up, or from the one KiCad builds when the file
// has none. KiCad 9.0 and 10.0 count differently (measured with kicad-cli on both; see
// tests/engine/drc/net-length.test.ts), so the caller says which KiCad judges.

import type { Board } from './model.ts';

/** KiCad's default copper and solder mask thickness, nm, where the file gives none. */
const COPPER = 35_000;
const MASK = 10_000;

/** One copper layer or dielectric between copper layers, top to bottom, nm. */
interface Slab {
  copper: number; // copper layer index, or -1 for a dielectric
  thickness: number;
}

/** The copper layers and dielectrics of the board from top to bottom. */
function slabs(board: Board): Slab[] {
  const n = board.copperLayers.length;
  const byName = new Map(board.copperLayers.map((l) => [l.name, l.index]));
  const out: Slab[] = [];
  for (const l of board.stackup) {
    const cu = byName.get(l.name);
    if (cu !== undefined) out.push({ copper: cu, thickness: l.thickness ?? COPPER });
    else if (l.type === 'core' || l.type === 'prepreg' || l.name.startsWith('dielectric')) out.push({ copper: -1, thickness: l.thickness ?? 0 });
  }
  if (out.some((s) => s.copper >= 0)) return out;
  // KiCad's default stack-up: 35 µm copper, the dielectrics sharing what copper and the two
  // masks leave of the board's thickness.
  const dielectric = Math.round((board.thickness - n * COPPER - 2 * MASK) / Math.max(1, n - 1));
  for (let i = 0; i < n; i++) {
    if (i > 0) out.push({ copper: -1, thickness: dielectric });
    out.push({ copper: i, thickness: COPPER });
  }
  return out;
}

/**
 * The length KiCad gives a via joining copper layers `a` and `b` (indices, either order), nm.
 * KiCad 10 counts everything between the two layers, an outer copper layer at an end in full
 * and an inner one by half. KiCad 9.0 counts only a via from the top layer to the bottom one,
 * half of each of them and all between; a span with an inner layer at an end counts 0.
 */
export function viaSpanLength(board: Board, a: number, b: number, kicad10: boolean): number {
  if (a === b) return 0;
  const top = Math.min(a, b);
  const bottom = Math.max(a, b);
  const last = board.copperLayers.length - 1;
  if (!kicad10 && (top !== 0 || bottom !== last)) return 0;
  let total = 0;
  let inside = false;
  for (const s of slabs(board)) {
    const end = s.copper === top || s.copper === bottom;
    if (s.copper === top) inside = true;
    if (!inside) continue;
    const outer = s.copper === 0 || s.copper === last;
    total += end ? (kicad10 && outer ? s.thickness : Math.trunc(s.thickness / 2)) : s.thickness;
    if (s.copper === bottom) break;
  }
  return total;
}
