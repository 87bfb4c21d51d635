// Millimetre text for people and JSON at the edges; the engine speaks nanometres.

/** nm → mm as a number rounded to the nanometre (for JSON). */
export function nmToMm(nm: number): number {
  return Math.round(nm) / 1e6;
}

/** nm → mm text without trailing zeros. */
export function nmToMmText(nm: number): string {
  return String(nmToMm(nm));
}
