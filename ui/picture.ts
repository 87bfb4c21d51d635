// The picture of a spot: the engine's SVG of a region shown as an image (so nothing in it can
// run), with a caption saying what is shown, a legend in KiCad's layer colours, and what the
// editor did with the selection.

import type { Connection, FocusResult, RenderResult } from './api.ts';
import { h, fill } from './dom.ts';
import { REASONS, reasonOf } from './connections.ts';

let lastUrl: string | undefined;

function image(svg: string, alt: string): HTMLImageElement {
  if (lastUrl) URL.revokeObjectURL(lastUrl);
  lastUrl = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  return h('img', { src: lastUrl, alt, class: 'spot-img' });
}

/** The picture's own legend: its layers in the colours it drew them, then the page's marks. */
function legend(layers: RenderResult['legend']['layers']): HTMLElement {
  const sw = (colour: string, cls = 'swatch') => {
    const s = h('span', { class: cls, 'aria-hidden': 'true' });
    s.style.setProperty('--c', colour);
    return s;
  };
  return h(
    'ul',
    { class: 'legend', 'aria-label': 'legend' },
    ...layers.map((l) => h('li', {}, sw(l.colour), l.name)),
    h('li', {}, sw('#9aa4b2', 'swatch line'), 'open connection'),
    h('li', {}, sw('#FF8C00', 'swatch ring'), 'blocking copper'),
  );
}

export function showPlaceholder(el: HTMLElement, text: string): void {
  fill(el, h('p', { class: 'placeholder' }, text));
}

export function showLoading(el: HTMLElement, c: Connection): void {
  el.setAttribute('aria-busy', 'true');
  const cap = el.querySelector('.caption');
  if (cap) cap.textContent = `Loading ${c.a} → ${c.b}…`;
}

export function showConnection(el: HTMLElement, c: Connection, f: FocusResult, editor: boolean): void {
  el.removeAttribute('aria-busy');
  const r = REASONS[reasonOf(c)];
  const [x1, y1, x2, y2] = f.picture.box_mm;
  let editorLine: HTMLElement;
  if (!editor) editorLine = h('p', { class: 'muted small-text' }, 'Board file only: nothing is selected in KiCad.');
  else if (f.editor?.ok) editorLine = h('p', { class: 'ok small-text' }, `Selected ${f.pads.map((p) => p.pad).join(' and ')} in KiCad and zoomed there.`);
  else editorLine = h('p', { class: 'warn small-text' }, `KiCad did not select the pads: ${f.editor?.message ?? 'no answer'}`);
  fill(
    el,
    h('p', { class: 'caption' }, h('strong', {}, `${c.a} → ${c.b}`), ` on ${c.net}`, r ? h('span', { class: `badge reason-${reasonOf(c)}` }, r.label) : null),
    image(
      f.picture.svg ?? '',
      `Board region around ${c.a} and ${c.b}: copper per layer, the open connection as a thin line, blocking copper outlined in orange`,
    ),
    c.why ? h('p', { class: 'why' }, c.why) : null,
    h(
      'p',
      { class: 'muted small-text' },
      `Region ${fmt(x1)}, ${fmt(y1)} – ${fmt(x2)}, ${fmt(y2)} mm` +
        (c.at_mm ? ` · trouble at ${fmt(c.at_mm[0])}, ${fmt(c.at_mm[1])} mm${c.layer ? ` on ${c.layer}` : ''}` : ''),
    ),
    legend(f.picture.legend.layers),
    editorLine,
  );
}

export function showRegion(el: HTMLElement, title: string, picture: RenderResult): void {
  el.removeAttribute('aria-busy');
  fill(el, h('p', { class: 'caption' }, h('strong', {}, title)), image(picture.svg ?? '', title), legend(picture.legend.layers));
}

function fmt(v: number): string {
  return v.toFixed(2);
}
