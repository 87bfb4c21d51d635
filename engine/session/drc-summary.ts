// The session's view of the DRC: the board with a state's copper added, checked whole or only
// where the session copper is involved, reduced to error-level findings by type with their
// positions and net names. Zone refill is KiCad's; the session checks fills as the file has them.

import { withCopper } from '../board/added-copper.ts';
import type { Design } from '../board/design.ts';
import { checkAdded, runDrc } from '../drc/drc.ts';
import { againstZoneFill } from '../drc/violation.ts';
import type { SessionCopper } from './copper.ts';
import type { DrcSummary } from './session-state.ts';

/**
 * DRC of `design` with `copper` added. `full: false` checks only pairs involving the session
 * copper (what a route can have added); the unconnected count is the whole board's either way.
 * `softZones` leaves findings against zone fills to KiCad's refill, as the router's gate does.
 */
export function sessionDrc(design: Design, copper: SessionCopper, full: boolean, softZones = false): DrcSummary {
  const report = full ? runDrc({ ...design, board: withCopper(design.board, copper.tracks, copper.vias) }) : checkAdded(design, copper.tracks, copper.vias);
  const errors = new Map<string, { at: { x: number; y: number }; nets: string[] }[]>();
  for (const v of report.violations) {
    if (v.severity !== 'error' || (softZones && againstZoneFill(v))) continue;
    let list = errors.get(v.type);
    if (!list) errors.set(v.type, (list = []));
    list.push({ at: v.pos, nets: v.nets });
  }
  return { errors, unconnected: report.unconnected };
}
