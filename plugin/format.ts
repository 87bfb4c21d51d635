// Millimetre text for people and JSON at the edges; the engine speaks nanometres.

import { nmToMm } from '../engine/geom/units.ts';

/** nm → mm text without trailing zeros. */
export function nmToMmText(nm: number): string {
  return String(nmToMm(nm));
}
