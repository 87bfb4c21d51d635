// Nets in name order. Where the router must choose between nets alike in everything it weighs,
// it goes by their names, not their codes: KiCad 9 and 10 (and a board saved again) give the same
// net different codes, and the same board must route to the same copper in each.

const DIGITS = /^\d/;

const ranks = new WeakMap<readonly string[], Int32Array>();

/** Each net code's place among the nets sorted by name (codes decide between equal names). */
export function netRanks(names: readonly string[]): Int32Array {
  let r = ranks.get(names);
  if (r) return r;
  const codes = names.map((_, i) => i).sort((a, b) => naturalOrder(names[a], names[b]) || a - b);
  r = new Int32Array(names.length);
  codes.forEach((code, place) => (r![code] = place));
  ranks.set(names, r);
  return r;
}

/** Names as a designer numbers them: runs of digits by their value (D2 before D10), the rest by
 *  character code, so the order is the same on every machine (no locale). */
export function naturalOrder(a: string, b: string): number {
  const run = /\d+|\D+/g;
  const pa = a.match(run) ?? [];
  const pb = b.match(run) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    if (DIGITS.test(x) && DIGITS.test(y)) {
      const u = x.replace(/^0+/, '');
      const v = y.replace(/^0+/, '');
      if (u.length !== v.length) return u.length - v.length;
      if (u !== v) return u < v ? -1 : 1;
      continue;
    }
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Compares net codes by their nets' names; a code the host does not name sorts after, by code. */
export function byNetName(host: { netNames: readonly string[] }): (a: number, b: number) => number {
  const r = netRanks(host.netNames);
  const place = (n: number) => (n >= 0 && n < r.length ? r[n] : r.length + n);
  return (a, b) => place(a) - place(b);
}

/** Orders a result's nets ({net, name}) by name, as byNetName does codes. */
export function byResultName(a: { net: number; name: string }, b: { net: number; name: string }): number {
  return naturalOrder(a.name, b.name) || a.net - b.net;
}
