// The open connections, grouped by net: filtering by text (net, part or pad) and reason,
// sorting by net, reason, part, length or tries, and one row per connection with its reason,
// its sentence, its blockers and how often it was tried. Rows are buttons; arrows move between.

import type { Connection } from './api.ts';
import { h, fill, mmText } from './dom.ts';

export const REASONS: Record<string, { label: string; hint: string }> = {
  boxed_in: { label: 'Boxed in', hint: 'a pad is fenced in by other copper on every layer' },
  blocked: { label: 'Blocked', hint: 'the way exists only through space other nets hold' },
  no_via_site: { label: 'No via site', hint: 'it needs a layer change and no via fits nearby' },
  budget: { label: 'Out of work', hint: 'the work budget ran out before it was finished' },
  unreachable: { label: 'Unreachable', hint: 'no path exists on the allowed layers' },
  rule_not_supported: { label: 'Custom rule', hint: 'a custom rule the router does not model governs this net: route it by hand' },
  length_rule: {
    label: 'Length rule',
    hint: "the route was found but is shorter than the net's length rule and meanders found no room: give it room, or change the rule",
  },
  untried: { label: 'Not routed yet', hint: 'no route has tried this connection' },
};

export type SortKey = 'net' | 'reason' | 'part' | 'length' | 'tries';

export interface ListView {
  filter: string;
  reason: string;
  sort: SortKey;
  /** `net|a|b` of the selected row. */
  selected: string | null;
}

export interface ListActions {
  pick(c: Connection): void;
  /** One net, or both nets of a differential pair. */
  routeNets(nets: string[]): void;
  ripNet(net: string): void;
  /** Whether change buttons work now, and why not. */
  changeBlocked(): string | null;
  /** Nets that have session copper (rip is offered only for those). */
  sessionNets: ReadonlySet<string>;
}

export function keyOf(c: Connection): string {
  return `${c.net}|${c.a}|${c.b}`;
}

export function reasonOf(c: Connection): string {
  return c.reason ?? 'untried';
}

function part(end: string): string {
  const dot = end.indexOf('.');
  return dot > 0 ? end.slice(0, dot) : end;
}

const byText = (x: string, y: string) => x.localeCompare(y, 'en', { numeric: true });

function compare(sort: SortKey): (x: Connection, y: Connection) => number {
  const tries = (c: Connection) => (c.fails ?? 0) + (c.rips ?? 0);
  switch (sort) {
    case 'net':
      return (x, y) => byText(x.net, y.net) || byText(x.a, y.a);
    case 'reason':
      return (x, y) => byText(reasonOf(x), reasonOf(y)) || byText(x.net, y.net);
    case 'part':
      return (x, y) => byText(part(x.a), part(y.a)) || byText(x.a, y.a);
    case 'length':
      return (x, y) => y.length_mm - x.length_mm || byText(x.net, y.net);
    case 'tries':
      return (x, y) => tries(y) - tries(x) || byText(x.net, y.net);
  }
}

/** The rows the view shows, in order. */
export function visible(all: Connection[], v: ListView): Connection[] {
  const q = v.filter.trim().toLowerCase();
  return all
    .filter((c) => v.reason === '' || reasonOf(c) === v.reason)
    .filter((c) => q === '' || [c.net, c.a, c.b, part(c.a), part(c.b)].some((t) => t.toLowerCase().includes(q)))
    .sort(compare(v.sort));
}

/** An end as the list shows it: a pad, or a zone with the pad its piece joins there. */
function endText(end: string, pad: string | undefined): string {
  return end === 'zone' && pad ? `zone at ${pad}` : end;
}

function row(c: Connection, v: ListView, act: ListActions): HTMLElement {
  const r = reasonOf(c);
  const info = REASONS[r] ?? { label: r, hint: '' };
  const selected = v.selected === keyOf(c);
  const tries: string[] = [];
  if (c.tried === false) tries.push('not attempted');
  if (c.fails) tries.push(`${c.fails} failed ${c.fails === 1 ? 'search' : 'searches'}`);
  if (c.rips) tries.push(`ripped ${c.rips}×`);
  return h(
    'li',
    {},
    h(
      'button',
      { class: `conn${selected ? ' selected' : ''}`, 'aria-pressed': selected ? 'true' : 'false', 'data-key': keyOf(c), onclick: () => act.pick(c) },
      h(
        'span',
        { class: 'ends' },
        h('span', { class: 'pad' }, endText(c.a, c.a_pad)),
        h('span', { class: 'arrow', 'aria-hidden': 'true' }, '→'),
        h('span', { class: 'pad' }, endText(c.b, c.b_pad)),
      ),
      h('span', { class: 'len' }, mmText(c.length_mm)),
      h('span', { class: `badge reason-${r}`, title: info.hint }, info.label),
      c.why ? h('span', { class: 'why' }, c.why) : null,
      c.blockers && c.blockers.length > 0
        ? h(
            'span',
            { class: 'blockers' },
            h('span', { class: 'muted' }, 'Blocked by '),
            ...c.blockers
              .slice(0, 5)
              .map((b) => h('span', { class: 'chip', title: `holds ${b.boundary_sites} sites of the boundary around the stuck end` }, b.net)),
          )
        : null,
      tries.length > 0 ? h('span', { class: 'tries muted' }, tries.join(' · ')) : null,
    ),
  );
}

/** Draws the list into `el`, a group per net or per differential pair (its two nets' rows
 *  together, routed together); returns how many rows are shown. */
export function drawList(el: HTMLElement, all: Connection[], v: ListView, act: ListActions): number {
  const rows = visible(all, v);
  const groups = new Map<string, { nets: string[]; list: Connection[] }>();
  for (const c of rows) {
    const nets = c.pair ? [c.net, c.pair].sort(byText) : [c.net];
    const key = nets.join('\u0000');
    const g = groups.get(key);
    if (g) g.list.push(c);
    else groups.set(key, { nets, list: [c] });
  }
  const blocked = act.changeBlocked();
  const out: HTMLElement[] = [];
  for (const { nets, list } of groups.values()) {
    const pair = nets.length === 2;
    const what = nets.join(' and ');
    out.push(
      h(
        'section',
        { class: `net-group${pair ? ' pair' : ''}`, 'aria-label': pair ? `pair ${what}` : `net ${what}` },
        h(
          'header',
          {},
          h(
            'h3',
            {},
            nets.join(' · '),
            pair ? h('span', { class: 'tag', title: 'a differential pair by its names: routed together' }, 'pair') : null,
            h('span', { class: 'count' }, String(list.length)),
          ),
          h(
            'span',
            { class: 'net-actions' },
            h(
              'button',
              {
                class: 'small',
                onclick: () => act.routeNets(nets),
                disabled: blocked !== null,
                title: blocked ?? `route ${what} again (session copper may be redone)`,
              },
              pair ? 'Route pair' : 'Route net',
            ),
            ...nets.map((net) => {
              const canRip = act.sessionNets.has(net);
              return h(
                'button',
                {
                  class: 'small quiet',
                  onclick: () => act.ripNet(net),
                  disabled: blocked !== null || !canRip,
                  title: blocked ?? (canRip ? `remove the copper this session added to ${net}` : `${net} has no session copper to rip`),
                },
                pair ? `Rip ${net}` : 'Rip net',
              );
            }),
          ),
        ),
        h('ul', { class: 'conns' }, ...list.map((c) => row(c, v, act))),
      ),
    );
  }
  fill(el, ...out);
  return rows.length;
}

/** Up/Down move between connection rows, Home/End to the first and last. */
export function arrowKeys(el: HTMLElement): void {
  el.addEventListener('keydown', (e) => {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    const rows = Array.from(el.querySelectorAll<HTMLButtonElement>('button.conn'));
    const i = rows.indexOf(document.activeElement as HTMLButtonElement);
    if (i < 0 || rows.length === 0) return;
    const j = e.key === 'ArrowDown' ? Math.min(rows.length - 1, i + 1) : e.key === 'ArrowUp' ? Math.max(0, i - 1) : e.key === 'Home' ? 0 : rows.length - 1;
    rows[j].focus();
    e.preventDefault();
  });
}
