// A change as a transaction: every tool that makes copper (route, route_connection, place_via)
// keeps its new state only as verify and commit allow. Judged here: the DRC errors the change
// adds (pairs involving session copper, before against after), the copper it puts inside
// another net's reservation, and, for routing tools, whether fewer connections stay open.

import { circle, overlaps, rect, segment } from '../geom/index.ts';
import { type Reservation, routeOptions } from '../route/index.ts';
import { type SessionCopper, copperDigest } from './copper.ts';
import { nmToMm } from '../geom/units.ts';
import type { DrcSummary, SessionState, StateNote } from './session-state.ts';
import { currentOpen } from './tools-look.ts';
import type { AddedErrors, PointMm } from './results.ts';
import type { StateCall } from './states.ts';

export type Verify = 'refuse' | 'report' | 'off';

/** Error-level DRC types whose count grew from `before` to `after`, with up to five new examples. */
export function addedErrors(before: DrcSummary, after: DrcSummary): AddedErrors {
  const out = [];
  for (const type of [...after.errors.keys()].sort()) {
    const a = after.errors.get(type)!;
    const b = before.errors.get(type) ?? [];
    if (a.length <= b.length) continue;
    const old = new Set(b.map((v) => `${v.at.x},${v.at.y}`));
    const fresh = a.filter((v) => !old.has(`${v.at.x},${v.at.y}`));
    out.push({
      type,
      count: a.length - b.length,
      examples: fresh.slice(0, 5).map((v) => ({ nets: v.nets, at_mm: [nmToMm(v.at.x), nmToMm(v.at.y)] satisfies PointMm })),
    });
  }
  return out;
}

/** The reservations in force in the current state. */
export function reservations(s: SessionState): readonly Reservation[] {
  return s.states.current.note?.reserved ?? [];
}

/** New copper of other nets that enters a reservation: `net@[box]` for each reservation broken. */
export function breaches(s: SessionState, added: SessionCopper, held: readonly Reservation[] = reservations(s)): string[] {
  const out: string[] = [];
  for (const r of held) {
    const box = rect(r.minX, r.minY, r.maxX, r.maxY);
    const on = (l: number) => !r.layers || r.layers.includes(l);
    const hit =
      added.tracks.some((t) => t.net !== r.net && on(t.layer) && overlaps(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), box)) ||
      added.vias.some(
        (v) =>
          v.net !== r.net &&
          [...Array(v.layerTo - v.layerFrom + 1).keys()].some((k) => on(v.layerFrom + k)) &&
          overlaps(circle(v.at.x, v.at.y, v.size / 2), box),
      );
    if (hit) out.push(`${s.names.netName(r.net)}@[${[r.minX, r.minY, r.maxX, r.maxY].map(nmToMm).join(', ')}]`);
  }
  return out;
}

export interface Verdict {
  committed: boolean;
  reason?: string;
  state: number;
  /** Open connections before the change and in its copper (whether kept or not). */
  openBefore: number;
  openAfter: number;
  added_errors: AddedErrors | null;
  breaks_reservations: string[];
}

/**
 * Keeps or drops the change from the current state to `copper` (`fresh`: what it adds) as verify
 * and commit say. `mustGain`: refused unless fewer connections stay open; `refuse`: a reason
 * found before (refused unless verify is report or off); `softZones`: findings against other
 * nets' zone fills are left to KiCad's refill, as the router's gate leaves them. A kept change
 * is a new state with `note` (reservations carried over unless the note says otherwise).
 */
export function settle(
  s: SessionState,
  call: StateCall,
  copper: SessionCopper,
  fresh: SessionCopper,
  o: { verify?: Verify; commit?: boolean; mustGain: boolean; note: Omit<StateNote, 'open'>; refuse?: string; softZones?: boolean },
): Verdict {
  const st = s.states.current;
  const mode = o.verify ?? 'refuse';
  const openBefore = currentOpen(s).length;
  const openAfter = s.open(copper, copperDigest(copper), true).length;
  let added: AddedErrors | null = null;
  if (mode !== 'off' && s.ports.drc) {
    // Only pairs involving session copper can have changed, so only those are checked.
    const opts = { full: false, softZones: routeOptions({ softZones: o.softZones }).softZones };
    added = addedErrors(s.ports.drc(s.design, st.copper, opts), s.ports.drc(s.design, copper, opts));
  }
  const broken = mode === 'off' ? [] : breaches(s, fresh);
  let reason: string | undefined;
  if (o.commit === false) reason = 'dry_run';
  else if (mode === 'refuse' && o.refuse) reason = o.refuse;
  else if (mode === 'refuse' && o.mustGain && openAfter >= openBefore) reason = 'nothing_routed';
  else if (mode === 'refuse' && added && added.length > 0) reason = 'adds_drc_errors';
  else if (mode === 'refuse' && broken.length > 0) reason = 'breaks_reservation';
  let state = st.id;
  if (!reason) {
    const note: StateNote = { ...(st.note?.reserved ? { reserved: st.note.reserved } : {}), ...o.note, open: openAfter };
    state = s.states.push(call, copper, note).id;
  }
  return { committed: !reason, ...(reason ? { reason } : {}), state, openBefore, openAfter, added_errors: added, breaks_reservations: broken };
}
