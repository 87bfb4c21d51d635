// Copper a person would keep: once routing is settled, each committed join's legs are pulled
// tight — staircases of grid steps, zig-zags and pad-entry jogs become the fewest 0/45/90°
// segments the exact checker allows. Leg ends, vias and every point where other copper of the
// net lands stay put, as vertices; widths, vias and the searched grid paths stay as they are.

import type { Pt } from '../../board/model.ts';
import { bbox, collides, orient2d, segment, SpatialIndex } from '../../geom/index.ts';
import type { NetPlan } from '../negotiate/net-plan.ts';
import type { Leg } from '../core/path-geometry.ts';
import type { Join, Router } from '../negotiate/router.ts';

/** True when a track of the net on `layer` from a to b (nm), `width` wide, may be added. */
export type ClearTrack = (layer: number, a: Pt, b: Pt, width: number) => boolean;

/** Work counted per exact test of a candidate segment: a checker query (an index walk over
 *  its reach plus exact distances) takes about as long as this many units of search work
 *  (measured on a 4-layer board of 800 tracks: ~90 µs a test, ~1 µs a unit). */
const CHECK_WORK = 64;

/**
 * Pulls every cleanly pullable leg of a net's joins tight (coordinates nm). `widthOf` gives a
 * leg's track width; `clear` judges a candidate segment. Returns the new joins, or undefined
 * when nothing changed. A candidate that fails leaves the original segments in place.
 */
export function tidyJoins(joins: Join[], widthOf: (leg: Leg) => number, clear: ClearTrack): Join[] | undefined {
  const anchors = anchorsOf(joins);
  let changed = false;
  const out = joins.map((j) => {
    let touched = false;
    const legs = j.copper.legs.map((leg) => {
      const pts = pullLeg(leg, anchors.get(leg.layer) ?? [], widthOf(leg), clear);
      if (pts.length === leg.pts.length && pts.every((p, i) => p.x === leg.pts[i].x && p.y === leg.pts[i].y)) return leg;
      touched = true;
      return { ...leg, pts };
    });
    if (!touched) return j;
    changed = true;
    return { ...j, copper: { legs, vias: j.copper.vias } };
  });
  return changed ? out : undefined;
}

/**
 * Tidies every net in `order` (the routing order, so the result is the same every run) and
 * puts the changed nets' copper back into the committed world, so each later net is judged
 * against the copper as it now stands. `Join.path` keeps the searched grid nodes, so occupancy
 * (stamped from paths) still marks the route as searched, not as pulled: later searches see
 * the old track, while the exact checker, which every kept segment passes, sees the new one.
 * Returns the changed nets' joins as they were searched, for a caller that must put them back.
 * `limit` bounds router.work: no test starts that would pass it, so past it legs keep their
 * searched shape (legal, only not pulled).
 */
export function cleanup(router: Router, order: NetPlan[], limit = Infinity): Map<number, Join[]> {
  const host = router.host;
  // The routing map keeps tracks a class clearance off the board edge where the rules may ask
  // less (obstacle-map.ts); the checker asks only the rules. A pulled segment keeps the map's
  // distance, so cleanup never puts copper nearer the edge than the search would.
  const edges = new SpatialIndex(host.outline.map(bbox), 0);
  const searched = new Map<number, Join[]>();
  let checks = 0;
  for (const plan of order) {
    const route = router.routes.get(plan.net);
    if (!route || route.joins.length === 0) continue;
    const prof = router.profiles[plan.profile];
    const clear: ClearTrack = (layer, a, b, width) => {
      if (router.work + (checks + 1) * CHECK_WORK > limit) return false;
      checks++;
      if (router.checker.track(plan.net, layer, a.x, a.y, b.x, b.y, width)) return false;
      const s = segment(a.x, a.y, b.x, b.y, width);
      const gap = Math.max(host.rules.edgeClearance(plan.net, layer), prof.clearance, 1);
      const box = bbox(s);
      for (const id of edges.query({ minX: box.minX - gap, minY: box.minY - gap, maxX: box.maxX + gap, maxY: box.maxY + gap })) {
        if (collides(s, host.outline[id], gap)) return false;
      }
      return true;
    };
    const joins = tidyJoins(route.joins, (leg) => leg.width ?? prof.width[leg.layer], clear);
    if (!joins) continue;
    searched.set(plan.net, route.joins);
    router.recopper(plan, joins);
  }
  router.work += checks * CHECK_WORK;
  return searched;
}

/** Points per layer where copper of the net lands: every leg's ends and every via (on each
 *  layer it spans), sorted by x then y. A pulled leg keeps each one it passes through. */
function anchorsOf(joins: Join[]): Map<number, Pt[]> {
  const out = new Map<number, Pt[]>();
  const add = (layer: number, p: Pt) => {
    let l = out.get(layer);
    if (!l) out.set(layer, (l = []));
    l.push(p);
  };
  for (const j of joins) {
    for (const leg of j.copper.legs) {
      add(leg.layer, leg.pts[0]);
      add(leg.layer, leg.pts[leg.pts.length - 1]);
    }
    for (const v of j.copper.vias) for (let l = v.from; l <= v.to; l++) add(l, v.at);
  }
  for (const l of out.values()) l.sort((a, b) => a.x - b.x || a.y - b.y);
  return out;
}

/** True when p lies on the closed segment a–b (exact). */
function onSegment(a: Pt, b: Pt, p: Pt): boolean {
  if (p.x < Math.min(a.x, b.x) || p.x > Math.max(a.x, b.x) || p.y < Math.min(a.y, b.y) || p.y > Math.max(a.y, b.y)) return false;
  return orient2d(a.x, a.y, b.x, b.y, p.x, p.y) === 0;
}

/** The leg's points with every anchor lying on it made a vertex, and which vertices are fixed:
 *  the two ends and the anchors. */
function withAnchors(pts: Pt[], anchors: Pt[]): { pts: Pt[]; fixed: boolean[] } {
  const out: Pt[] = [pts[0]];
  const fixed: boolean[] = [true];
  for (let k = 0; k + 1 < pts.length; k++) {
    const a = pts[k];
    const b = pts[k + 1];
    const minX = Math.min(a.x, b.x);
    const maxX = Math.max(a.x, b.x);
    const on: Pt[] = [];
    for (let i = lowerBound(anchors, minX); i < anchors.length && anchors[i].x <= maxX; i++) {
      const p = anchors[i];
      if (onSegment(a, b, p)) on.push(p);
    }
    // Points on a segment are ordered by their (exact, integer) taxicab distance from its start.
    on.sort((p, q) => Math.abs(p.x - a.x) + Math.abs(p.y - a.y) - (Math.abs(q.x - a.x) + Math.abs(q.y - a.y)));
    for (const p of on) {
      const last = out[out.length - 1];
      if (p.x === last.x && p.y === last.y) fixed[fixed.length - 1] = true;
      else if (p.x !== b.x || p.y !== b.y) {
        out.push(p);
        fixed.push(true);
      }
    }
    const isEnd = k + 2 === pts.length;
    const anchored = on.some((p) => p.x === b.x && p.y === b.y);
    out.push(b);
    fixed.push(isEnd || anchored);
  }
  return { pts: out, fixed };
}

function lowerBound(sorted: Pt[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].x < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A leg's points pulled tight between its fixed vertices, collinear runs merged within each
 * span. A fixed vertex stays a vertex even where the leg runs straight through it: copper
 * landing there then meets a track end. KiCad joins a track end to the middle of another
 * track, but judges a short track dangling when both its ends lie within reach of that one
 * track and the far end is nearer that track's ends (TestTrackEndpointDangling, see
 * engine/drc/dangling.ts) — which a pulled branch of one short step can be.
 */
function pullLeg(leg: Leg, anchors: Pt[], width: number, clear: ClearTrack): Pt[] {
  const { pts, fixed } = withAnchors(leg.pts, anchors);
  if (pts.length < 3) return pts;
  const out: Pt[] = [pts[0]];
  let a = 0;
  for (let b = 1; b < pts.length; b++) {
    if (!fixed[b]) continue;
    const from = out.length - 1;
    pullSpan(pts, a, b, leg.layer, width, clear, out);
    const span = merged(out.slice(from));
    out.length = from;
    out.push(...span);
    a = b;
  }
  return out;
}

/**
 * Greedy string pulling over pts[a..b], appending to `out` (which ends with pts[a]): from
 * vertex i, the farthest j whose 1- or 2-segment octilinear connection is clear, shorter in
 * segments than the run it replaces and no longer. The farthest j is found by galloping
 * (i+2, i+3, i+5, i+9, …) then halving: clearance is not monotone in j, but nearly so, and
 * this keeps the tests per vertex logarithmic on long runs.
 */
function pullSpan(pts: Pt[], a: number, b: number, layer: number, width: number, clear: ClearTrack, out: Pt[]): void {
  // Length of the run from a to each vertex, nm (doubles: only compared with slack).
  const run: number[] = [0];
  for (let k = a + 1; k <= b; k++) run.push(run[run.length - 1] + len(pts[k - 1], pts[k]));
  let i = a;
  while (i < b) {
    const prev = out.length >= 2 ? dir(out[out.length - 2], out[out.length - 1]) : -1;
    const attempt = (j: number): Pt[] | undefined => {
      const next = j < b ? dir(pts[j], pts[j + 1]) : -1;
      for (const c of connections(pts[i], pts[j], prev, next)) {
        if (c.length >= j - i) continue;
        let cl = 0;
        let from = pts[i];
        for (const p of c) {
          cl += len(from, p);
          from = p;
        }
        if (cl > run[j - a] - run[i - a] + 1) continue;
        from = pts[i];
        let ok = true;
        for (const p of c) {
          if (!clear(layer, from, p, width)) {
            ok = false;
            break;
          }
          from = p;
        }
        if (ok) return c;
      }
      return undefined;
    };
    let lo = i + 1;
    let best: Pt[] | undefined;
    let hi = b + 1;
    for (let k = 2; ; k = k === 2 ? 3 : 2 * k - 1) {
      const j = Math.min(b, i + k);
      if (j <= lo) break;
      const c = attempt(j);
      if (c) {
        lo = j;
        best = c;
        if (j === b) break;
      } else if (j - i > 2 || j === b) {
        hi = j;
        break;
      }
      // j = i + 2 failing says little about farther j when only a bent connection joins them.
    }
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      const c = mid - i >= 2 ? attempt(mid) : undefined;
      if (c) {
        lo = mid;
        best = c;
      } else hi = mid;
    }
    if (best) {
      out.push(...best);
      i = lo;
    } else {
      out.push(pts[i + 1]);
      i++;
    }
  }
}

function len(p: Pt, q: Pt): number {
  return Math.sqrt((q.x - p.x) ** 2 + (q.y - p.y) ** 2);
}

/** Octilinear direction of p→q as 0..8 (sign pairs), or -1 when p→q is not 0/45/90°. */
function dir(p: Pt, q: Pt): number {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  if (dx !== 0 && dy !== 0 && Math.abs(dx) !== Math.abs(dy)) return -1;
  return (Math.sign(dx) + 1) * 3 + Math.sign(dy) + 1;
}

/** The octilinear ways from p to q (points after p, ending at q): straight when p→q is 0/45/90°,
 *  else diagonal-then-straight and straight-then-diagonal — first the one whose first leg runs
 *  on from `prev` and whose last leg runs into `next` (so the joints merge away). */
function connections(p: Pt, q: Pt, prev: number, next: number): Pt[][] {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  if (dx === 0 || dy === 0 || Math.abs(dx) === Math.abs(dy)) return [[q]];
  const m = Math.min(Math.abs(dx), Math.abs(dy));
  const ddx = Math.sign(dx) * m;
  const ddy = Math.sign(dy) * m;
  const diagFirst = { x: p.x + ddx, y: p.y + ddy };
  const straightFirst = { x: q.x - ddx, y: q.y - ddy };
  const score = (c: Pt) => (dir(p, c) === prev ? 1 : 0) + (dir(c, q) === next ? 1 : 0);
  return score(straightFirst) > score(diagFirst)
    ? [
        [straightFirst, q],
        [diagFirst, q],
      ]
    : [
        [diagFirst, q],
        [straightFirst, q],
      ];
}

/** Drops repeated points and vertices where the polyline runs straight on (exact test); the
 *  first and last points stay. */
function merged(pts: Pt[]): Pt[] {
  const out: Pt[] = [];
  for (const p of pts) {
    const n = out.length;
    if (n && out[n - 1].x === p.x && out[n - 1].y === p.y) continue;
    if (n >= 2) {
      const a = out[n - 2];
      const b = out[n - 1];
      // b lies between a and p on one line.
      if (orient2d(a.x, a.y, b.x, b.y, p.x, p.y) === 0 && onSegment(a, p, b)) {
        out[n - 1] = p;
        continue;
      }
    }
    out.push(p);
  }
  return out;
}
