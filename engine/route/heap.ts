// A binary min-heap of (key, value) pairs on typed arrays, for the search's open list.
// Ties on the key are broken by insertion order, so runs are deterministic whatever the
// engine's sort or hash behaviour.

export class MinHeap {
  #keys = new Float64Array(1024);
  #vals = new Int32Array(1024);
  #seq = new Float64Array(1024);
  #n = 0;
  #counter = 0;

  get size(): number {
    return this.#n;
  }

  clear(): void {
    this.#n = 0;
    this.#counter = 0;
  }

  #less(i: number, j: number): boolean {
    const a = this.#keys[i];
    const b = this.#keys[j];
    return a < b || (a === b && this.#seq[i] < this.#seq[j]);
  }

  #swap(i: number, j: number): void {
    const k = this.#keys[i];
    this.#keys[i] = this.#keys[j];
    this.#keys[j] = k;
    const v = this.#vals[i];
    this.#vals[i] = this.#vals[j];
    this.#vals[j] = v;
    const s = this.#seq[i];
    this.#seq[i] = this.#seq[j];
    this.#seq[j] = s;
  }

  push(key: number, val: number): void {
    if (this.#n === this.#keys.length) {
      const k = new Float64Array(this.#n * 2);
      k.set(this.#keys);
      this.#keys = k;
      const v = new Int32Array(this.#n * 2);
      v.set(this.#vals);
      this.#vals = v;
      const s = new Float64Array(this.#n * 2);
      s.set(this.#seq);
      this.#seq = s;
    }
    let i = this.#n++;
    this.#keys[i] = key;
    this.#vals[i] = val;
    this.#seq[i] = this.#counter++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.#less(i, p)) break;
      this.#swap(i, p);
      i = p;
    }
  }

  /** Key of the top pair (Infinity when empty). */
  peekKey(): number {
    return this.#n ? this.#keys[0] : Infinity;
  }

  /** Removes the top pair and returns its value (-1 when empty). */
  pop(): number {
    if (this.#n === 0) return -1;
    const top = this.#vals[0];
    const last = --this.#n;
    if (last > 0) {
      this.#keys[0] = this.#keys[last];
      this.#vals[0] = this.#vals[last];
      this.#seq[0] = this.#seq[last];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= last) break;
        const r = l + 1;
        const m = r < last && this.#less(r, l) ? r : l;
        if (!this.#less(m, i)) break;
        this.#swap(m, i);
        i = m;
      }
    }
    return top;
  }
}
