// One stretch of a differential pair laid as a pair: a connection of the + net and the - net's
// pads beside its ends, its centre line searched as one wide track (pair-centreline.ts) and split
// into the two nets' tracks (pair-body.ts), each cut back off the other net's pads, the way round
// that leaves the shorter fans to the pads. The router joins the pads to it (couple-pairs.ts).

import type { Pt } from '../../board/model.ts';
import type { NewTrack } from '../../board/added-copper.ts';
import { collides } from '../../geom/collide.ts';
import { mmText } from '../../geom/units.ts';
import { segment } from '../../geom/shapes.ts';
import type { HostPad, RouterHost } from '../core/host.ts';
import type { MapOptions } from '../core/obstacle-map.ts';
import type { PathCopper } from '../core/path-geometry.ts';
import { pairBody, trimEnds, type PairBody, type PairGeometry } from './pair-body.ts';
import { searchCentreline, type CentrelineEnd } from './pair-centreline.ts';
import type { ConnectionResult } from '../types.ts';

/** Ends of a pair further apart than this (nm) are not the two pins of one pair's connector. */
export const MAX_ENDS_APART = 5_000_000;
/** Margin (nm) round the pair's pads and first route that its centre line may use. */
const WINDOW_MARGIN = 4_000_000;
/** Work one stretch's centre line (map and searches) may take. */
export const LINE_WORK = 4_000_000;
/** How much further (nm) from its pads than they lie apart a pair's coupled run may begin. */
const FAN_REACH = 2_500_000;
/** How far (nm) a cut across a short jog of the centre line may stray from it: half its step. */
const slackOf = (step: number) => Math.round(step / 2);
/** Finest and coarsest step (nm) of the centre line's grid. */
const MIN_STEP = 20_000;
const MAX_STEP = 50_000;

export const dist = (a: Pt, b: Pt) => Math.hypot(a.x - b.x, a.y - b.y);
export const pin = (p: HostPad) => `${p.ref}.${p.number}`;

/** One stretch of a pair to couple: a connection of the + net and the - net's pads beside its ends. */
export interface Stretch {
  pa: HostPad;
  pb: HostPad;
  na: HostPad;
  nb: HostPad;
}

/** The + net's connections whose two ends each have a - pad beside them (each the other's
 *  nearest, within MAX_ENDS_APART): the stretches the pair runs side by side. */
export function stretchesOf(host: RouterHost, connections: readonly ConnectionResult[], plus: number, minus: number): Stretch[] {
  const pad = (i: number) => host.pads.find((p) => p.index === i)!;
  const padsOf = (net: number) => {
    const ids = new Set<number>();
    for (const c of connections) if (c.net === net) ids.add(c.from.pad).add(c.to.pad);
    return [...ids].sort((a, b) => a - b).map(pad);
  };
  const ps = padsOf(plus);
  const ns = padsOf(minus);
  const nearest = (p: HostPad, among: HostPad[]) => among.reduce<HostPad | undefined>((b, q) => (!b || dist(p.at, q.at) < dist(p.at, b.at) ? q : b), undefined);
  const mate = (p: HostPad) => {
    const n = nearest(p, ns);
    return n && dist(p.at, n.at) <= MAX_ENDS_APART && nearest(n, ps) === p ? n : undefined;
  };
  const out: Stretch[] = [];
  for (const c of connections) {
    if (c.net !== plus) continue;
    const [pa, pb] = [pad(c.from.pad), pad(c.to.pad)];
    const [na, nb] = [mate(pa), mate(pb)];
    if (na && nb && na !== nb) out.push({ pa, pb, na, nb });
  }
  return out;
}

/** Why a pair is left uncoupled when the work left cannot hold its search. */
export const BUDGET_SPENT = "the route's work budget was spent before the pair could be coupled";

/** One stretch's coupled tracks (the centre line split, trimmed off the other net's pads), or why
 *  not; work is the search's, at most `left`. */
export function coupleStretch(
  host: RouterHost,
  st: Stretch,
  geom: PairGeometry,
  clearance: number,
  plus: number,
  minus: number,
  opt: MapOptions,
  left: number,
): { bodies: PairBody[] | string; crossed?: string; work: number } {
  const { pa, pb, na, nb } = st;
  const endOf = (a: HostPad, b: HostPad): CentrelineEnd => ({
    at: { x: Math.round((a.at.x + b.at.x) / 2), y: Math.round((a.at.y + b.at.y) / 2) },
    layers: a.layers & b.layers,
    reach: Math.max(dist(a.at, b.at) / 2, MAX_STEP),
  });
  const from = endOf(pa, na);
  const to = endOf(pb, nb);
  if (from.layers === 0 || to.layers === 0) return { bodies: "the pair's pads at one end lie on different layers", work: 0 };
  const { width, gap } = geom;
  const step = Math.min(MAX_STEP, Math.max(MIN_STEP, Math.round((width + gap) / 8 / 1000) * 1000));
  const margin = WINDOW_MARGIN + dist(from.at, to.at) / 4;
  const pts = [pa, pb, na, nb].map((p) => p.at);
  // Only the stretch's four end pads are the pair's own to the line: it runs over no other pad of
  // either net, where the other net's track beside it would short (the router joins those pads).
  const ends = new Set([pa, pb, na, nb].map((p) => p.index));
  const ask = {
    host: { ...host, pads: host.pads.map((p) => (p.net === plus && !ends.has(p.index) ? { ...p, net: 0 } : p)) },
    profile: {
      key: 'pair',
      net: plus,
      width: Array.from({ length: host.layerCount }, () => 2 * width + gap),
      viaDiameter: 2 * geom.viaDiameter + geom.viaGap,
      // The wide via's hole covers both holes, for hole clearance.
      viaDrill: geom.viaDiameter + geom.viaGap + geom.viaDrill,
      // More than the rules ask by the slack the line's short jogs may be cut straight within
      // (pair-body.ts), and a micrometre: the two tracks' ends are rounded to whole nanometres.
      clearance: clearance + slackOf(step) + 1_000,
    },
    window: {
      minX: Math.min(...pts.map((p) => p.x)) - margin,
      minY: Math.min(...pts.map((p) => p.y)) - margin,
      maxX: Math.max(...pts.map((p) => p.x)) + margin,
      maxY: Math.max(...pts.map((p) => p.y)) + margin,
    },
    step,
    maxWork: LINE_WORK / 8,
    left,
    opt,
  };
  // From midway between the pads where the wide track fits there; else from further out at one
  // end or both (the router fans the pads out to it), the nearer the better.
  const near = (e: CentrelineEnd) => ({ ...e, reach: step });
  const out = (e: CentrelineEnd) => ({ ...e, reach: e.reach + FAN_REACH, away: 2 });
  const found = searchCentreline({
    ...ask,
    tries: [
      { from: near(from), to: near(to) },
      { from: out(from), to: near(to) },
      { from: out(to), to: near(from) },
      { from: out(from), to: out(to) },
    ],
  });
  const work = found.work;
  if (found.spent) return { bodies: BUDGET_SPENT, work };
  // The third try runs from the far end: its line is turned round to run from the near one.
  const line = found.copper && found.tried === 2 ? reversed(found.copper) : found.copper;
  if (!line || line.legs.length === 0)
    return {
      bodies: `no path ${mmText(2 * width + gap, 3)} wide (the pair at ${mmText(width, 3)} width and ${mmText(gap, 3)} gap) with ${mmText(clearance, 3)} clearance was found between its ends`,
      work,
    };
  // Which net runs on which side: the one that leaves its pads the shorter way to the tracks, at
  // either end; each track stops short of the other net's pads, which the router joins round.
  const trimmed = (b: PairBody, leftNet: number): PairBody => {
    const cut = (side: PairBody['left'], net: number) => {
      const [offStart, offEnd] = net === plus ? [na, nb] : [pa, pb];
      const over = (q: HostPad) => (t: NewTrack) => collides(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), q.shape, clearance);
      const clear = trimEnds(side.tracks, over(offStart), over(offEnd));
      return { tracks: clear, vias: side.vias };
    };
    return { left: cut(b.left, leftNet), right: cut(b.right, leftNet === plus ? minus : plus) };
  };
  const fans = (b: PairBody, leftNet: number) => {
    const [lp, rp] =
      leftNet === plus
        ? [
            [pa, pb],
            [na, nb],
          ]
        : [
            [na, nb],
            [pa, pb],
          ];
    const reach = (tracks: NewTrack[], pads: HostPad[]) =>
      tracks.length === 0 ? [Infinity, Infinity] : [dist(pads[0].at, tracks[0].start), dist(pads[1].at, tracks[tracks.length - 1].end)];
    const a = reach(b.left.tracks, lp);
    const c = reach(b.right.tracks, rp);
    return [a[0] + c[0], a[1] + c[1]];
  };
  const bodyP = pairBody(line, geom, plus, minus, slackOf(step));
  const bodyN = pairBody(line, geom, minus, plus, slackOf(step));
  if (!bodyP || !bodyN) return { bodies: `its path bends too tightly for the pair (${mmText(width + gap, 3)} between the tracks' centres)`, work };
  const asP = trimmed(bodyP, plus);
  const asN = trimmed(bodyN, minus);
  const [fp, fn] = [fans(asP, plus), fans(asN, minus)];
  if (fp[0] < fn[0] !== fp[1] < fn[1])
    return {
      bodies: fp[0] + fp[1] <= fn[0] + fn[1] ? [asP, asN] : [asN, asP],
      crossed: `${pin(pa)}–${pin(pb)}: its pads lie in opposite order at the two ends (${pin(pa)} / ${pin(na)} and ${pin(pb)} / ${pin(nb)}), and the router found no way to cross its tracks at either end`,
      work,
    };
  return { bodies: [fp[0] <= fn[0] ? asP : asN], work };
}

function reversed(c: PathCopper): PathCopper {
  return { legs: [...c.legs].reverse().map((l) => ({ ...l, pts: [...l.pts].reverse() })), vias: [...c.vias].reverse() };
}

/** `host` with net `from`'s pads, copper and holes given net `to`'s code: one net to the line. */
export function merged(host: RouterHost, from: number, to: number): RouterHost {
  const re = <T extends { net: number }>(x: T): T => (x.net === from ? { ...x, net: to } : x);
  return { ...host, pads: host.pads.map(re), obstacles: host.obstacles.map(re), holes: host.holes.map(re) };
}
