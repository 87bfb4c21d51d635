// Which via a layer change becomes. A through via spans the whole stack; where the project allows
// blind/buried vias a change between layers a and b drills only a..b, and where it allows
// micro-vias a change between an outer layer and its neighbour is a laser micro-via, smaller still.

import type { ViaType } from './host.ts';
import type { Profile } from './profile.ts';

export interface ViaSpan {
  type: ViaType;
  /** Copper layers joined, top to bottom (from < to). */
  from: number;
  to: number;
  diameter: number;
  drill: number;
}

/** The via joining layers a and b (either order) of a stack of `layers` copper layers. */
export function viaFor(prof: Profile, a: number, b: number, layers: number): ViaSpan {
  const from = Math.min(a, b);
  const to = Math.max(a, b);
  if (from > 0 || to < layers - 1) {
    // Micro-vias join an outer layer to the next one only: one laser-drilled dielectric.
    if (prof.micro && to === from + 1 && (from === 0 || to === layers - 1))
      return { type: 'micro', from, to, diameter: prof.micro.diameter, drill: prof.micro.drill };
    if (prof.blindBuried) return { type: 'blind', from, to, diameter: prof.viaDiameter, drill: prof.viaDrill };
  }
  return { type: 'through', from: 0, to: layers - 1, diameter: prof.viaDiameter, drill: prof.viaDrill };
}

/** The via a path's layer change becomes: viaFor's, at the change's own size where it has one
 *  (a micro-via keeps its class's). */
export function viaOf(prof: Profile, v: { from: number; to: number; size?: { diameter: number; drill: number } }, layers: number): ViaSpan {
  const k = viaFor(prof, v.from, v.to, layers);
  return v.size && k.type !== 'micro' ? { ...k, diameter: v.size.diameter, drill: v.size.drill } : k;
}

/** Whether a profile can place any via other than a through one. */
export function hasPartialVias(prof: Profile, layers: number): boolean {
  return layers > 2 && (prof.blindBuried === true || prof.micro !== undefined);
}

/** Bit mask of the layers a span's copper lies on. */
export function spanMask(from: number, to: number): number {
  let m = 0;
  for (let l = from; l <= to; l++) m |= 1 << l;
  return m >>> 0;
}

/** The layers each layer change occupies, as a table [a * layers + b] of masks. */
export function spanTable(prof: Profile, layers: number): Uint32Array {
  const t = new Uint32Array(layers * layers);
  for (let a = 0; a < layers; a++) {
    for (let b = 0; b < layers; b++) {
      if (a === b) continue;
      const v = viaFor(prof, a, b, layers);
      t[a * layers + b] = spanMask(v.from, v.to);
    }
  }
  return t;
}
