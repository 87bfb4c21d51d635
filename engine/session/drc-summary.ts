// The session's view of the DRC: the board with a state's copper added, checked whole or only
// where the session copper is involved, reduced to error-level findings by type with their
// positions and net names. Zone refill is KiCad's; the session checks fills as the file has them.

import type { Board, Track, Via } from '../board/model.ts';
import { checkAdded, runDrc } from '../drc/drc.ts';
import { againstZoneFill } from '../drc/violation.ts';
import type { Design } from '../kicad/load.ts';
import type { SessionCopper } from './copper.ts';
import type { DrcSummary } from './session.ts';

function asTracks(c: SessionCopper): Omit<Track, 'index'>[] {
  return c.tracks.map((t) => ({ kind: t.mid ? 'arc' : 'segment', start: t.start, end: t.end, ...(t.mid ? { mid: t.mid } : {}), width: t.width, layer: t.layer, net: t.net, locked: !!t.locked, uuid: '', src: -1 }));
}

function asVias(c: SessionCopper): Omit<Via, 'index'>[] {
  return c.vias.map((v) => ({ at: v.at, size: v.size, drill: v.drill, layerFrom: v.layerFrom, layerTo: v.layerTo, type: v.type ?? 'through', net: v.net, locked: !!v.locked, removeUnusedLayers: false, keepEndLayers: false, uuid: '', src: -1 }));
}

/** The board with the session copper appended after its own tracks and vias (a copy; the
 *  board is not changed): what the DRC and the open-connection list judge. */
export function boardWithCopper(b: Board, copper: SessionCopper): Board {
  if (copper.tracks.length === 0 && copper.vias.length === 0) return b;
  return {
    ...b,
    tracks: [...b.tracks, ...asTracks(copper).map((t, k) => ({ ...t, index: b.tracks.length + k }))],
    vias: [...b.vias, ...asVias(copper).map((v, k) => ({ ...v, index: b.vias.length + k }))],
  };
}

/**
 * DRC of `design` with `copper` added. `full: false` checks only pairs involving the session
 * copper (what a route can have added); the unconnected count is the whole board's either way.
 * `softZones` leaves findings against zone fills to KiCad's refill, as the router's gate does.
 */
export function sessionDrc(design: Design, copper: SessionCopper, full: boolean, softZones = false): DrcSummary {
  const report = full ? runDrc({ ...design, board: boardWithCopper(design.board, copper) }) : checkAdded(design, asTracks(copper), asVias(copper));
  const errors = new Map<string, { at: { x: number; y: number }; nets: string[] }[]>();
  for (const v of report.violations) {
    if (v.severity !== 'error' || (softZones && againstZoneFill(v))) continue;
    let list = errors.get(v.type);
    if (!list) errors.set(v.type, (list = []));
    list.push({ at: v.pos, nets: v.nets });
  }
  return { errors, unconnected: report.unconnected };
}
