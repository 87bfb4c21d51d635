// How an action's end reads to a KiCad user: which results are outcomes of normal work (the
// launcher exits 0 and the message says what happened) and which are faults (exit 1: no API, no
// runtime, a crash), and the message's shape: one short first line, then details, one per line,
// in KiCad's own words (ratsnest, unrouted, DRC). It decides nothing about routing.

/** Results a user meets in normal work. Every other code is a fault the message explains. */
export const OUTCOME_CODES: ReadonlySet<string> = new Set([
  'routed',
  'cancelled',
  'nothing_selected',
  'no_nets',
  'unknown_nets',
  'already_routed',
  'not_routed',
  'refused',
  'board_changed',
  'busy',
  'route_running',
  'cancel_asked',
  'nothing_running',
  'checked',
  'summary',
  'panel',
]);

/** The launcher's exit status for a result code: 0 for an outcome, 1 for a fault. */
export function exitCode(code: string): 0 | 1 {
  return OUTCOME_CODES.has(code) ? 0 : 1;
}

/** "3 nets", "1 net": a count with its noun, plural when not one. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A message: the short first line, then the details that are not empty, one per line. */
export function message(first: string, ...details: (string | false | undefined)[]): string {
  return [first, ...details.filter((d): d is string => typeof d === 'string' && d !== '')].join('\n');
}

/** Seconds for a person, from milliseconds: "0.4 s", "12 s", "3 min 5 s". */
export function seconds(ms: number): string {
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

/** What a user needs to know to work with copper written locked (KiCad's selection filter leaves it out). */
export function lockedNote(settingsFile: string): string {
  return (
    'The new copper is locked, so a later route or push-and-shove leaves it in place. To select it, turn on "Locked items" in the ' +
    'selection filter; to edit it, select it and press L (Toggle Lock) or right-click ▸ Locking ▸ Unlock. To have new copper written ' +
    `unlocked, set "lock_new_copper": false in ${settingsFile}`
  );
}

/** The nets left out because KiCad's selection filter skips locked footprints. */
export function lockedFootprintsNote(nets: readonly string[]): string {
  const shown = nets.slice(0, 6).join(', ') + (nets.length > 6 ? `, and ${nets.length - 6} more` : '');
  return (
    `Not routed: ${count(nets.length, 'net')} with unrouted connections whose pads all sit on locked footprints, which the selection ` +
    `filter leaves out (${shown}). Turn on "Locked items" in the selection filter and select them to route them too`
  );
}

/** A sentence of the message: a capital first letter, and one full stop at its end whatever the
 *  quoted text ended in (no "…." or ".)."). */
export function sentence(text: string): string {
  let t = text.trim().replace(/[.…]+$/, '');
  if (/[.…]\)$/.test(t)) t = `${t.slice(0, -2)})`;
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}.`;
}
