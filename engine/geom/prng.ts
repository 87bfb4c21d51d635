// A seeded pseudo-random generator (mulberry32) for variant orders and synthetic boards: the
// engine never uses Math.random, so a seed fixes every choice.

export class Prng {
  #s: number;

  /** `salt` separates streams that share a seed (the router's variants, the board generator). */
  constructor(seed: number, salt = 0x9e3779b9) {
    this.#s = (seed >>> 0) ^ salt;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.#s = (this.#s + 0x6d2b79f5) >>> 0;
    let t = this.#s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Fisher–Yates shuffle in place. */
  shuffle<T>(a: T[]): T[] {
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }
}
