// The geometry one net class routes with: track widths, via sizes and the class's clearance, in
// nm. Every part of the router that sizes copper reads it; it is its own module so the via rules
// (via-span.ts) and the rasterizer (obstacle-map.ts) can both use it without importing each other.

/** The geometry a net class routes with, nm. */
export interface Profile {
  key: string;
  /** A net of the class, to ask the rules with. */
  net: number;
  width: number[];
  viaDiameter: number;
  viaDrill: number;
  /** The class's own clearance to an unconnected item (rules.clearance(net, 0)). */
  clearance: number;
  /** Whether the project allows blind and buried vias (see via-span.ts). */
  blindBuried?: boolean;
  /** The class's micro-via, where the project allows micro-vias. */
  micro?: { diameter: number; drill: number };
}
