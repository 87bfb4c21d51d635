// Nets the router leaves alone: a custom rule it does not model (a skew or track-angle
// constraint, say, or a rule whose condition it cannot read) may govern them, and copper it
// added there could break that rule where its own checks cannot see. Such a net's connections
// stay open with a `rule_not_supported` reason that names the rule; the net is neither planned
// nor searched, so the other nets route as if it had not been asked for.

import type { Pt } from '../../board/model.ts';
import type { ConnItem } from '../negotiate/connectivity.ts';
import type { RouterHost } from '../core/host.ts';
import { padRef, type ConnectionResult, type NetResult, type RouteResult, type StuckReason } from '../types.ts';
import { byNetName } from '../core/net-rank.ts';

/** Net → the sentence saying why the router leaves it alone, for the nets among `nets` that
 *  unmodelled custom rules may govern; empty when the host reports none. */
export function heldNets(host: RouterHost, nets: readonly number[]): Map<number, string> {
  const held = new Map<number, string>();
  const ask = host.rules.unmodelled;
  if (!ask) return held;
  for (const net of nets) {
    const rules = ask(net);
    if (rules.length === 0) continue;
    const r = rules[0];
    const where = r.file ? `rule "${r.rule}" in ${r.file}` : `rule "${r.rule}"`;
    const kinds = r.constraints.join(', ');
    const noun = r.constraints.length === 1 ? `a ${kinds} constraint` : `${kinds} constraints`;
    let why = r.unreadCondition
      ? `Custom ${where} sets ${noun} under a condition the router cannot read, so it may apply to this net`
      : `Custom ${where} sets ${noun} the router does not model`;
    if (rules.length > 1) why += ` (and ${rules.length - 1} more rule${rules.length > 2 ? 's' : ''} like it)`;
    held.set(net, `${why}; route this net by hand.`);
  }
  return held;
}

function dist(a: Pt, b: Pt): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/**
 * A held net's open connections: its pieces (connectivity groups of item indices) that hold a
 * pad, joined nearest first (Prim over pad centres), each ending on the nearest pads.
 */
function heldConnections(host: RouterHost, items: readonly ConnItem[], groups: number[][], net: number, why: string): ConnectionResult[] {
  const pieces = groups.map((g) => g.filter((i) => items[i].pad >= 0).map((i) => items[i].pad)).filter((p) => p.length > 0);
  const out: ConnectionResult[] = [];
  if (pieces.length < 2) return out;
  const nearest = (a: number[], b: number[]): [number, number, number] => {
    let best: [number, number, number] = [a[0], b[0], Infinity];
    for (const i of a)
      for (const j of b) {
        const d = dist(host.pads[i].at, host.pads[j].at);
        if (d < best[2]) best = [i, j, d];
      }
    return best;
  };
  // Prim: best[j] is piece j's distance to the tree, via[j] the tree piece it is nearest to.
  const inTree = new Uint8Array(pieces.length);
  const best = new Float64Array(pieces.length).fill(Infinity);
  const via = new Int32Array(pieces.length);
  inTree[0] = 1;
  for (let j = 1; j < pieces.length; j++) best[j] = nearest(pieces[0], pieces[j])[2];
  for (let k = 1; k < pieces.length; k++) {
    let bj = -1;
    for (let j = 0; j < pieces.length; j++) if (!inTree[j] && (bj < 0 || best[j] < best[bj])) bj = j;
    const bi = via[bj];
    inTree[bj] = 1;
    for (let j = 0; j < pieces.length; j++) {
      if (inTree[j]) continue;
      const d = nearest(pieces[bj], pieces[j])[2];
      if (d < best[j]) {
        best[j] = d;
        via[j] = bj;
      }
    }
    const [pa, pb] = nearest(pieces[bi], pieces[bj]);
    const from = padRef(host.pads[pa]);
    const stuck: StuckReason = { reason: 'rule_not_supported', why, blockers: [], rips: 0, fails: 0, tried: false, at: from.at };
    out.push({ net, netName: host.netNames[net] ?? '', from, to: padRef(host.pads[pb]), routed: false, stuck });
  }
  return out;
}

/** `result` with the held nets' open connections and (empty) net results added, in net order. */
export function withHeldNets(
  host: RouterHost,
  result: RouteResult,
  held: Map<number, string>,
  pieces: Map<number, number[][]>,
  items: readonly ConnItem[],
): RouteResult {
  if (held.size === 0) return result;
  const nets: NetResult[] = [...result.nets];
  const connections: ConnectionResult[] = [...result.connections];
  for (const [net, why] of [...held].sort((a, b) => a[0] - b[0])) {
    const conns = heldConnections(host, items, pieces.get(net) ?? [], net, why);
    nets.push({ net, name: host.netNames[net] ?? '', routed: 0, open: conns.length, tracks: [], vias: [], length: 0 });
    connections.push(...conns);
  }
  // Stable sorts: each net's own order is kept.
  const byName = byNetName(host);
  nets.sort((a, b) => byName(a.net, b.net));
  connections.sort((a, b) => byName(a.net, b.net));
  const open = connections.filter((c) => !c.routed);
  return { ...result, nets, connections, open, summary: { ...result.summary, open: open.length } };
}
