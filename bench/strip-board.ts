// A person's routing with the selected-nets benchmark's nets taken away (choose-nets.ts): each
// stripped track and via, and teardrop of those nets (KiCad takes a track's teardrops with it),
// goes with the line it stands on, every other byte of the file is kept.
// Used by the benchmark (strip-nets.ts) and by tests that route such a board back.
import { parseBoard } from '../engine/kicad/read-board.ts';
import { parseSexpr } from '../engine/kicad/sexpr.ts';
import type { Track, Via } from '../engine/board/model.ts';
import { chooseNets } from './choose-nets.ts';

export interface StrippedBoard {
  /** The board file's text without the nets' tracks and vias. */
  text: string;
  nets: string[];
  /** The person's copper of those nets. */
  tracks: Track[];
  vias: Via[];
}

/** `text` (a routed .kicad_pcb read from `source`) with `only`'s nets unrouted, by default
 *  chooseNets'. */
export function stripBoard(text: string, source: string, only?: readonly string[]): StrippedBoard {
  const board = parseBoard(text, { source });
  const nets = only ? [...only] : chooseNets(board);
  const codes = new Set(nets.map((n) => board.netByName.get(n)!));
  const tracks = board.tracks.filter((t) => codes.has(t.net));
  const vias = board.vias.filter((v) => codes.has(v.net));
  const teardrops = board.zones.filter((z) => z.teardrop && codes.has(z.net));
  const cut = new Set([...tracks.map((t) => t.src), ...vias.map((v) => v.src), ...teardrops.map((z) => z.src)]);
  const root = parseSexpr(text, source);
  let out = '';
  let from = 0;
  for (const it of root.items) {
    if (it.kind !== 'list' || !cut.has(it.start)) continue;
    const lineStart = text.lastIndexOf('\n', it.start - 1) + 1;
    const startsLine = /^[ \t]*$/.test(text.slice(lineStart, it.start));
    const lineEnd = text.indexOf('\n', it.end);
    const endsLine = lineEnd >= 0 && /^[ \t\r]*$/.test(text.slice(it.end, lineEnd));
    const a = startsLine && endsLine ? lineStart : it.start;
    const b = startsLine && endsLine ? lineEnd + 1 : it.end;
    out += text.slice(from, a);
    from = b;
  }
  out += text.slice(from);
  return { text: out, nets, tracks, vias };
}
