// A tiny element builder for the panel. Board data (net names, references, sentences) only
// ever becomes text nodes or attribute values, never markup, so a hostile name stays a name.

type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;
type Child = Node | string | number | null | undefined | false;

/** h('button', { class: 'x', onclick: f, disabled: true }, 'Route') */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`panel: element #${id} is missing from index.html`);
  return el as T;
}

/** 1234.5 → "1,234.5"; millimetres to one decimal past 10, two below. */
export function mmText(v: number): string {
  return `${v.toLocaleString('en', { maximumFractionDigits: v < 10 ? 2 : 1 })} mm`;
}
