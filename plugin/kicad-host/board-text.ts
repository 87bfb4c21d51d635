// Cheap looks at a `.kicad_pcb` text without parsing the board: its top-level items, the digest of
// everything except the copper the host wrote, and the geometry of those written items. This is what
// lets a second action skip the full parse when only the host's own copper changed in the editor.
// It does not validate the board: the full reader does that whenever a rebuild is needed.
import { createHash } from 'node:crypto';
import { mmToNm } from '../../engine/geom/units.ts';
import { unescaped } from '../../engine/kicad/sexpr.ts';

/** One top-level item of the board, `(head …)`, as character offsets into the text. */
export interface TopItem {
  head: string;
  /** Offset of its '(' and one past its ')'. */
  start: number;
  end: number;
  /** Offset just after the previous item's ')' (or the root's head): where its leading whitespace starts. */
  gap: number;
}

const COPPER_HEADS = new Set(['segment', 'arc', 'via']);

/** The depth-1 items of `(kicad_pcb …)`, in file order. Quoted strings may hold parentheses. */
export function topLevelItems(text: string): TopItem[] {
  const out: TopItem[] = [];
  let depth = 0;
  let itemStart = -1;
  let gap = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92 /* \ */) i++;
      continue;
    }
    if (c === 40 /* ( */) {
      depth++;
      if (depth === 2) itemStart = i;
      if (depth === 1) gap = headEnd(text, i);
    } else if (c === 41 /* ) */) {
      if (depth === 2) {
        out.push({ head: headOf(text, itemStart), start: itemStart, end: i + 1, gap });
        gap = i + 1;
      }
      depth--;
      if (depth === 0) break;
    }
  }
  return out;
}

function headEnd(text: string, open: number): number {
  let i = open + 1;
  while (i < text.length && /[A-Za-z0-9_]/.test(text[i])) i++;
  return i;
}

function headOf(text: string, open: number): string {
  return text.slice(open + 1, headEnd(text, open));
}

/** The `(uuid "…")` of a copper item (segment, arc, via); null for other items. */
export function copperUuid(text: string, item: TopItem): string | null {
  if (!COPPER_HEADS.has(item.head)) return null;
  const at = text.indexOf('(uuid "', item.start);
  if (at < 0 || at > item.end) return null;
  const close = text.indexOf('"', at + 7);
  return close < 0 || close > item.end ? null : text.slice(at + 7, close);
}

export interface SplitBoard {
  /** SHA-1 of the text with the listed items (and the whitespace before each) cut out, plus `extra`. */
  digest: string;
  /** The cut-out items by uuid: their text. */
  found: Map<string, string>;
}

/**
 * Digest of the board without the items whose uuid is in `ours`: equal before and after a commit
 * that only added or removed such items, whatever KiCad did to their order.
 */
export function splitBoard(text: string, ours: ReadonlySet<string>, extra: readonly (string | undefined)[] = []): SplitBoard {
  const hash = createHash('sha1');
  const found = new Map<string, string>();
  let from = 0;
  for (const item of topLevelItems(text)) {
    const uuid = ours.size > 0 ? copperUuid(text, item) : null;
    if (uuid === null || !ours.has(uuid)) continue;
    hash.update(text.slice(from, item.gap));
    found.set(uuid, text.slice(item.start, item.end));
    from = item.end;
  }
  hash.update(text.slice(from));
  for (const e of extra) hash.update(`\0${e === undefined ? '-' : e.length}\0${e ?? ''}`);
  return { digest: hash.digest('hex'), found };
}

/** What a written segment, arc or via reads back as, in nm and file terms (layer names, net codes). */
export type ReadCopper =
  | { kind: 'track'; start: [number, number]; mid?: [number, number]; end: [number, number]; width: number; layer: string; net: number }
  | { kind: 'via'; at: [number, number]; size: number; drill: number; layers: [string, string]; net: number };

const NUM = '(-?[0-9.]+)';

function field(block: string, re: RegExp): RegExpExecArray | null {
  return re.exec(block);
}

function nm(mmText: string): number {
  return mmToNm(Number(mmText));
}

// A KiCad 6–9 file names an item's net by code, `(net 3)`; KiCad 10 by name, `(net "SDA")`, with a
// backslash before `"`, `\` and control characters, as the board reader undoes them.
const NET = /\(net (?:(\d+)|"((?:[^"\\]|\\.)*)")\)/;

/**
 * Reads one of our items back from its block text; null when a field is missing (then it is not ours
 * any more). A net named rather than numbered is turned into the board's code by `netCode`.
 */
export function readCopperBlock(block: string, netCode: (name: string) => number | undefined = () => undefined): ReadCopper | null {
  const head = /^\((\w+)/.exec(block)?.[1];
  const found = field(block, NET);
  if (!found) return null;
  const code = found[1] !== undefined ? Number(found[1]) : netCode(unescaped(found[2]));
  if (code === undefined) return null;
  if (head === 'segment' || head === 'arc') {
    const s = field(block, new RegExp(`\\(start ${NUM} ${NUM}\\)`));
    const e = field(block, new RegExp(`\\(end ${NUM} ${NUM}\\)`));
    const w = field(block, new RegExp(`\\(width ${NUM}\\)`));
    const l = field(block, /\(layer "([^"]+)"\)/);
    const m = head === 'arc' ? field(block, new RegExp(`\\(mid ${NUM} ${NUM}\\)`)) : null;
    if (!s || !e || !w || !l || (head === 'arc' && !m)) return null;
    return {
      kind: 'track',
      start: [nm(s[1]), nm(s[2])],
      end: [nm(e[1]), nm(e[2])],
      width: nm(w[1]),
      layer: l[1],
      net: code,
      ...(m ? { mid: [nm(m[1]), nm(m[2])] as [number, number] } : {}),
    };
  }
  if (head === 'via') {
    const at = field(block, new RegExp(`\\(at ${NUM} ${NUM}\\)`));
    const size = field(block, new RegExp(`\\(size ${NUM}\\)`));
    const drill = field(block, new RegExp(`\\(drill ${NUM}\\)`));
    const layers = field(block, /\(layers "([^"]+)" "([^"]+)"\)/);
    if (!at || !size || !drill || !layers) return null;
    return { kind: 'via', at: [nm(at[1]), nm(at[2])], size: nm(size[1]), drill: nm(drill[1]), layers: [layers[1], layers[2]], net: code };
  }
  return null;
}

/** A canonical key of a copper item: equal keys mean the same copper (nm, layer names, net codes). */
export function readKey(c: ReadCopper): string {
  if (c.kind === 'track') {
    const mid = c.mid ? `${c.mid[0]},${c.mid[1]}` : '-';
    return `T ${c.net} ${c.layer} ${c.width} ${c.start[0]},${c.start[1]} ${mid} ${c.end[0]},${c.end[1]}`;
  }
  return `V ${c.net} ${c.layers[0]}-${c.layers[1]} ${c.size}/${c.drill} ${c.at[0]},${c.at[1]}`;
}
