// Length by detour: where a net's straight way is too short for its length rule and the meanders
// beside it find too little room, a designer routes it the long way round. A net of one
// connection left open by its length rule is routed again out to one side of the line between its
// ends and back — through two points beside its ends, or one beside their middle — so far out that
// the way is about as long as the rule wants, with everything else fixed; then it is tuned like
// any other net and kept where it meets its rules.

import type { Design } from '../../board/design.ts';
import type { Pt } from '../../board/model.ts';
import type { NewTrack } from '../../board/added-copper.ts';
import { diffPairOf } from '../../board/diff-pairs.ts';
import { checkAdded } from '../../drc/drc.ts';
import { boxContains, boxOfPoints, circle, distance, inflateBox, segment } from '../../geom/index.ts';
import { gapTolerance, pairCoupling } from '../../drc/pair-coupling.ts';
import type { ConnectionResult, Attempt, RouteResult } from '../types.ts';
import { carried, fixedSession, joined, madeAlone, spent } from '../repair/finish-open.ts';
import { target, tuneLengths } from './tune-length.ts';

/** Shares of the rule's target the way through the points is aimed at: the router's way bends
 *  round what is there, and meanders make up the rest. */
const AIMS = [0.8, 0.7, 0.9, 0.6];
/** How far round its ends and points a detour's track centres may stray, nm: its grid covers
 *  that box, not the board. */
const CORRIDOR_MARGIN = 3_000_000;
/** Two tracks from a joint fold back on each other when the cosine between them passes this
 *  (a 135° turn leaves 45° between them: cos 0.707). */
const FOLDED = 0.75;
/** How many widths from its ends a track's stretch must lie to count as running on another. */
const ENDS_CLEAR = 1.5;
/** Detours routed at most per net or pair. */
const MAX_TRIES = 24;
/** The detour's shapes, in the order tried: out, across and back with square corners (two
 *  points), then out to one point and back (a triangle, for where a square one's corner is held). */
const SHAPES = ['square', 'apex'] as const;
/** The least work one detour is given; none is begun with less left. */
const MIN_DETOUR_WORK = 1_000_000;
/** The share of what is left one detour may spend. */
const DETOUR_SHARE = 4;

/** Routes one connection of a request (the caller's variant, world and all). */
export type ConnectionRoute = (req: Attempt) => RouteResult;

/**
 * `r` (tuned already) with each net left open by its length rule, whose only connection it was,
 * routed again the long way round as above — a pair's two nets together, through points alike,
 * so its skew rule can hold — and tuned; the first detour that meets the rules is kept.
 */
export function detourShort(base: Design, req: Attempt, r: RouteResult, route: ConnectionRoute): RouteResult {
  const { board } = base;
  // A detour's point outside the box of the board's pads would lie off the board or past every part.
  const box = boxOfPoints(board.pads.map((p) => p.at));
  const lone = (c: ConnectionResult) => c.stuck?.reason === 'length_rule' && r.connections.filter((k) => k.net === c.net).length === 1;
  let best = r;
  const done = new Set<number>();
  for (const c of r.open) {
    if (done.has(c.net) || !lone(c)) continue;
    const pair = diffPairOf(board.nets[c.net]?.name ?? '', board.netByName);
    const mate = pair ? r.open.find((k) => k.net === board.netByName.get(pair.partner) && lone(k)) : undefined;
    const group = mate ? [c, mate] : [c];
    for (const k of group) done.add(k.net);
    const want = wanted(base, c.net);
    if (want === undefined) continue;
    let tries = 0;
    const failed = { unrouted: 0, retraced: 0, short: 0 };
    // The points on the ends' own layer first; where another net's copper holds them there, on
    // the others (the l-th of each net's order).
    const layers = group.map((k) => layerOrder(base, k));
    const ways = SHAPES.flatMap((shape) => AIMS.map((aim) => [shape, aim] as const));
    let broke = false;
    detours: for (const [shape, aim] of ways) {
      for (const [side, layer] of [1, -1].flatMap((side) => layers[0].map((_, l) => [side, l] as const))) {
        if (tries >= MAX_TRIES || req.shouldStop?.() === true) break;
        const points = alongside(group, (shape === 'square' ? aside : apex)(c.from.at, c.to.at, aim * want, side));
        if (!box || !points || points.some((ps) => ps.some((p) => !boxContains(box, p.x, p.y)))) continue;
        tries++;
        let next = best;
        let made = true;
        for (const [i, k] of group.entries()) {
          const left = next.budget - next.work;
          if (left < MIN_DETOUR_WORK) {
            // The budget is spent: this try is not counted (its work is), and no other net tries.
            tries--;
            best = { ...best, work: next.work, setup: next.setup };
            broke = true;
            break detours;
          }
          const one = route({
            connection: {
              net: k.net,
              from: k.from.pad,
              to: k.to.pad,
              waypoints: points[i].map((at) => ({ at, layer: layers[i][layer] })),
              corridor: inflateBox(boxOfPoints([k.from.at, k.to.at, ...points[i]])!, CORRIDOR_MARGIN),
            },
            session: fixedSession(req, next),
            work: Math.max(MIN_DETOUR_WORK, Math.floor(left / DETOUR_SHARE)),
            ...carried(req),
          });
          const at = next.connections.find((o) => o.net === k.net && o.from.pad === k.from.pad && o.to.pad === k.to.pad);
          const routed = at !== undefined && madeAlone(one);
          if (!routed || retraces(one.tracks)) {
            if (routed) failed.retraced++;
            else failed.unrouted++;
            next = spent(next, next, one);
            made = false;
            break;
          }
          next = joined(next, at, one);
        }
        const tuned = made ? tuneLengths(base, next) : next;
        if (made && group.every((k) => !tuned.open.some((o) => o.net === k.net)) && tuned.summary.open < best.summary.open) {
          best = uncoupled(base, tuned, new Set(group.map((k) => k.net)));
          break;
        }
        if (made) failed.short++;
        best = { ...best, work: next.work, setup: next.setup };
      }
      if (group.every((k) => !best.open.some((o) => o.net === k.net)) || tries >= MAX_TRIES) break;
    }
    if (tries > 0 && group.some((k) => best.open.some((o) => o.net === k.net))) best = triedText(best, group, tries, failed);
    if (broke) break;
  }
  return best;
}

/** `r` with the open connections of `group` saying what the detours tried for them came to. */
function triedText(
  r: RouteResult,
  group: readonly ConnectionResult[],
  tries: number,
  failed: { unrouted: number; retraced: number; short: number },
): RouteResult {
  const parts = [
    failed.unrouted ? `${failed.unrouted} found no legal way through their points` : '',
    failed.retraced ? `${failed.retraced} ran back over their own copper` : '',
    failed.short ? `${failed.short} were routed but, tuned, still broke the rules` : '',
  ].filter(Boolean);
  const text = ` The long way round was tried ${tries} time${tries === 1 ? '' : 's'}${group.length > 1 ? ', both nets of the pair together' : ''}: ${parts.join('; ')}.`;
  const nets = new Set(group.map((k) => k.net));
  const connections = r.connections.map((c) => (!c.routed && c.stuck && nets.has(c.net) ? { ...c, stuck: { ...c.stuck, why: c.stuck.why + text } } : c));
  return { ...r, connections, open: connections.filter((c) => !c.routed) };
}

/** True when a way runs over itself: a stretch of one of its tracks, away from that track's ends,
 *  lies on another track of the layer, as a way out to a point and back along it would; or two
 *  tracks from one joint fold back on each other (a turn sharper than an octilinear 135°). Such
 *  copper is longer by KiCad's sum of track lengths and by nothing else. */
export function retraces(tracks: readonly NewTrack[]): boolean {
  const same = (p: Pt, q: Pt) => p.x === q.x && p.y === q.y;
  for (let i = 0; i < tracks.length; i++)
    for (let j = 0; j < tracks.length; j++) {
      const a = tracks[i];
      const b = tracks[j];
      if (i === j || a.layer !== b.layer) continue;
      if (runsOn(a, b)) return true;
      if (j < i) continue;
      const joint = same(a.start, b.start) || same(a.start, b.end) ? a.start : same(a.end, b.start) || same(a.end, b.end) ? a.end : undefined;
      if (!joint) continue;
      const p = same(a.start, joint) ? a.end : a.start;
      const q = same(b.start, joint) ? b.end : b.start;
      const dot = (p.x - joint.x) * (q.x - joint.x) + (p.y - joint.y) * (q.y - joint.y);
      if (dot > FOLDED * Math.hypot(p.x - joint.x, p.y - joint.y) * Math.hypot(q.x - joint.x, q.y - joint.y)) return true;
    }
  return false;
}

/** True when a point of track a more than ENDS_CLEAR widths from its ends lies within the two
 *  tracks' half widths of track b's centre line: short jogs and branches meet near their ends only. */
function runsOn(a: NewTrack, b: NewTrack): boolean {
  const len = Math.hypot(a.end.x - a.start.x, a.end.y - a.start.y);
  const skip = ENDS_CLEAR * a.width;
  const near = (a.width + b.width) / 2;
  const centre = segment(b.start.x, b.start.y, b.end.x, b.end.y, 0);
  for (let s = skip; s <= len - skip; s += a.width / 2) {
    const x = a.start.x + ((a.end.x - a.start.x) * s) / len;
    const y = a.start.y + ((a.end.y - a.start.y) * s) / len;
    if (distance(circle(Math.round(x), Math.round(y), 0), centre) < near) return true;
  }
  return false;
}

/** `r` with each pair one of whose nets is in `nets` said to be routed as single tracks, its
 *  share measured again as KiCad measures it. */
function uncoupled(base: Design, r: RouteResult, nets: ReadonlySet<number>): RouteResult {
  if (!r.pairs) return r;
  const pairs = r.pairs.map((p) => {
    if (!nets.has(p.plus) && !nets.has(p.minus)) return p;
    const gap = gapTolerance(base.rules.netClass(p.plus).diffPairGap);
    const share = pairCoupling(
      r.tracks.filter((t) => t.net === p.plus),
      r.tracks.filter((t) => t.net === p.minus),
      gap,
    ).share;
    return { ...p, coupled: false, share, why: 'its nets were too short for its length rules, so each went the long way round as a single track' };
  });
  return { ...r, pairs };
}

/** The length a net's rule wants (engine/drc's finding against it unrouted), or undefined when
 *  no rule asks for a minimum. */
function wanted(base: Design, net: number): number | undefined {
  for (const v of checkAdded(base, [], [], [net]).violations) {
    const l = v.length;
    if (l && l.net === net && l.min !== undefined) return target(l);
  }
  return undefined;
}

/** The board's copper layers, those both ends of a connection lie on first (in stack order). */
function layerOrder(base: Design, c: ConnectionResult): number[] {
  const pads = base.board.pads;
  const both = pads[c.from.pad].layers & pads[c.to.pad].layers;
  const all = base.board.copperLayers.map((l) => l.index);
  return [...all.filter((l) => (both >>> l) & 1), ...all.filter((l) => !((both >>> l) & 1))];
}

/** The detour points of a group (a net, or a pair's first net and its partner) from the first
 *  one's: the partner's are the same corners moved by how far its ends lie from the first's, so
 *  its way runs beside the first one's, on the same side of it at each end. */
function alongside(group: readonly ConnectionResult[], first: Pt[] | undefined): Pt[][] | undefined {
  if (!first) return undefined;
  const [c, mate] = group;
  if (!mate) return [first];
  const d = (p: Pt, q: Pt) => Math.hypot(p.x - q.x, p.y - q.y);
  // The partner's ends matched to the first's by nearness; its points then go in its own order.
  const turned = d(mate.from.at, c.to.at) + d(mate.to.at, c.from.at) < d(mate.from.at, c.from.at) + d(mate.to.at, c.to.at);
  const [nearFrom, nearTo] = turned ? [mate.to.at, mate.from.at] : [mate.from.at, mate.to.at];
  // A corner beside an end moves as that end does; a lone apex, as the two ends do on average.
  const shift = (k: number) =>
    first.length === 1
      ? { x: Math.round((nearFrom.x - c.from.at.x + nearTo.x - c.to.at.x) / 2), y: Math.round((nearFrom.y - c.from.at.y + nearTo.y - c.to.at.y) / 2) }
      : k === 0
        ? { x: nearFrom.x - c.from.at.x, y: nearFrom.y - c.from.at.y }
        : { x: nearTo.x - c.to.at.x, y: nearTo.y - c.to.at.y };
  const its = first.map((p, k) => ({ x: p.x + shift(k).x, y: p.y + shift(k).y }));
  return [first, turned ? its.reverse() : its];
}

/** The point on the perpendicular bisector of a–b, out to `side` (±1), through which a–point–b
 *  is `length` long; undefined when a–b alone is that long already. */
function apex(a: Pt, b: Pt, length: number, side: number): [Pt] | undefined {
  const d = Math.hypot(b.x - a.x, b.y - a.y);
  if (length <= d || d === 0) return undefined;
  const out = Math.sqrt((length / 2) ** 2 - (d / 2) ** 2);
  return [{ x: Math.round((a.x + b.x) / 2 - (side * out * (b.y - a.y)) / d), y: Math.round((a.y + b.y) / 2 + (side * out * (b.x - a.x)) / d) }];
}

/** Two points beside a and b, out to `side` (±1) of a–b square to it, so that a, the two points
 *  and b are `length` long in all: a detour's way out, across and back, with square corners;
 *  undefined when a–b alone is that long already. */
function aside(a: Pt, b: Pt, length: number, side: number): [Pt, Pt] | undefined {
  const d = Math.hypot(b.x - a.x, b.y - a.y);
  if (length <= d || d === 0) return undefined;
  const out = (length - d) / 2;
  const nx = (-side * (b.y - a.y)) / d;
  const ny = (side * (b.x - a.x)) / d;
  const at = (p: Pt): Pt => ({ x: Math.round(p.x + nx * out), y: Math.round(p.y + ny * out) });
  return [at(a), at(b)];
}
