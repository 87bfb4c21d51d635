// Which nets the selected-nets benchmark strips from a person's routing: routed signal nets (two
// or more pads, no zone but teardrops), a stable quarter chosen by name, at most 10. Shared by
// the benchmark (strip-nets.ts) and the test that no connection a person routed is ever claimed
// fenced in.
import type { Board } from '../engine/board/model.ts';

const MAX_NETS = 10;

// FNV-1a of the name: the choice depends on the net's name only, not on file order or codes.
function rank(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The nets to strip: routed signal nets (two or more pads, no zone but teardrops), a stable
 *  quarter, at most 10. */
export function chooseNets(board: Board): string[] {
  // A teardrop is a track's, not a plane: its net is still a signal net.
  const zoneNets = new Set(board.zones.filter((z) => !z.keepout && !z.teardrop).map((z) => z.net));
  const pads = new Map<number, number>();
  for (const p of board.pads) pads.set(p.net, (pads.get(p.net) ?? 0) + 1);
  const routed = new Set([...board.tracks.map((t) => t.net), ...board.vias.map((v) => v.net)]);
  const eligible = board.nets
    // A comma would split the name in `--nets`.
    .filter((n) => n.code !== 0 && !n.name.includes(',') && !zoneNets.has(n.code) && (pads.get(n.code) ?? 0) >= 2 && routed.has(n.code))
    .map((n) => n.name)
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  return eligible.slice(0, Math.min(MAX_NETS, Math.ceil(eligible.length / 4)));
}
