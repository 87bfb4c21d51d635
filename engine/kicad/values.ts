// Typed access to s-expression values with located errors: numbers in millimetres become
// integer nanometres here (KiCad rounds half away from zero), and every failure names the
// file, line and column of the offending token.

import type { Diagnostic, Pt } from '../board/model.ts';
import { CoordinateRangeError, MAX_COORD_NM, mmText, mmToNm } from '../geom/units.ts';
import { atomAt, child, type SList, type SNode, SourceMap } from './sexpr.ts';

export class ReadContext {
  readonly map: SourceMap;
  readonly warnings: Diagnostic[] = [];

  constructor(
    text: string,
    readonly source = '',
  ) {
    this.map = new SourceMap(text, source);
  }

  error(node: SNode | number, reason: string): Error {
    return this.map.error(typeof node === 'number' ? node : node.start, reason);
  }

  warn(node: SNode | number, message: string): void {
    const { line, column } = this.map.position(typeof node === 'number' ? node : node.start);
    this.warnings.push({ severity: 'warning', message, source: this.source, line, column });
  }

  /** The k-th argument of a list as a finite number. */
  num(list: SList, k: number, what = head(list)): number {
    const node = list.items[k];
    if (!node || node.kind !== 'atom') throw this.error(node ?? list, `(${what}) expects a number as argument ${k}`);
    const v = Number(node.text);
    if (!Number.isFinite(v)) throw this.error(node, `(${what}) expects a number, got "${node.text}"`);
    return v;
  }

  /** The k-th argument in millimetres, as integer nanometres. */
  nm(list: SList, k: number, what = head(list)): number {
    const mm = this.num(list, k, what);
    try {
      return mmToNm(mm);
    } catch (e) {
      if (e instanceof CoordinateRangeError) throw this.error(list.items[k], `(${what}) value ${mm} mm is outside ±${mmText(MAX_COORD_NM, 0)}`);
      throw e;
    }
  }

  /** `(name x y …)` → point in nm. */
  pt(list: SList): Pt {
    return { x: this.nm(list, 1), y: this.nm(list, 2) };
  }

  /** A required child list. */
  need(list: SList, name: string, owner = head(list)): SList {
    const c = child(list, name);
    if (!c) throw this.error(list, `(${owner}) has no (${name})`);
    return c;
  }

  /** The string argument of a child, e.g. `(layer "F.Cu")` → "F.Cu". */
  str(list: SList, name: string): string | undefined {
    const c = child(list, name);
    return c ? atomAt(c, 1) : undefined;
  }

  /** Optional numeric child in mm → nm. */
  optNm(list: SList, name: string): number | undefined {
    const c = child(list, name);
    return c && c.items.length > 1 ? this.nm(c, 1) : undefined;
  }

  optNum(list: SList, name: string): number | undefined {
    const c = child(list, name);
    return c && c.items.length > 1 ? this.num(c, 1) : undefined;
  }
}

function head(list: SList): string {
  return atomAt(list, 0) ?? '';
}

/**
 * A yes/no flag in any of the spellings KiCad 6–9 wrote: `(locked yes)`, `(locked)`, or a bare
 * `locked` atom in the parent.
 */
export function flag(list: SList, name: string): boolean {
  for (let k = 1; k < list.items.length; k++) {
    const it = list.items[k];
    if (it.kind === 'atom') {
      if (!it.quoted && it.text === name) return true;
    } else if (atomAt(it, 0) === name) {
      const v = atomAt(it, 1);
      return v === undefined || v === 'yes' || v === 'true';
    }
  }
  return false;
}
