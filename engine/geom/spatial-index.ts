// Box index over numbered items: a static Flatbush tree built once (items 0..n-1, boxes grown
// by a margin) plus a small mutable overlay for copper added later (the router's tentative
// work). Queries return ids in ascending order so callers iterate deterministically.
// Removing a static item only hides it; the tree is never rebuilt here.

import Flatbush from 'flatbush';
import type { Box } from './box.ts';

/** Static boxes plus an overlay of added ones; ids are non-negative integers. */
export class SpatialIndex {
  readonly #tree: Flatbush | undefined;
  readonly #staticCount: number;
  readonly #margin: number;
  #hidden: Uint8Array;
  #hiddenCount = 0;
  // Overlay: parallel arrays, ids[i] with box at 4i..4i+3; ids kept for O(1) lookup in #slot.
  #ids: number[] = [];
  #boxes = new Float64Array(64);
  #slot = new Map<number, number>();

  /**
   * Builds the static part from `boxes` (item i has id i), each grown by `margin` nm on every
   * side (typically the largest clearance, so a query with a shape's own box finds every item
   * that could be too close). Overlay items added later are grown by the same margin.
   */
  constructor(boxes: readonly Box[], margin = 0) {
    if (!(margin >= 0)) throw new RangeError(`SpatialIndex: margin must be ≥ 0 nm, got ${margin}`);
    this.#margin = margin;
    this.#staticCount = boxes.length;
    this.#hidden = new Uint8Array(boxes.length);
    if (boxes.length > 0) {
      const t = new Flatbush(boxes.length);
      for (const b of boxes) t.add(b.minX - margin, b.minY - margin, b.maxX + margin, b.maxY + margin);
      t.finish();
      this.#tree = t;
    }
  }

  /** Number of static items (ids 0..staticCount-1). */
  get staticCount(): number {
    return this.#staticCount;
  }

  /** Number of live items: static ones not hidden plus overlay ones. */
  get size(): number {
    return this.#staticCount - this.#hiddenCount + this.#ids.length;
  }

  /** True when id is a live (static and not hidden, or overlay) item. */
  has(id: number): boolean {
    if (this.#slot.has(id)) return true;
    return Number.isInteger(id) && id >= 0 && id < this.#staticCount && this.#hidden[id] === 0;
  }

  /** Adds an overlay item. The id must not be live already (a hidden static id may be reused:
   *  the overlay box then stands in for it). */
  add(id: number, box: Box): void {
    if (!Number.isInteger(id) || id < 0) throw new RangeError(`SpatialIndex.add: id must be a non-negative integer, got ${id}`);
    if (this.has(id)) throw new RangeError(`SpatialIndex.add: id ${id} is already in the index`);
    const i = this.#ids.length;
    if (4 * i + 4 > this.#boxes.length) {
      const grown = new Float64Array(this.#boxes.length * 2);
      grown.set(this.#boxes);
      this.#boxes = grown;
    }
    const m = this.#margin;
    this.#boxes[4 * i] = box.minX - m;
    this.#boxes[4 * i + 1] = box.minY - m;
    this.#boxes[4 * i + 2] = box.maxX + m;
    this.#boxes[4 * i + 3] = box.maxY + m;
    this.#ids.push(id);
    this.#slot.set(id, i);
  }

  /** Removes an overlay item, or hides a static one. Returns false when id was not live. */
  remove(id: number): boolean {
    const i = this.#slot.get(id);
    if (i !== undefined) {
      // Move the last overlay item into the freed slot.
      const last = this.#ids.length - 1;
      if (i !== last) {
        const lastId = this.#ids[last];
        this.#ids[i] = lastId;
        this.#boxes.copyWithin(4 * i, 4 * last, 4 * last + 4);
        this.#slot.set(lastId, i);
      }
      this.#ids.pop();
      this.#slot.delete(id);
      return true;
    }
    if (Number.isInteger(id) && id >= 0 && id < this.#staticCount && this.#hidden[id] === 0) {
      this.#hidden[id] = 1;
      this.#hiddenCount++;
      return true;
    }
    return false;
  }

  /** Shows a hidden static item again. Returns false when it was not hidden. */
  unhide(id: number): boolean {
    if (!Number.isInteger(id) || id < 0 || id >= this.#staticCount || this.#hidden[id] === 0) return false;
    if (this.#slot.has(id)) throw new RangeError(`SpatialIndex.unhide: id ${id} is in use by an overlay item`);
    this.#hidden[id] = 0;
    this.#hiddenCount--;
    return true;
  }

  /** Drops every overlay item and unhides every static one. */
  clearOverlay(): void {
    this.#ids = [];
    this.#slot.clear();
    this.#hidden.fill(0);
    this.#hiddenCount = 0;
  }

  /** Ids of live items whose (margin-grown) boxes touch the query box, ascending, each once. */
  query(box: Box): number[] {
    const out: number[] = [];
    if (this.#tree !== undefined) {
      const hits = this.#tree.search(box.minX, box.minY, box.maxX, box.maxY);
      for (const h of hits) if (this.#hidden[h] === 0) out.push(h);
    }
    const b = this.#boxes;
    for (let i = 0; i < this.#ids.length; i++) {
      if (b[4 * i] <= box.maxX && b[4 * i + 2] >= box.minX && b[4 * i + 1] <= box.maxY && b[4 * i + 3] >= box.minY) {
        out.push(this.#ids[i]);
      }
    }
    out.sort((x, y) => x - y);
    return out;
  }
}
