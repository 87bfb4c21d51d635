// Copper added to a board by the router or a session: its tracks and vias in nm, and the board
// with them appended after its own, which is what the DRC, the open-connection list and the
// render judge. The file writer writes the same items; it does not own them.

import { judgedByKicad10 } from './kicad-version.ts';
import type { Board, Track, Via, ViaType } from './model.ts';

/** A track the router or a session adds: the model's track without what only a file gives it
 *  (uuid, source position) and with its lock optional. */
export type NewTrack = Pick<Track, 'start' | 'end' | 'mid' | 'width' | 'layer' | 'net'> & { locked?: boolean };

/** A via the router or a session adds; a through via unless its type says otherwise. */
export type NewVia = Pick<Via, 'at' | 'size' | 'drill' | 'layerFrom' | 'layerTo' | 'net'> & { type?: ViaType; locked?: boolean };

function modelTrack(t: NewTrack, index: number): Track {
  return {
    kind: t.mid ? 'arc' : 'segment',
    start: t.start,
    end: t.end,
    ...(t.mid ? { mid: t.mid } : {}),
    width: t.width,
    layer: t.layer,
    net: t.net,
    locked: !!t.locked,
    uuid: '',
    src: -1,
    index,
  };
}

/**
 * Whether a new via is one KiCad 10 calls buried: a blind via between inner layers, on a board
 * KiCad 10 wrote. KiCad 10 keeps the type a via was given (a via its file calls blind is "Blind"
 * whichever layers it joins); the plugin gives KiCad 10 such a via as buried, and the file says
 * so too, so that a rule on the via's type judges it alike in the editor, the file and the DRC.
 */
export function buriedIn(board: Pick<Board, 'version' | 'copperLayers'>, v: Pick<NewVia, 'type' | 'layerFrom' | 'layerTo'>): boolean {
  return v.type === 'blind' && judgedByKicad10(board) && v.layerFrom > 0 && v.layerTo < board.copperLayers.length - 1;
}

function modelVia(board: Board, v: NewVia, index: number): Via {
  return {
    at: v.at,
    size: v.size,
    drill: v.drill,
    layerFrom: v.layerFrom,
    layerTo: v.layerTo,
    type: v.type ?? 'through',
    ...(buriedIn(board, v) ? { buried: true } : {}),
    net: v.net,
    locked: !!v.locked,
    removeUnusedLayers: false,
    keepEndLayers: false,
    uuid: '',
    src: -1,
    index,
  };
}

/** The board with `tracks` and `vias` appended after its own (a copy; the board is not changed;
 *  the board itself when there is nothing to add). Added items are numbered on from the board's. */
export function withCopper(board: Board, tracks: readonly NewTrack[], vias: readonly NewVia[]): Board {
  if (tracks.length === 0 && vias.length === 0) return board;
  return {
    ...board,
    tracks: [...board.tracks, ...tracks.map((t, k) => modelTrack(t, board.tracks.length + k))],
    vias: [...board.vias, ...vias.map((v, k) => modelVia(board, v, board.vias.length + k))],
  };
}
