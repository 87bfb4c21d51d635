// A track of a differential pair as the coupling checks read it: a straight track or, with `mid`,
// an arc by its three points. The straight-track check (pair-coupling.ts) and the arc check
// (pair-arcs.ts) both take it.

export interface PairTrack {
  start: { x: number; y: number };
  end: { x: number; y: number };
  mid?: { x: number; y: number };
  width: number;
  layer: number;
}
