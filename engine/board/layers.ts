// Copper layer names and masks. KiCad names copper layers F.Cu, In1.Cu … In30.Cu, B.Cu; file
// ids differ between format versions, so layers are matched by name and numbered by stack order.

import type { CopperLayer, LayerMask } from './model.ts';

const INNER = /^In(\d+)\.Cu$/;

/** Stack rank of a canonical copper name (F.Cu 0, In1 1 … B.Cu 31), or -1 for non-copper. */
export function copperRank(name: string): number {
  if (name === 'F.Cu') return 0;
  if (name === 'B.Cu') return 31;
  const m = INNER.exec(name);
  if (m) {
    const k = Number(m[1]);
    if (k >= 1 && k <= 30) return k;
  }
  return -1;
}

/** Looks layer names up on one board's copper stack. */
export class LayerResolver {
  readonly byName = new Map<string, number>();
  readonly count: number;
  readonly all: LayerMask;

  constructor(readonly layers: CopperLayer[]) {
    for (const l of layers) {
      this.byName.set(l.name, l.index);
      if (l.userName) this.byName.set(l.userName, l.index);
    }
    this.count = layers.length;
    this.all = this.count >= 32 ? 0xffffffff >>> 0 : ((1 << this.count) - 1) >>> 0;
  }

  /** Index of a copper layer by name, or -1 (not copper, or not enabled on this board). */
  index(name: string): number {
    return this.byName.get(name) ?? -1;
  }

  /**
   * Mask of copper layers named by a layer list as pads and zones write it: `*.Cu`, `F&B.Cu`,
   * `F.Cu`, `In2.Cu` …; names of non-copper layers are ignored. Unknown copper names are
   * reported through `unknown`.
   */
  mask(names: readonly string[], unknown?: (name: string) => void): LayerMask {
    let m = 0;
    for (const name of names) {
      if (name === '*.Cu') m |= this.all;
      else if (name === 'F&B.Cu') {
        m |= 1;
        if (this.count > 1) m |= 1 << (this.count - 1);
      } else if (copperRank(name) >= 0) {
        const i = this.index(name);
        if (i >= 0) m |= 1 << i;
        else unknown?.(name);
      }
    }
    return m >>> 0;
  }

  name(index: number): string {
    return this.layers[index]?.name ?? `Cu${index}`;
  }
}

/** Layer indices in a mask, ascending. */
export function maskLayers(mask: LayerMask): number[] {
  const out: number[] = [];
  for (let i = 0; i < 32; i++) if ((mask >>> i) & 1) out.push(i);
  return out;
}
