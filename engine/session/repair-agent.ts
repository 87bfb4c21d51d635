// The baseline scripted agent, driving a session only through its tools (as any agent would):
// route everything once; then, while a round gains, for each open connection: route it alone
// (route_connection, on a grid of its own), then at the narrowest width its reason suggests,
// then, where its ends share no layer, with vias allowed inside the net's pads, then, where the
// fixed copper walls it in on the grid (fixed_walls), off the grid; then rip the copper of the
// nets that fence it inside a box round one end (rip), route it (off the grid where the grid has
// no way past the fixed copper), and route the ripped nets again. A try is kept only if the open count drops, else the session goes back to
// the state before it (restore) and the next try widens: the other end; the blockers ripped
// whole (rip_net); every net's copper in a box twice as wide round each end, then over both ends.

import { type ErrorValue, isErrorValue } from './errors.ts';
import type { BoxMm, PointMm } from './results.ts';
import type { Session } from './session.ts';

/** The one way the agent reaches a session: its tool calls. */
type Tools = Pick<Session, 'call'>;

export interface AgentSummary {
  open_before: number;
  open_after: number;
  rounds: number;
  tries: number;
  kept: number;
  /** Tries kept, by the step that gained (see the steps in repairAgent). */
  kept_by: { alone: number; narrow: number; via_in_pad: number; off_grid: number; box: number; whole_nets: number; wide_box: number; span: number };
  work_used: number;
}

export interface AgentOptions {
  /** Variants of the first plain route. */
  variants?: number;
  /** At most this many blocker nets ripped per try. */
  maxRips?: number;
  maxRounds?: number;
  /** Half the side of the box ripped round a stuck end, mm (the wide box is twice it). */
  boxMm?: number;
}

/** How route_connection is asked to route in a try. */
type RouteHow = { width_mm?: number; options?: { via_in_pad: true }; off_grid?: 'layer' | 'via' };

const spent = (r: object) => isErrorValue(r) && r.error.code === 'limit';

/** A look the agent cannot do without: its failure is the session's, so the agent stops. */
function must<T extends object>(r: T | ErrorValue): T {
  if (isErrorValue(r)) throw new Error(`repair agent: ${r.error.message}`);
  return r;
}

export async function repairAgent(s: Tools, o: AgentOptions = {}): Promise<AgentSummary> {
  const openCount = async () => must(await s.call('board_info', {})).open_connections;
  const before = await openCount();
  const summary: AgentSummary = {
    open_before: before,
    open_after: before,
    rounds: 0,
    tries: 0,
    kept: 0,
    kept_by: { alone: 0, narrow: 0, via_in_pad: 0, off_grid: 0, box: 0, whole_nets: 0, wide_box: 0, span: 0 },
    work_used: 0,
  };
  const half = o.boxMm ?? 2.5;
  const maxRips = o.maxRips ?? 3;
  let out = spent(await s.call('route', o.variants ? { variants: o.variants } : {}));
  for (let round = 0; round < (o.maxRounds ?? 8) && !out; round++) {
    summary.rounds++;
    let gained = false;
    const open = must(await s.call('open_connections', {})).connections;
    for (const c of open) {
      // A zone end is made through its piece's nearest pad (a_pad, b_pad).
      const [ea, eb] = [c.a_pad ?? c.a, c.b_pad ?? c.b];
      const openNow = await openCount();
      if (openNow === 0) break;
      const mark = must(await s.call('board_info', {})).state;
      const blockers = (c.blockers ?? [])
        .map((b) => b.net)
        .filter((n) => n !== c.net)
        .slice(0, maxRips);
      const padA = must(await s.call('inspect_pad', { pad: ea }));
      const padB = must(await s.call('inspect_pad', { pad: eb }));
      const [pa, pb] = [padA.position_mm, padB.position_mm];
      // Ends that share no layer need a via; where none fits beside the pads, one inside a pad
      // of the net may (what people do on a large connector pad).
      const apart = !padA.layers.some((l) => padB.layers.includes(l));
      // The end the reason points at first, then the other end.
      const at = c.at_mm ?? pa;
      const other = Math.hypot(at[0] - pa[0], at[1] - pa[1]) < Math.hypot(at[0] - pb[0], at[1] - pb[1]) ? pb : pa;
      const around = (p: PointMm, h: number): BoxMm => [p[0] - h, p[1] - h, p[0] + h, p[1] + h];
      const span: BoxMm = [Math.min(pa[0], pb[0]) - 1, Math.min(pa[1], pb[1]) - 1, Math.max(pa[0], pb[0]) + 1, Math.max(pa[1], pb[1]) + 1];
      // The narrowest width the rules allow, where the reason suggests a narrower track.
      const narrow = /width_mm ([0-9.]+)/.exec(c.hint ?? '')?.[1];
      const none = async () => [] as string[];
      // Where the fixed copper walls it in on the grid, only a look off the grid can make it, a rip
      // or not.
      const offGrid = { off_grid: apart ? ('via' as const) : ('layer' as const) };
      const afterRip = c.fixed_walls ? offGrid : {};
      const steps: [keyof AgentSummary['kept_by'], () => Promise<string[]>, RouteHow][] = [
        ['alone', none, {}],
        ['narrow', none, narrow ? { width_mm: Number(narrow) } : {}],
        ['via_in_pad', none, { options: { via_in_pad: true } }],
        ['off_grid', none, offGrid],
        ['box', () => ripBox(s, around(at, half), blockers), afterRip],
        ['box', () => ripBox(s, around(other, half), blockers), afterRip],
        ['whole_nets', () => ripNets(s, blockers), afterRip],
        ['wide_box', () => ripBox(s, around(at, 2 * half), undefined), afterRip],
        ['wide_box', () => ripBox(s, around(other, 2 * half), undefined), afterRip],
        ['span', () => ripBox(s, span, undefined), afterRip],
      ];
      for (const [step, rip, how] of steps) {
        if ((step === 'narrow' && !narrow) || (step === 'via_in_pad' && !apart) || (step === 'off_grid' && !c.fixed_walls)) continue;
        const ripped = await rip();
        // A rip that took nothing would only repeat the try alone.
        if (ripped.length === 0 && rip !== none) continue;
        summary.tries++;
        const r1 = await s.call('route_connection', { net: c.net, a: ea, b: eb, ...how });
        // The ripped nets are routed again only when the connection went through: else the try
        // has already failed, and restoring is cheaper than routing them back.
        const kept = !isErrorValue(r1) && r1.committed;
        const r2 = kept && ripped.length ? await s.call('route', { nets: ripped }) : {};
        out = spent(r1) || spent(r2);
        if (kept && (await openCount()) < openNow) {
          gained = true;
          summary.kept++;
          summary.kept_by[step]++;
          break;
        }
        // A mark the session no longer keeps would leave the failed try standing: stop there.
        if (isErrorValue(await s.call('restore', { state: mark }))) out = true;
        if (out) break;
      }
      if (out) break;
    }
    if (!gained) break;
  }
  summary.open_after = await openCount();
  summary.work_used = must(await s.call('board_info', {})).work.used;
  return summary;
}

/** Rips session copper in a box (mm): of `nets` (none when the list is empty), or of every net
 *  when undefined. Returns the nets it took. */
async function ripBox(s: Tools, box: BoxMm, nets: string[] | undefined): Promise<string[]> {
  if (nets?.length === 0) return [];
  const r = await s.call('rip', { box_mm: box, ...(nets ? { nets } : {}) });
  return isErrorValue(r) ? [] : r.nets;
}

async function ripNets(s: Tools, nets: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const n of nets) if (!isErrorValue(await s.call('rip_net', { net: n }))) out.push(n);
  return out;
}
