// The history the user steps through: every move of the session, newest first — each route, rip,
// undo, restore, and (with KiCad) each time the editor's own Ctrl+Z moved it — with what the state
// it reached holds (connections routed, vias, copper), and the board as loaded at the bottom.
// Choosing an entry restores the state it reached; with KiCad the host writes the difference as
// one commit, so Ctrl+Z in the editor still undoes it.

import type { HistoryMove, HistoryState } from './api.ts';
import { h, fill, mmText } from './dom.ts';

function nets(a: Record<string, unknown>): string {
  const list = Array.isArray(a.nets) ? (a.nets as string[]) : [];
  return list.length <= 3 ? list.join(', ') : `${list.slice(0, 3).join(', ')} +${list.length - 3}`;
}

/** What a move did, in words; tool names the page does not know are shown as they are. */
export function moveLabel(m: Pick<HistoryMove, 'tool' | 'args' | 'to'>): string {
  const a = m.args ?? {};
  switch (m.tool) {
    case 'route':
      return Array.isArray(a.nets) ? `Route ${nets(a)}` : 'Route all open';
    case 'rip_net':
      return `Rip ${String(a.net ?? '')}`;
    case 'undo':
      return `Undo to #${m.to}`;
    case 'restore':
      return `Restore #${m.to}`;
    case 'sync':
      return `KiCad: ${String(a.reason ?? 'the editor changed')}`;
    default:
      return m.tool;
  }
}

export function drawHistory(
  el: HTMLElement,
  states: HistoryState[],
  moves: HistoryMove[],
  current: number,
  blocked: string | null,
  restore: (id: number) => void,
): void {
  const byId = new Map(states.map((s) => [s.id, s]));
  const entry = (to: number, label: string, isCurrent: boolean, from?: number) => {
    const s = byId.get(to);
    const gone = s === undefined;
    return h(
      'li',
      {},
      h(
        'button',
        {
          class: `state${isCurrent ? ' current' : ''}`,
          'aria-current': isCurrent ? 'true' : undefined,
          'data-state': to,
          disabled: gone || (blocked !== null && !isCurrent),
          title: isCurrent ? 'the current state' : gone ? `state #${to} is no longer kept` : (blocked ?? `restore state #${to}`),
          onclick: () => {
            if (!isCurrent && !gone) restore(to);
          },
        },
        h('span', { class: 'state-id' }, from === undefined ? `#${to}` : `#${from} → #${to}`),
        h('span', { class: 'state-label' }, label),
        isCurrent ? h('span', { class: 'badge current-badge' }, 'current') : null,
        h('span', { class: 'state-facts muted' }, s ? `${s.routed} routed · ${s.vias} vias · ${mmText(s.length_mm)}` : 'no longer kept'),
      ),
    );
  };
  // The newest move always ends at the current state; with no moves yet, the input state is current.
  const items = [...moves].reverse().map((m, i) => entry(m.to, moveLabel(m), i === 0, m.from));
  items.push(entry(0, 'Board as loaded', moves.length === 0));
  fill(el, ...items);
}
