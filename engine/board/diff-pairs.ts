// Which nets are differential pairs, by KiCad's own naming rule: a name whose last character
// other than digits and underscores is +/- or P/N, whose partner (that character swapped) is a net
// of the board too. Rules (`A.inDiffPair`), the session and the plugin all ask here.

/** One net's place in a pair. */
export interface DiffPairName {
  /** The name without its polarity character and what follows it (KiCad's base name). */
  base: string;
  /** '+' for the + or P net, '-' for the - or N net. */
  polarity: '+' | '-';
  /** The partner's name. */
  partner: string;
}

const MATE: Record<string, string> = { '+': '-', '-': '+', P: 'N', N: 'P' };

/** How `name` would pair, whether or not its partner exists; null when it has no polarity. */
export function diffPairName(name: string): DiffPairName | null {
  let k = name.length - 1;
  while (k >= 0 && /[0-9_]/.test(name[k])) k--;
  const mate = k >= 0 ? MATE[name[k]] : undefined;
  if (mate === undefined) return null;
  return { base: name.slice(0, k), polarity: name[k] === '+' || name[k] === 'P' ? '+' : '-', partner: name.slice(0, k) + mate + name.slice(k + 1) };
}

/** The pair `name` is one of on a board whose nets are `netByName` (code 0 is no net): null when
 *  the name has no polarity or its partner is not a net there. */
export function diffPairOf(name: string, netByName: ReadonlyMap<string, number>): DiffPairName | null {
  const p = diffPairName(name);
  return p && (netByName.get(p.partner) ?? 0) > 0 ? p : null;
}

/** `names` with each one's pair partner after it where the board has one, each name once. */
export function withPartners(names: readonly string[], netByName: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const n of names)
    for (const m of [n, diffPairOf(n, netByName)?.partner])
      if (m !== undefined && !seen.has(m)) {
        seen.add(m);
        out.push(m);
      }
  return out;
}

/** The pairs (+ net, − net) both of whose nets are among `nets` (codes), by + net. */
export function pairsAmong(
  board: { nets: readonly { name: string }[]; netByName: ReadonlyMap<string, number> },
  nets: ReadonlySet<number>,
): [number, number][] {
  const pairs: [number, number][] = [];
  for (const n of [...nets].sort((a, b) => a - b)) {
    const p = diffPairOf(board.nets[n]?.name ?? '', board.netByName);
    if (p?.polarity !== '+') continue;
    const minus = board.netByName.get(p.partner)!;
    if (nets.has(minus)) pairs.push([n, minus]);
  }
  return pairs;
}
