// FNV-1a 64 over text, as 16 hex digits: the digest of a session state's copper (in canonical
// order, see copper.ts), of a tool result, and of the log chain. Not cryptographic: it catches
// edits and divergence, it does not resist a forger.

const MASK = 0xffffffffffffffffn;
const OFFSET = 0xcbf29ce484222325n;

/** FNV-1a 64 of the UTF-8 bytes of `text`, continuing from `seed` (a previous digest) if given. */
export function fnv1a64(text: string, seed?: string): string {
  let h = seed === undefined ? OFFSET : BigInt('0x' + seed);
  const bytes = new TextEncoder().encode(text);
  // Work in two 32-bit halves for speed, folding back into a bigint only at the end.
  let lo = Number(h & 0xffffffffn);
  let hi = Number(h >> 32n);
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    // (hi·2^32 + lo) · (2^40 + 0x1b3) mod 2^64, with 0x100000001b3 = 2^40 + 435.
    const loTimes = lo * 435;
    const carry = Math.floor(loTimes / 0x100000000);
    const newLo = loTimes >>> 0;
    const newHi = (Math.imul(hi, 435) + carry + ((lo << 8) >>> 0)) >>> 0;
    lo = newLo;
    hi = newHi;
  }
  h = (BigInt(hi) << 32n) | BigInt(lo);
  return (h & MASK).toString(16).padStart(16, '0');
}
