// A route's result after a finishing step changed its copper: nets taken back out (length tuning,
// a pair's rules) with their connections open again and the step's reason, or nets laid again (a
// pair coupled); the nets and the summary counted afresh.

import type { NewTrack, NewVia } from '../../board/added-copper.ts';
import type { ConnectionResult, RouteResult, StuckCode } from '../types.ts';

/** Why a net was taken out: the reason's code, and its words for each of its connections. */
export interface TakenOut {
  reason: StuckCode;
  why: (c: ConnectionResult) => string;
}

/** `result` with its tracks regrouped by net and the nets in `out` taken out and left open. */
export function leaveOpen(result: RouteResult, out: ReadonlyMap<number, TakenOut>): RouteResult {
  const connections: ConnectionResult[] = result.connections.map((c) => {
    const o = out.get(c.net);
    return o && c.routed ? { ...c, routed: false, stuck: { reason: o.reason, why: o.why(c), blockers: [], rips: 0, fails: 0, tried: true, at: c.from.at } } : c;
  });
  const open = connections.filter((c) => !c.routed);
  const opened = result.nets.map((n) => (out.has(n.net) ? { ...n, open: n.open + n.routed, routed: 0 } : n));
  const kept = regrouped(
    { ...result, nets: opened },
    result.tracks.filter((t) => !out.has(t.net)),
    result.vias.filter((v) => !out.has(v.net)),
  );
  return { ...kept, connections, open, summary: { ...kept.summary, routed: connections.length - open.length, open: open.length } };
}

/** `result` with `tracks` and `vias` as all its new copper: in net order, each net's own and its
 *  track length counted again, and the summary's copper with them. */
export function regrouped(result: RouteResult, tracks: readonly NewTrack[], vias: readonly NewVia[]): RouteResult {
  // result.nets is in name order (variant-result.ts); a net it does not list goes last, by code.
  const place = new Map(result.nets.map((n, i) => [n.net, i]));
  const at = (net: number) => place.get(net) ?? result.nets.length + net;
  const byNet = <T extends { net: number }>(xs: readonly T[]) =>
    xs
      .map((x, i) => ({ x, i }))
      .sort((a, b) => at(a.x.net) - at(b.x.net) || a.i - b.i)
      .map((e) => e.x);
  const t = byNet(tracks);
  const v = byNet(vias);
  const nets = result.nets.map((n) => {
    const mine = t.filter((x) => x.net === n.net);
    const length = Math.round(mine.reduce((s, x) => s + Math.hypot(x.end.x - x.start.x, x.end.y - x.start.y), 0));
    return { ...n, tracks: mine, vias: v.filter((x) => x.net === n.net), length };
  });
  const length = nets.reduce((s, n) => s + n.length, 0);
  return { ...result, tracks: t, vias: v, nets, summary: { ...result.summary, tracks: t.length, vias: v.length, length } };
}
