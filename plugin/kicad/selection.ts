// Which nets the user means: the nets of everything selected in the editor (pads, tracks, arcs and vias
// by their own net, footprints by all their pads' nets, zones by theirs), or the names given with
// --nets. Names are data: they are checked against the board's net table, never interpreted.
import type { BoardItem } from '../../ipc/index.ts';

/** The selected nets, in first-seen order, without the unconnected net "". */
export function netsOfSelection(items: readonly BoardItem[]): string[] {
  const seen = new Set<string>();
  const add = (net: string) => {
    if (net !== '') seen.add(net);
  };
  for (const item of items) {
    switch (item.kind) {
      case 'pad': case 'track': case 'arc': case 'via': case 'zone': case 'shape':
        add(item.net);
        break;
      case 'footprint':
        for (const pad of item.pads) add(pad.net);
        break;
      case 'other':
        break;
    }
  }
  return [...seen];
}

/** Splits a --nets value ("SDA,SCL" — commas separate, spaces around names are dropped). */
export function parseNetList(value: string): string[] {
  const names = value.split(',').map((n) => n.trim()).filter((n) => n !== '');
  return [...new Set(names)];
}

/** The names in `wanted` that the board does not have (sorted), for a clear error. */
export function unknownNets(wanted: readonly string[], known: ReadonlyMap<string, number>): string[] {
  return wanted.filter((n) => !known.has(n) || known.get(n) === 0).sort();
}
