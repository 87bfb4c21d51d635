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
    // Sift with a hole: move parents down until the new pair fits, then write it once.
    const keys = this.#keys;
    const vals = this.#vals;
    const seqs = this.#seq;
    const seq = this.#counter++;
    let i = this.#n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pk = keys[p];
      if (pk < key || (pk === key && seqs[p] < seq)) break;
      keys[i] = pk;
      vals[i] = vals[p];
      seqs[i] = seqs[p];
      i = p;
    }
    keys[i] = key;
    vals[i] = val;
    seqs[i] = seq;
  }

  /** Key of the top pair (Infinity when empty). */
  peekKey(): number {
    return this.#n ? this.#keys[0] : Infinity;
  }

  /** Removes the top pair and returns its value (-1 when empty). */
  pop(): number {
    if (this.#n === 0) return -1;
    const keys = this.#keys;
    const vals = this.#vals;
    const seqs = this.#seq;
    const top = vals[0];
    const last = --this.#n;
    if (last > 0) {
      // The last pair sinks from the root through a hole, smaller child first.
      const key = keys[last];
      const val = vals[last];
      const seq = seqs[last];
      let i = 0;
      for (;;) {
        let m = 2 * i + 1;
        if (m >= last) break;
        const r = m + 1;
        if (r < last && (keys[r] < keys[m] || (keys[r] === keys[m] && seqs[r] < seqs[m]))) m = r;
        if (key < keys[m] || (key === keys[m] && seq < seqs[m])) break;
        keys[i] = keys[m];
        vals[i] = vals[m];
        seqs[i] = seqs[m];
        i = m;
      }
      keys[i] = key;
      vals[i] = val;
      seqs[i] = seq;
    }
    return top;
  }
}
