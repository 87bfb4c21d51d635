// Reads `.kicad_dru` custom rules: `(rule "name" (layer …) (condition "…") (constraint …))`.
// Supported constraints: clearance, track_width, via_diameter, hole_clearance, edge_clearance,
// hole_size, annular_width (min), hole_to_hole (min), a net's length, skew (with
// within_diff_pairs) and via_count, and a differential pair's diff_pair_gap and
// diff_pair_uncoupled. Conditions compare A/B NetClass, NetName, Layer, Type and Pad_Type, ask
// A/B.isPlated(), A/B.inDiffPair('…'), A/B.intersectsArea('…') and A/B.enclosedByArea('…') (a
// zone or rule area by name), joined by &&, || and ! with parentheses. Anything else is a warning
// that names the file's line:column, the rule and the clause. Other constraint keywords are kept
// as the rule's `unmodelled` kinds, so the router can leave alone the nets such rules may govern
// (rules.ts); a rule with an unsupported condition is not applied, and its unmodelled kinds guard
// the nets that the condition's readable conjuncts do not rule out.

import type { Diagnostic } from '../board/model.ts';
import { newCopperCanBreak, type CustomRule, type RuleCondition, type RuleConstraint } from '../board/rules.ts';
import { CoordinateRangeError, lengthToNm, MAX_COORD_NM, mmText, mmToNm } from '../geom/units.ts';
import { atomAt, children, head, KicadParseError, parseSexpr, type SList } from './sexpr.ts';
import { ReadContext } from './values.ts';

const CONSTRAINTS = new Set([
  'clearance',
  'track_width',
  'via_diameter',
  'hole_clearance',
  'edge_clearance',
  'hole_size',
  'length',
  'skew',
  'via_count',
  'diff_pair_gap',
  'diff_pair_uncoupled',
  'annular_width',
  'hole_to_hole',
]);

export function parseDru(text: string, source = 'rules.kicad_dru'): { rules: CustomRule[]; warnings: Diagnostic[] } {
  // The file is a sequence of top-level lists; wrap it so the reader sees one.
  const root = parseSexpr(`(dru\n${text}\n)`, source);
  const ctx = new ReadContext(`(dru\n${text}\n)`, source);
  const warnings: Diagnostic[] = [];
  // Line numbers shift by the one wrapper line added above.
  const at = (node: SList) => {
    const { line, column } = ctx.map.position(node.start);
    return { line: line - 1, column };
  };
  const warn = (node: SList, message: string) => warnings.push({ severity: 'warning', message, source, ...at(node) });
  // A length past the coordinate range is an error at its bound, as the board reader's are.
  const lengthAt = (node: SList, text: string, what: string) => {
    try {
      return parseLength(text);
    } catch (e) {
      if (!(e instanceof CoordinateRangeError)) throw e;
      const { line, column } = at(node);
      throw new KicadParseError(`${what} value "${text}" is outside ±${mmText(MAX_COORD_NM, 0)}`, line, column, source);
    }
  };
  const rules: CustomRule[] = [];
  for (let k = 1; k < root.items.length; k++) {
    const it = root.items[k];
    if (it.kind !== 'list') continue;
    const h = head(it);
    if (h === 'version') continue;
    if (h !== 'rule') {
      warn(it, `(${h}) is not a rule and is ignored`);
      continue;
    }
    const name = atomAt(it, 1) ?? '';
    const rule: CustomRule = { name, order: rules.length, layer: undefined, condition: null, constraints: [], unmodelled: [], source };
    const kinds: string[] = [];
    let unread: Diagnostic | undefined;
    for (let j = 2; j < it.items.length; j++) {
      const c = it.items[j];
      if (c.kind !== 'list') continue;
      const ch = head(c);
      if (ch === 'layer') rule.layer = atomAt(c, 1);
      else if (ch === 'condition') {
        const expr = atomAt(c, 1) ?? '';
        const parsed = parseCondition(expr);
        if ('error' in parsed) {
          warn(c, `rule "${name}": condition "${expr}" is not supported (${parsed.error}); the rule is not applied`);
          unread = warnings[warnings.length - 1];
          // What can be read of it still bounds the nets it may govern (readableConjuncts).
          rule.condition = readableConjuncts(expr);
        } else rule.condition = parsed.cond;
      } else if (ch === 'constraint') {
        const kind = atomAt(c, 1) ?? '';
        if (!kinds.includes(kind)) kinds.push(kind);
        if (!CONSTRAINTS.has(kind)) {
          if (!rule.unmodelled.includes(kind)) rule.unmodelled.push(kind);
          const routed = newCopperCanBreak(kind) ? '; the router leaves the nets it may govern unrouted' : ' and is ignored';
          warn(c, `rule "${name}": constraint ${kind} is not supported${routed}`);
          continue;
        }
        const con: RuleConstraint = { kind: kind as RuleConstraint['kind'] };
        for (const bound of ['min', 'opt', 'max'] as const) {
          const b = children(c, bound)[0];
          if (!b) continue;
          const text = atomAt(b, 1) ?? '';
          // A via count is a number of vias; every other bound is a length.
          const v = kind === 'via_count' ? parseCount(text) : lengthAt(b, text, `rule "${name}": ${kind} ${bound}`);
          if (v === null) warn(b, `rule "${name}": ${kind} ${bound} value "${text}" is not ${kind === 'via_count' ? 'a whole number' : 'a length'}`);
          else con[bound] = v;
        }
        if (kind === 'skew' && children(c, 'within_diff_pairs').length > 0) con.withinDiffPairs = true;
        rule.constraints.push(con);
      } else if (ch === 'severity') {
        warn(c, `rule "${name}": (severity) is not supported and is ignored`);
      } else warn(c, `rule "${name}": clause (${ch}) is not supported and is ignored`);
    }
    if (unread) {
      // Not applied, as before. Its modelled constraints are left out as before (the engine keeps
      // to the other rules); the ones the engine does not model hold back the nets it may govern:
      // every net its readable conjuncts do not rule out.
      // A net's length, skew and via count are judged per rule: under a condition that cannot
      // be read no one judges them, so they hold their nets back like the unmodelled kinds.
      for (const c of rule.constraints)
        if (['length', 'skew', 'via_count', 'diff_pair_gap', 'diff_pair_uncoupled'].includes(c.kind) && !rule.unmodelled.includes(c.kind))
          rule.unmodelled.push(c.kind);
      const guards = rule.unmodelled.filter(newCopperCanBreak);
      const scope = rule.condition ? 'the nets it may govern' : 'any net';
      if (guards.length > 0)
        unread.message += `; as new copper could break its ${guards.join(', ')}, the router leaves ${scope} unrouted (the other rules still apply)`;
      rule.constraints = [];
      rule.unreadCondition = true;
    }
    if (rule.constraints.length > 0 || rule.unmodelled.length > 0) rules.push(rule);
  }
  return { rules, warnings };
}

/** "3" → 3; null unless a whole number of at least 0. */
function parseCount(s: string): number | null {
  return /^\s*[0-9]+\s*$/.test(s) ? Number(s) : null;
}

/** "0.2mm", "8mil", "0.2" (mm) → nm, rounded as KiCad's rule parser does (KiROUND of the value
 *  in nm, half away from zero); null when unreadable. Throws CoordinateRangeError past ±1500 mm. */
export function parseLength(s: string): number | null {
  const m = /^\s*(-?[0-9]*\.?[0-9]+(?:e[-+]?\d+)?)\s*(mm|mil|mils|in|um|nm)?\s*$/i.exec(s);
  if (!m) return null;
  const v = Number(m[1]);
  const unit = (m[2] ?? 'mm').toLowerCase();
  if (unit === 'mm') return mmToNm(v);
  const scale = unit === 'mil' || unit === 'mils' ? 25_400 : unit === 'in' ? 25_400_000 : unit === 'um' ? 1e3 : 1;
  return lengthToNm(v, scale);
}

type Parsed = { cond: RuleCondition } | { error: string };

const TOKEN = /\s*(&&|\|\||==|!=|!|\(|\)|'[^']*'|"[^"]*"|[AB]\.[A-Za-z_]+|[^\s()!]+)/y;

/**
 * The conjuncts of a condition joined by a top-level `&&` that parse, joined again: every item
 * the whole condition matches, this matches too (null when none parses or the condition has a
 * top-level `||`, which could match anything).
 */
export function readableConjuncts(expr: string): RuleCondition | null {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < expr.length; i++) {
    const ch = expr[i];
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && expr.startsWith('||', i)) return null;
    else if (depth === 0 && expr.startsWith('&&', i)) {
      parts.push(expr.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  parts.push(expr.slice(start));
  let out: RuleCondition | null = null;
  for (const part of parts) {
    const p = parseCondition(part);
    if ('cond' in p) out = out ? { kind: 'and', a: out, b: p.cond } : p.cond;
  }
  return out;
}

export function parseCondition(expr: string): Parsed {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (TOKEN.lastIndex < expr.length && (m = TOKEN.exec(expr))) tokens.push(m[1]);
  if (tokens.join('').replace(/\s/g, '') !== expr.replace(/\s/g, '')) return { error: 'unreadable text' };
  let i = 0;
  const peek = () => tokens[i];
  const fail = (why: string): never => {
    throw new Error(why);
  };
  const primary = (): RuleCondition => {
    if (peek() === '!') {
      i++;
      return { kind: 'not', a: primary() };
    }
    if (peek() === '(') {
      i++;
      const c = or();
      if (tokens[i++] !== ')') fail("missing ')'");
      return c;
    }
    const lhs = tokens[i++] ?? '';
    const area = /^([AB])\.(intersectsArea|enclosedByArea)$/.exec(lhs);
    if (area) {
      const arg = tokens[i + 1] ?? '';
      if (tokens[i] !== '(' || !/^['"].*['"]$/.test(arg) || tokens[i + 2] !== ')') fail(`expected ${lhs}('area name')`);
      // 'A' / 'B' name the pair's other item (a zone), and a zone's uuid names that zone alone:
      // neither is modelled.
      const name = arg.slice(1, -1);
      if (name === '' || name === 'A' || name === 'B' || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(name))
        fail(`${lhs}('${name}') is not supported`);
      i += 3;
      return { kind: 'area', item: area[1] as 'A' | 'B', test: area[2] === 'intersectsArea' ? 'intersects' : 'enclosed', name };
    }
    const dp = /^([AB])\.inDiffPair$/.exec(lhs);
    if (dp) {
      const arg = tokens[i + 1] ?? '';
      if (tokens[i] !== '(' || !/^['"].*['"]$/.test(arg) || tokens[i + 2] !== ')') fail(`expected ${lhs}('pattern')`);
      i += 3;
      return { kind: 'diffPair', item: dp[1] as 'A' | 'B', pattern: arg.slice(1, -1) };
    }
    const plated = /^([AB])\.isPlated$/.exec(lhs);
    if (plated) {
      if (tokens[i] !== '(' || tokens[i + 1] !== ')') fail(`expected ${lhs}()`);
      i += 2;
      return { kind: 'plated', item: plated[1] as 'A' | 'B' };
    }
    const lm = /^([AB])\.(NetClass|NetName|Layer|Type|Pad_Type|Via_Type)$/.exec(lhs);
    if (!lm) fail(`"${lhs}" is not one of A/B.NetClass, A/B.NetName, A/B.Layer, A/B.Type, A/B.Pad_Type, A/B.Via_Type, A/B.isPlated()`);
    const op = tokens[i++];
    if (op !== '==' && op !== '!=') fail(`expected == or != after ${lhs}`);
    const rhs = tokens[i++] ?? '';
    if (!/^['"].*['"]$/.test(rhs)) fail(`expected a quoted value after ${lhs} ${op}`);
    const item = lm![1] as 'A' | 'B';
    const prop = lm![2];
    const value = rhs.slice(1, -1);
    if (prop === 'Type' || prop === 'Pad_Type' || prop === 'Via_Type') return { kind: 'itemType', item, prop, negate: op === '!=', value };
    return { kind: 'cmp', item, prop: prop as 'NetClass' | 'NetName' | 'Layer', negate: op === '!=', value };
  };
  const and = (): RuleCondition => {
    let c = primary();
    while (peek() === '&&') {
      i++;
      c = { kind: 'and', a: c, b: primary() };
    }
    return c;
  };
  const or = (): RuleCondition => {
    let c = and();
    while (peek() === '||') {
      i++;
      c = { kind: 'or', a: c, b: and() };
    }
    return c;
  };
  try {
    const c = or();
    if (i !== tokens.length) fail(`unexpected "${tokens[i]}"`);
    return { cond: c };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
