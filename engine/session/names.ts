// Names at the tool boundary: nets by name, pads as REF.PIN, copper layers by name, and the
// reverse for results. Every name comes from the board, so lookups are exact-match map reads
// and a miss is an `unknown_name` error whose message names the argument, never the value.

import type { Board } from '../board/model.ts';
import { LayerResolver } from '../board/layers.ts';
import { ToolError } from './errors.ts';
import type { End } from './ratsnest.ts';

export class Names {
  readonly #padByName = new Map<string, number>();
  readonly padName: string[];
  readonly layers: LayerResolver;

  constructor(readonly board: Board) {
    this.layers = new LayerResolver(board.copperLayers);
    this.padName = board.pads.map((p) => `${board.footprints[p.footprint]?.reference ?? ''}.${p.number}`);
    // The first pad wins when a footprint repeats a number (a thermal pad split in several).
    this.padName.forEach((n, i) => {
      if (!this.#padByName.has(n)) this.#padByName.set(n, i);
    });
  }

  /** Net code of a name; throws unknown_name (the message says which argument). */
  net(tool: string, key: string, name: string): number {
    const code = this.board.netByName.get(name);
    if (code === undefined || code === 0)
      throw new ToolError('unknown_name', `${tool}: "${key}" is not a net of this board (see board_info or open_connections)`);
    return code;
  }

  pad(tool: string, key: string, name: string): number {
    const i = this.#padByName.get(name);
    if (i === undefined) throw new ToolError('unknown_name', `${tool}: "${key}" is not a pad of this board (write REF.PIN, e.g. U1.3)`);
    return i;
  }

  layer(tool: string, key: string, name: string): number {
    const i = this.layers.index(name);
    if (i < 0) throw new ToolError('unknown_name', `${tool}: "${key}" is not a copper layer of this board (see board_info)`);
    return i;
  }

  netName(code: number): string {
    return this.board.nets[code]?.name ?? '';
  }

  layerName(i: number): string {
    return this.layers.name(i);
  }

  end(e: End): string {
    return 'pad' in e ? this.padName[e.pad] : 'zone';
  }
}

/** nm → mm rounded to 0.1 µm, for lengths (which are doubles). */
export function lengthMm(nm: number): number {
  return Math.round(nm / 100) / 1e4;
}
