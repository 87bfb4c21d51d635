// The board's nets in either of KiCad's two ways of naming them, chosen per file: KiCad 6–9 keep
// a table `(net 3 "SDA")` at the top and refer to nets by code, `(net 3)`; KiCad 10 has no table
// and names the net wherever it is used, `(net "SDA")`. Both end as one dense table by code.

import type { BoardDialect, Net } from '../board/model.ts';
import { atomAt, children, type SList } from './sexpr.ts';
import type { ReadContext } from './values.ts';

export class NetTable {
  readonly dialect: BoardDialect;
  /** Indexed by code: nets[code]; code 0 is the unconnected net (""). */
  readonly nets: Net[] = [];
  readonly byName = new Map<string, number>();
  readonly #codes = new Set<number>();

  readonly #ctx: ReadContext;

  constructor(ctx: ReadContext, root: SList) {
    this.#ctx = ctx;
    const table = children(root, 'net');
    this.dialect = table.length > 0 ? 'net-codes' : 'net-names';
    if (this.dialect === 'net-names') {
      this.#add(0, '');
      return;
    }
    const found: Net[] = [];
    for (const n of table) {
      const code = ctx.num(n, 1, 'net');
      const name = atomAt(n, 2) ?? '';
      if (!this.#codes.has(code)) found.push({ code, name });
      this.#codes.add(code);
      if (!this.byName.has(name)) this.byName.set(name, code);
    }
    // KiCad always has net 0, the unconnected net; boards written without it still get it.
    if (!this.#codes.has(0)) found.push({ code: 0, name: '' });
    this.byName.set('', this.byName.get('') ?? 0);
    this.#codes.add(0);
    // KiCad numbers nets densely when it saves; a gap is filled with a nameless net.
    found.sort((a, b) => a.code - b.code);
    for (const n of found) {
      while (this.nets.length < n.code) {
        ctx.warn(root, `net code ${this.nets.length} is missing from the net table`);
        this.nets.push({ code: this.nets.length, name: '' });
      }
      this.nets.push(n);
    }
  }

  /**
   * The model's net code of an item's `(net …)`, 0 when the item has none. In a file with a net
   * table the first argument is a code (a pad adds the name, a zone its `net_name`: `nameHint`);
   * without one it is the name.
   */
  of(node: SList | undefined, nameHint?: string): number {
    if (!node) return 0;
    const ctx = this.#ctx;
    if (this.dialect === 'net-names') {
      const arg = node.items[1];
      if (!arg || arg.kind !== 'atom') throw ctx.error(arg ?? node, '(net) expects a net name, as KiCad 10 writes it: (net "GND")');
      const extra = node.items[2];
      if (extra) throw ctx.error(extra, '(net) takes one net name in a file without a net table, as KiCad 10 writes it: (net "GND")');
      // KiCad 10 quotes every name it writes; an unquoted number is a net code, as KiCad 10's own
      // parser takes it, and with no table to look it up in only code 0 (no net) means anything.
      if (!arg.quoted && /^-?\d+$/.test(arg.text)) {
        if (Number(arg.text) === 0) return 0;
        throw ctx.error(arg, `net ${arg.text} is a net code, but this file has no net table to look it up in; KiCad 10 names nets: (net "GND")`);
      }
      const known = this.byName.get(arg.text);
      return known ?? this.#add(this.nets.length, arg.text);
    }
    const first = node.items[1];
    if (first && first.kind === 'atom' && first.quoted) {
      throw ctx.error(first, `(net) names "${first.text}" in a file with a net table, where KiCad 6–9 expect a net code`);
    }
    const code = ctx.num(node, 1, 'net');
    if (this.#codes.has(code)) return code;
    const name = atomAt(node, 2) ?? nameHint;
    if (name !== undefined && this.byName.has(name)) return this.byName.get(name)!;
    throw ctx.error(node, `net ${code}${name !== undefined ? ` "${name}"` : ''} is not in the board's net table`);
  }

  #add(code: number, name: string): number {
    this.nets.push({ code, name });
    this.byName.set(name, code);
    this.#codes.add(code);
    return code;
  }
}
