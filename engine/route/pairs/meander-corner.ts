// A meander's rounded corner: where two straight runs meet at a right angle, the quarter arc of
// radius r that leaves the first r before the corner and joins the second r after it, in a run's
// own frame (s along the run, up across it). Single-net meanders (tune-length.ts) and pair
// meanders (pair-meander.ts) both draw their corners with it.

/** A point or a unit direction in a run's frame. */
export interface FramePoint {
  s: number;
  up: number;
}

/** The quarter arc at corner `k` turning from direction `d1` to `d2`: its ends and its middle. */
export function quarterArc(k: FramePoint, d1: FramePoint, d2: FramePoint, r: number): { from: FramePoint; mid: FramePoint; to: FramePoint } {
  const from = { s: k.s - d1.s * r, up: k.up - d1.up * r };
  const to = { s: k.s + d2.s * r, up: k.up + d2.up * r };
  // The centre is r from both runs; the middle lies on the corner's diagonal, r from the centre.
  const o = { s: from.s + d2.s * r, up: from.up + d2.up * r };
  return { from, mid: { s: o.s + ((d1.s - d2.s) * r) / Math.SQRT2, up: o.up + ((d1.up - d2.up) * r) / Math.SQRT2 }, to };
}
