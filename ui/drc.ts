// The design-rule check before a write: what committing the current state would add to the
// board's DRC, by type, with example positions a click shows in the picture.

import type { CheckResult, DrcExample } from './api.ts';
import { h, fill } from './dom.ts';

/** KiCad's violation keys as sentences a person reads. */
const TYPES: Record<string, string> = {
  clearance: 'Clearance',
  tracks_crossing: 'Tracks crossing',
  shorting_items: 'Short between nets',
  hole_clearance: 'Hole clearance',
  copper_edge_clearance: 'Too close to the board edge',
  track_dangling: 'Dangling track',
  via_dangling: 'Dangling via',
  net_conflict: 'Net conflict',
  track_width: 'Track width',
  annular_width: 'Annular ring',
  drill_out_of_range: 'Drill size',
  via_diameter: 'Via diameter',
};

export function drawCheck(el: HTMLElement, r: CheckResult, show: (title: string, ex: DrcExample) => void): void {
  const added = r.added.errors;
  const total = Object.values(r.errors_by_type).reduce((a, b) => a + b, 0);
  const summary =
    added.length === 0
      ? h('p', { class: 'ok' }, '✓ Writing this state adds no DRC error.')
      : h('p', { class: 'warn' }, `Writing this state would add ${added.reduce((a, e) => a + e.count, 0)} DRC error(s):`);
  fill(
    el,
    summary,
    added.length > 0
      ? h(
          'ul',
          { class: 'drc-list' },
          ...added.map((e) =>
            h(
              'li',
              {},
              h('strong', {}, `${TYPES[e.type] ?? e.type} ×${e.count}`),
              h(
                'ul',
                { class: 'examples' },
                ...e.examples.map((ex) =>
                  h(
                    'li',
                    {},
                    h(
                      'button',
                      { class: 'link', onclick: () => show(`${TYPES[e.type] ?? e.type}: ${ex.nets.join(' / ')}`, ex), title: 'show this spot in the picture' },
                      `${ex.nets.join(' / ') || 'no net'} at ${ex.at_mm[0].toFixed(2)}, ${ex.at_mm[1].toFixed(2)} mm`,
                    ),
                  ),
                ),
              ),
            ),
          ),
        )
      : null,
    h(
      'p',
      { class: 'muted small-text' },
      `State #${r.state}: ${total} error(s) on the whole board, ${r.unconnected} unconnected item(s)` +
        (r.added.unconnected !== 0 ? ` (${r.added.unconnected > 0 ? '+' : ''}${r.added.unconnected} against the board as loaded)` : '') +
        '.',
    ),
  );
}
