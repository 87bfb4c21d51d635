// Writes added copper into a board's original text: new tracks, arcs and vias go in just before
// the board's closing parenthesis, in the file's own dialect (KiCad 9's net codes or KiCad 10's
// net names) and laid out field by field as that KiCad saves them, so a save in KiCad leaves the
// new items' text as it is; every other byte stays as it was.
// UUIDs are derived from the item's content, so the same route writes the same bytes.

import { buriedIn, type NewTrack, type NewVia } from '../board/added-copper.ts';
import type { Board, Pt } from '../board/model.ts';
import { parseSexpr, quoted } from './sexpr.ts';

/** nm → KiCad's mm text: up to six decimals, no trailing zeros, exact for integers. */
export function formatMm(nm: number): string {
  if (!Number.isInteger(nm)) throw new Error(`formatMm expects integer nm, got ${nm}`);
  const neg = nm < 0;
  const a = Math.abs(nm);
  const whole = Math.floor(a / 1e6);
  const frac = a % 1e6;
  let s = String(whole);
  if (frac) s += '.' + String(frac).padStart(6, '0').replace(/0+$/, '');
  return neg && a !== 0 ? '-' + s : s;
}

/** FNV-1a 64 as two 32-bit halves, for content-derived UUIDs. */
function fnv64(text: string, seed: number): [number, number] {
  let h1 = 0x84222325 ^ seed;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    h1 ^= text.charCodeAt(i);
    // Multiply the 64-bit state by the FNV prime 0x100000001b3, keeping 64 bits in two halves.
    const lo = Math.imul(h1, 0x1b3) >>> 0;
    const carry = Math.floor(((h1 >>> 0) * 0x1b3) / 0x100000000);
    h2 = (Math.imul(h2, 0x1b3) + (h1 << 8) + carry) >>> 0;
    h1 = lo;
  }
  return [h1 >>> 0, h2 >>> 0];
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

/** A version-4-shaped UUID derived from a key. */
export function stableUuid(key: string): string {
  const [a, b] = fnv64(key, 0);
  const [c, d] = fnv64(key, 0x5bd1e995);
  const h = hex8(a) + hex8(b) + hex8(c) + hex8(d);
  const v = '4' + h.slice(13, 16);
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16) + h.slice(17, 20);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${v}-${variant}-${h.slice(20, 32)}`;
}

/** What follows `net` in an item's `(net …)` in the board's own dialect: the code where the file
 *  has a net table (KiCad 9), the quoted name where it has none (KiCad 10). */
export function netArgument(board: Board, net: number): string {
  const n = board.nets[net];
  if (!n) throw new Error(`net code ${net} is not one of the board's nets (0–${board.nets.length - 1})`);
  return board.dialect === 'net-names' ? quoted(n.name) : String(net);
}

/** Board text with the new items added; the input text is otherwise unchanged. */
export function addCopper(board: Board, tracks: readonly NewTrack[], vias: readonly NewVia[]): string {
  if (tracks.length === 0 && vias.length === 0) return board.text;
  const text = board.text;
  const root = parseSexpr(text, board.source);
  const close = root.end - 1;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const layerName = (i: number) => {
    const l = board.copperLayers[i];
    if (!l) throw new Error(`addCopper: copper layer ${i} does not exist on this board`);
    return l.name;
  };
  const xy = (p: Pt) => `${formatMm(p.x)} ${formatMm(p.y)}`;
  const out: string[] = [];
  tracks.forEach((t, i) => {
    const kind = t.mid ? 'arc' : 'segment';
    const key = `${kind}|${xy(t.start)}|${t.mid ? xy(t.mid) : ''}|${xy(t.end)}|${t.width}|${t.layer}|${t.net}|${i}`;
    const lines = [`\t(${kind}`, `\t\t(start ${xy(t.start)})`];
    if (t.mid) lines.push(`\t\t(mid ${xy(t.mid)})`);
    lines.push(`\t\t(end ${xy(t.end)})`, `\t\t(width ${formatMm(t.width)})`);
    // KiCad 9 and 10 both write a track's lock between its width and its layer.
    if (t.locked) lines.push('\t\t(locked yes)');
    lines.push(`\t\t(layer "${layerName(t.layer)}")`, `\t\t(net ${netArgument(board, t.net)})`, `\t\t(uuid "${stableUuid(key)}")`, '\t)');
    out.push(lines.join(eol));
  });
  vias.forEach((v, i) => {
    const key = `via|${xy(v.at)}|${v.size}|${v.drill}|${v.layerFrom}|${v.layerTo}|${v.net}|${i}`;
    const head = buriedIn(board, v) ? '\t(via buried' : v.type === 'blind' ? '\t(via blind' : v.type === 'micro' ? '\t(via micro' : '\t(via';
    const lines = [
      head,
      `\t\t(at ${xy(v.at)})`,
      `\t\t(size ${formatMm(v.size)})`,
      `\t\t(drill ${formatMm(v.drill)})`,
      `\t\t(layers "${layerName(v.layerFrom)}" "${layerName(v.layerTo)}")`,
    ];
    // A via's lock follows its layers. KiCad 10 writes a new via without the padstack's capping,
    // covering, plugging and filling fields (they then follow the board's defaults); only vias
    // carried over from a KiCad 9 file get them spelled out, so none are written here.
    if (v.locked) lines.push('\t\t(locked yes)');
    lines.push(`\t\t(net ${netArgument(board, v.net)})`, `\t\t(uuid "${stableUuid(key)}")`, '\t)');
    out.push(lines.join(eol));
  });
  // Keep whatever whitespace preceded the closing parenthesis after the last new item.
  let cut = close;
  while (cut > 0 && (text[cut - 1] === '\n' || text[cut - 1] === '\r' || text[cut - 1] === '\t' || text[cut - 1] === ' ')) cut--;
  return text.slice(0, cut) + eol + out.join(eol) + text.slice(cut);
}
