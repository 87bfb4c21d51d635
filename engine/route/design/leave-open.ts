// Nets a finishing step (length tuning, a pair's rules) takes back out of a route: their copper
// goes, their connections are open again with the step's reason, and the nets and the summary
// are counted afresh.

import type { ConnectionResult, RouteResult, StuckCode } from '../types.ts';

/** Why a net was taken out: the reason's code, and its words for each of its connections. */
export interface TakenOut {
  reason: StuckCode;
  why: (c: ConnectionResult) => string;
}

/** `result` with its tracks regrouped by net and the nets in `out` taken out and left open. */
export function leaveOpen(result: RouteResult, out: ReadonlyMap<number, TakenOut>): RouteResult {
  const tracks = result.tracks.filter((t) => !out.has(t.net));
  const vias = result.vias.filter((v) => !out.has(v.net));
  const nets = result.nets.map((n) => {
    const mine = tracks.filter((t) => t.net === n.net);
    const length = Math.round(mine.reduce((s, t) => s + Math.hypot(t.end.x - t.start.x, t.end.y - t.start.y), 0));
    if (!out.has(n.net)) return { ...n, tracks: mine, length };
    return { ...n, tracks: [], vias: [], length: 0, open: n.open + n.routed, routed: 0 };
  });
  const connections: ConnectionResult[] = result.connections.map((c) => {
    const o = out.get(c.net);
    return o && c.routed ? { ...c, routed: false, stuck: { reason: o.reason, why: o.why(c), blockers: [], rips: 0, fails: 0, tried: true, at: c.from.at } } : c;
  });
  const open = connections.filter((c) => !c.routed);
  const length = nets.reduce((s, n) => s + n.length, 0);
  return {
    ...result,
    tracks,
    vias,
    nets,
    connections,
    open,
    summary: { routed: connections.length - open.length, open: open.length, tracks: tracks.length, vias: vias.length, length },
  };
}
