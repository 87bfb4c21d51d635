// Lossless s-expression reader for KiCad files (.kicad_pcb, .kicad_dru, fp tables).
// Every node keeps its byte span in the source text, so a writer can splice new items into
// the original text and leave every other byte as it was. Errors carry line:column.

export interface SAtom {
  readonly kind: 'atom';
  /** The value: unquoted and unescaped for strings, the raw token otherwise. */
  readonly text: string;
  readonly quoted: boolean;
  readonly start: number;
  readonly end: number;
}

export interface SList {
  readonly kind: 'list';
  readonly items: SNode[];
  /** Offset of '(' and one past ')'. */
  readonly start: number;
  readonly end: number;
}

export type SNode = SAtom | SList;

/** A malformed file or value, located by 1-based line and column. */
export class KicadParseError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
    readonly source = '',
  ) {
    super(`${source ? source + ':' : ''}${line}:${column}: ${reason}`);
    this.name = 'KicadParseError';
  }
}

/** Maps byte offsets to line:column lazily; built once per text. */
export class SourceMap {
  #lineStarts: number[] | null = null;
  constructor(
    readonly text: string,
    readonly source = '',
  ) {}

  position(offset: number): { line: number; column: number } {
    if (!this.#lineStarts) {
      const starts = [0];
      const t = this.text;
      for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) === 10) starts.push(i + 1);
      this.#lineStarts = starts;
    }
    const s = this.#lineStarts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - s[lo] + 1 };
  }

  error(offset: number, reason: string): KicadParseError {
    const { line, column } = this.position(offset);
    return new KicadParseError(reason, line, column, this.source);
  }
}

const OPEN = 40; // (
const CLOSE = 41; // )
const QUOTE = 34; // "
const BACKSLASH = 92;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b', f: '\f', v: '\v' };

/**
 * Parses one top-level list (trailing whitespace allowed). Throws KicadParseError.
 *
 * One repair, because KiCad's own parser accepts it: a keyword glued to a closing parenthesis,
 * as in `(curved_edges no)filter_ratio 0.9)`, is read as if its `(` were there (KiCad's loops
 * skip an optional `(` before each keyword). `onRepair` hears of each such place.
 */
export function parseSexpr(text: string, source = '', onRepair?: (offset: number, message: string) => void): SList {
  const map = new SourceMap(text, source);
  const n = text.length;
  let i = 0;
  const stack: { items: SNode[]; start: number }[] = [];
  let root: SList | null = null;

  let glued = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    const afterClose = glued;
    glued = false;
    if (isSpace(c)) {
      i++;
      continue;
    }
    // KiCad stops reading where the top-level list closes; so do we (the caller may warn).
    if (root) break;
    if (c === OPEN) {
      stack.push({ items: [], start: i });
      i++;
    } else if (c === CLOSE) {
      const top = stack.pop();
      if (!top) throw map.error(i, "unbalanced ')'");
      const list: SList = { kind: 'list', items: top.items, start: top.start, end: i + 1 };
      i++;
      glued = true;
      if (stack.length === 0) root = list;
      else stack[stack.length - 1].items.push(list);
    } else if (c === QUOTE) {
      if (stack.length === 0) throw map.error(i, "expected '('");
      const start = i;
      i++;
      let out = '';
      let runStart = i;
      for (;;) {
        if (i >= n) throw map.error(start, 'unterminated string');
        const d = text.charCodeAt(i);
        if (d === QUOTE) break;
        if (d === BACKSLASH && i + 1 < n) {
          out += text.slice(runStart, i);
          const e = text[i + 1];
          out += ESCAPES[e] ?? e;
          i += 2;
          runStart = i;
          continue;
        }
        i++;
      }
      out += text.slice(runStart, i);
      i++;
      stack[stack.length - 1].items.push({ kind: 'atom', text: out, quoted: true, start, end: i });
    } else {
      if (stack.length === 0) throw map.error(i, "expected '('");
      const start = i;
      if (afterClose && stack.length > 1) {
        stack.push({ items: [], start: i });
        onRepair?.(i, `"${text.slice(i, Math.min(n, i + 24)).split(/[\s()]/)[0]}" follows ')' without its '(' — read as KiCad reads it`);
      }
      while (i < n) {
        const d = text.charCodeAt(i);
        if (isSpace(d) || d === OPEN || d === CLOSE || d === QUOTE) break;
        i++;
      }
      stack[stack.length - 1].items.push({ kind: 'atom', text: text.slice(start, i), quoted: false, start, end: i });
    }
  }
  if (stack.length > 0) throw map.error(stack[stack.length - 1].start, "this '(' is never closed");
  if (!root) throw map.error(0, 'empty file: expected an s-expression');
  return root;
}

/** The head keyword of a list: `(segment ...)` → "segment"; "" when the list starts with a list. */
export function head(list: SList): string {
  const h = list.items[0];
  return h && h.kind === 'atom' ? h.text : '';
}

/** First direct child list with that head. */
export function child(list: SList, name: string): SList | undefined {
  for (let k = 1; k < list.items.length; k++) {
    const it = list.items[k];
    if (it.kind === 'list' && head(it) === name) return it;
  }
  return undefined;
}

/** All direct child lists with that head, in file order. */
export function children(list: SList, name: string): SList[] {
  const out: SList[] = [];
  for (let k = 1; k < list.items.length; k++) {
    const it = list.items[k];
    if (it.kind === 'list' && head(it) === name) out.push(it);
  }
  return out;
}

/** The atom text at position k (1 = first argument), or undefined. */
export function atomAt(list: SList, k: number): string | undefined {
  const it = list.items[k];
  return it && it.kind === 'atom' ? it.text : undefined;
}

/** The value of a quoted string's body (between its quotes), its escapes undone as the reader does. */
export function unescaped(body: string): string {
  return body.replace(/\\(.)/gs, (_, c: string) => ESCAPES[c] ?? c);
}

/** A string as KiCad quotes it: backslash, quote and line breaks escaped, so the reader gives it back. */
export function quoted(value: string): string {
  return `"${value.replace(/[\\"\n\r]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\' + c))}"`;
}
