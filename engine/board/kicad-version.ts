// Which KiCad's rules the DRC follows for a board. Where KiCad 10 judges differently from KiCad 9
// the engine follows the KiCad that wrote the file: a board in a format newer than KiCad 9's was
// saved by KiCad 10, and is what that KiCad judges (the plugin reads the open board from the
// editor that runs it). A KiCad 9 file later opened in KiCad 10 is judged as KiCad 9 would.

import type { Board } from './model.ts';

/** The file format KiCad 9.0 writes (`(version 20241229)`); KiCad 10.0 writes a later one. */
export const KICAD9_FORMAT = 20241229;

/** True when the board's file is KiCad 10's (or later): its rules below apply. */
export function judgedByKicad10(board: Pick<Board, 'version'>): boolean {
  return board.version > KICAD9_FORMAT;
}
