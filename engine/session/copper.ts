// Session copper: the tracks and vias a session added to the board, in nm, in the order they
// were made (which is the order they are written). Its digest is taken in a canonical order so
// that two states with the same copper have the same digest however it was reached.

import { trackLength } from '../geom/arc.ts';
import type { NewTrack, NewVia } from '../board/added-copper.ts';
import { fnv1a64 } from './digest.ts';

export interface SessionCopper {
  readonly tracks: readonly NewTrack[];
  readonly vias: readonly NewVia[];
}

export const NO_COPPER: SessionCopper = Object.freeze({ tracks: Object.freeze([]), vias: Object.freeze([]) });

function trackKey(t: NewTrack): string {
  const mid = t.mid ? `${t.mid.x},${t.mid.y}` : '-';
  return `T ${t.net} ${t.layer} ${t.width} ${t.start.x},${t.start.y} ${mid} ${t.end.x},${t.end.y}`;
}

function viaKey(v: NewVia): string {
  return `V ${v.net} ${v.layerFrom}-${v.layerTo} ${v.size}/${v.drill} ${v.type ?? 'through'} ${v.at.x},${v.at.y}`;
}

// Plain code-unit comparison: locale-free, so the order is the same everywhere.
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The copper as sorted lines, one item a line: the canonical form the digest hashes. */
export function canonicalCopper(c: SessionCopper): string {
  const lines = [...c.tracks.map(trackKey), ...c.vias.map(viaKey)].sort(byText);
  return lines.join('\n');
}

/** FNV-1a 64 of the canonical copper, 16 hex digits. */
export function copperDigest(c: SessionCopper): string {
  return fnv1a64(canonicalCopper(c));
}

/** Copper with `add` appended (the router's new items after the state's own). */
export function appendCopper(c: SessionCopper, add: SessionCopper): SessionCopper {
  if (add.tracks.length === 0 && add.vias.length === 0) return c;
  return Object.freeze({ tracks: Object.freeze([...c.tracks, ...add.tracks]), vias: Object.freeze([...c.vias, ...add.vias]) });
}

/** Copper without the items of `net`. */
export function withoutNet(c: SessionCopper, net: number): SessionCopper {
  return Object.freeze({ tracks: Object.freeze(c.tracks.filter((t) => t.net !== net)), vias: Object.freeze(c.vias.filter((v) => v.net !== net)) });
}

export function copperLength(c: SessionCopper, net?: number): number {
  let s = 0;
  for (const t of c.tracks) if (net === undefined || t.net === net) s += trackLength(t);
  return s;
}
