// The list of session states to step through: each route, rip and the board as loaded, with
// what it holds (connections routed, vias, copper). Choosing one restores it; with KiCad the
// host writes the difference as one commit, so Ctrl+Z in the editor still undoes it.

import type { HistoryState } from './api.ts';
import { h, fill, mmText } from './dom.ts';

export function callLabel(s: HistoryState): string {
  const c = s.call;
  if (!c) return 'Board as loaded';
  const a = c.args ?? {};
  if (c.tool === 'route') {
    const nets = Array.isArray(a.nets) ? (a.nets as string[]) : undefined;
    if (!nets) return 'Route all open';
    return nets.length <= 3 ? `Route ${nets.join(', ')}` : `Route ${nets.slice(0, 3).join(', ')} +${nets.length - 3}`;
  }
  if (c.tool === 'rip_net') return `Rip ${String(a.net ?? '')}`;
  return c.tool;
}

export function drawHistory(el: HTMLElement, states: HistoryState[], current: number, blocked: string | null, restore: (id: number) => void): void {
  const items = [...states].reverse().map((s) => {
    const isCurrent = s.id === current;
    return h(
      'li',
      {},
      h(
        'button',
        {
          class: `state${isCurrent ? ' current' : ''}`,
          'aria-current': isCurrent ? 'true' : undefined,
          'data-state': s.id,
          disabled: blocked !== null && !isCurrent,
          title: isCurrent ? 'the current state' : (blocked ?? `restore state ${s.id}`),
          onclick: () => {
            if (!isCurrent) restore(s.id);
          },
        },
        h('span', { class: 'state-id' }, `#${s.id}`),
        h('span', { class: 'state-label' }, callLabel(s)),
        isCurrent ? h('span', { class: 'badge current-badge' }, 'current') : null,
        h('span', { class: 'state-facts muted' }, `${s.routed} routed · ${s.vias} vias · ${mmText(s.length_mm)}`),
      ),
    );
  });
  fill(el, ...items);
}
