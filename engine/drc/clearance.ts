// Copper clearance between items of different nets, as KiCad's copper-clearance provider counts
// it: one finding per item pair at most (the first common layer that fails), `tracks_crossing`
// when two straight tracks' centre lines meet, `shorting_items` when netted copper touches, else
// `clearance`; then `hole_clearance` from copper to a hole of another item. Zone fills are
// checked against items once per (item, zone, layer). Zone-to-zone clearance is not checked.

import type { Board } from '../board/model.ts';
import { DRC_EPSILON } from '../board/rule-area.ts';
import type { RuleItem, RuleResolver } from '../board/rules.ts';
import { compareDistance } from '../geom/collide.ts';
import { nearest } from '../geom/distance.ts';
import { segmentsIntersect } from '../geom/predicates.ts';
import type { Shape } from '../geom/shapes.ts';
import type { CopperItem, CopperItems } from './copper-items.ts';
import { ViolationSink, type ItemRef } from './violation.ts';
import { mmText } from '../geom/units.ts';

/** KiCad's DRC epsilon: a gap this much under the rule passes. */
export { DRC_EPSILON };

/** Distance below `limit` (nm) between two shapes, with KiCad's epsilon: limit − ε, floor 0. */
export function tooClose(a: Shape, b: Shape, limit: number): boolean {
  if (limit <= 0) return false;
  const t = limit - DRC_EPSILON;
  // A rule within ε of zero still catches copper that touches.
  if (t <= 0) return compareDistance(a, b, 0) === 0;
  return compareDistance(a, b, t) < 0;
}

export function itemRef(it: CopperItem): ItemRef {
  return { kind: it.kind, index: it.ref };
}

/** A pad's clearance override (its own, else its footprint's), nm; undefined if none. Zones'
 *  clearances are not overrides: see pairClearance. */
export function localClearance(board: Board, it: CopperItem): number | undefined {
  if (it.kind !== 'pad') return undefined;
  const pad = board.pads[it.ref];
  const c = pad.clearance ?? board.footprints[pad.footprint]?.clearance;
  return c !== undefined && c > 0 ? c : undefined;
}

/**
 * Clearance required between two items on a layer, nm, as KiCad resolves it: a pad or footprint
 * override wins outright (the larger of two); then a matching custom rule, outright; otherwise
 * the net classes, raised to a zone's own clearance when one of the pair is that zone's fill. So a pad whose footprint asks 0.2 mm
 * beside a fill whose zone asks 0.5 mm needs 0.2 mm (kicad-cli 9 and 10 agree).
 */
export function pairClearance(board: Board, rules: RuleResolver, a: CopperItem, b: CopperItem, layer: number): number {
  const la = localClearance(board, a);
  const lb = localClearance(board, b);
  if (la !== undefined || lb !== undefined) return Math.max(la ?? 0, lb ?? 0);
  let zone = 0;
  for (const it of [a, b]) if (it.kind === 'zone') zone = Math.max(zone, board.zones[it.ref].clearance);
  return rules.clearance(ruleItem(a, layer), ruleItem(b, layer), zone);
}

/** What a rule condition may ask of a copper item on a layer (its net, layer, copper and kind). */
export function ruleItem(it: CopperItem, layer: number): RuleItem {
  return { ...kindOf(it), net: it.net, layer, shape: it.shape, layers: it.layers, ...(it.kind === 'zone' ? { zone: it.ref } : {}) };
}

/** An item's kind as rule conditions ask it (`A.Type`, `A.Pad_Type`, `A.isPlated()`); arcs are
 *  tracks to KiCad. */
export function kindOf(it: CopperItem): Pick<RuleItem, 'kind' | 'padType' | 'viaType'> {
  if (it.kind === 'pad') return { kind: 'pad', padType: it.padType };
  return it.kind === 'via' ? { kind: 'via', viaType: it.viaType } : { kind: it.kind };
}

function inNetTieFootprint(board: Board, it: CopperItem): boolean {
  return it.kind === 'graphic' && it.footprint >= 0 && board.footprints[it.footprint].netTiePadGroups.length > 0;
}

function isNetTie(board: Board, a: CopperItem, b: CopperItem): boolean {
  // A net-tie footprint's copper graphics join nets by design; KiCad checks them against nothing.
  if (inNetTieFootprint(board, a) || inNetTieFootprint(board, b)) return true;
  if (a.footprint < 0 || a.footprint !== b.footprint) return false;
  const fp = board.footprints[a.footprint];
  if (a.kind === 'pad' && b.kind === 'pad') {
    const na = board.pads[a.ref].number;
    const nb = board.pads[b.ref].number;
    if (na === nb && na !== '') return true;
    for (const g of fp.netTiePadGroups) if (g.includes(na) && g.includes(nb)) return true;
    return false;
  }
  // Graphics inside a net-tie footprint may join its pads.
  return fp.netTiePadGroups.length > 0;
}

function firstLayer(mask: number): number {
  return mask === 0 ? -1 : 31 - Math.clz32(mask & -mask);
}

export interface ClearanceOptions {
  /** Only pairs with at least one of these item ids are checked (the router's added copper). */
  scope?: Set<number>;
}

// Tracks and vias: KiCad tests them against everything from their own side (testTrackClearances).
function isTrackLike(it: CopperItem): boolean {
  return it.kind === 'track' || it.kind === 'via';
}

function popCount(mask: number): number {
  let n = 0;
  for (let m = mask >>> 0; m !== 0; m &= m - 1) n++;
  return n;
}

/**
 * Runs the copper and hole clearance checks over every near pair of items. As kicad-cli does
 * without --all-track-errors, a track stops at its first finding against another item (a via
 * at its first per layer), and a pair found in error is not tested again from its other side;
 * zone fills are tested apart and are not limited so. Pads and graphics are tested against
 * each other pairwise; their pairs with tracks are left to the track's side.
 */
export function checkClearance(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, opts: ClearanceOptions = {}): void {
  const board = copper.board;
  const items = copper.items;
  const wantCopper = sink.wants('clearance') || sink.wants('shorting_items') || sink.wants('tracks_crossing');
  const wantHoles = sink.wants('hole_clearance');
  if (!wantCopper && !wantHoles) return;
  const zoneSeen = new Set<string>();
  // Track-like pairs already tested (from either side), keyed by "low:high" item ids.
  const tested = new Set<string>();
  const margin = Math.max(rules.maxClearance(), rules.minimums.holeClearance);
  const scope = opts.scope;
  let sources = items.map((it) => it.id);
  if (scope) {
    // A scoped run also replays the board's own tracks and vias near the new copper, silently,
    // so that each spends its one finding as it would in a full run.
    const set = new Set(scope);
    for (const i of scope) for (const j of copper.near(items[i].hole ?? items[i].shape, margin)) if (isTrackLike(items[j])) set.add(j);
    sources = [...set].sort((x, y) => x - y);
  }
  // Findings between two of the board's own items go here and are dropped.
  const silent = new ViolationSink(board, sink.rules);
  for (const i of sources) {
    const a = items[i];
    const aTrack = isTrackLike(a);
    let budget = a.kind === 'via' ? popCount(a.layers) : 1;
    for (const j of copper.near(a.hole ?? a.shape, margin)) {
      if (j === i) continue;
      const b = items[j];
      if (a.kind === 'zone' && b.kind === 'zone') continue;
      if (a.net === b.net) continue;
      const bTrack = isTrackLike(b);
      const limited = aTrack && b.kind !== 'zone';
      if (limited) {
        if (budget === 0) continue;
        if (bTrack) {
          const key = i < j ? `${i}:${j}` : `${j}:${i}`;
          if (tested.has(key)) continue;
          tested.add(key);
        }
      } else if (bTrack && a.kind !== 'zone') {
        continue;
      } else if (scope ? scope.has(j) && j < i : j < i) {
        continue;
      }
      const out = !scope || scope.has(i) || scope.has(j) ? sink : silent;
      if (out === silent && !limited) continue;
      const tie = isNetTie(board, a, b);
      let found = false;
      if (wantCopper && !tie) found = copperPair(copper, rules, out, a, b, zoneSeen);
      const zone = a.kind === 'zone' ? a : b.kind === 'zone' ? b : null;
      if (zone && wantHoles) {
        // KiCad tests an item's hole against each zone fill layer as well as its copper, so a
        // copper finding against the fill does not stand in for the hole's.
        const holed = zone === a ? b : a;
        const key = `${holed.id}:${zone.ref}:${zone.layer}:hole`;
        if (holed.hole && !zoneSeen.has(key) && holePair(rules, out, zone, holed)) zoneSeen.add(key);
      } else if (!found && wantHoles && a.footprint !== b.footprint) {
        if (a.hole) found = holePair(rules, out, b, a);
        if (!found && b.hole) found = holePair(rules, out, a, b);
      }
      if (found && limited) budget--;
    }
  }
}

// Copper against copper on the common layers; reports at most one finding. True when reported.
function copperPair(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, a: CopperItem, b: CopperItem, zoneSeen: Set<string>): boolean {
  const board = copper.board;
  let common = (a.layers & b.layers) >>> 0;
  while (common !== 0) {
    const layer = firstLayer(common);
    common = (common & ~(1 << layer)) >>> 0;
    if (a.kind === 'track' && b.kind === 'track' && a.shape.kind === 'segment' && b.shape.kind === 'segment') {
      const s = a.shape;
      const t = b.shape;
      if (segmentsIntersect(s.ax, s.ay, s.bx, s.by, t.ax, t.ay, t.bx, t.by)) {
        const n = nearest(a.shape, b.shape);
        sink.add('tracks_crossing', 'Tracks crossing', { x: n.ax, y: n.ay }, [a.net, b.net], [itemRef(a), itemRef(b)]);
        return true;
      }
    }
    const zone = a.kind === 'zone' ? a : b.kind === 'zone' ? b : null;
    if (zone) {
      const other = zone === a ? b : a;
      const key = `${other.id}:${zone.ref}:${layer}`;
      if (zoneSeen.has(key)) continue;
      const c = pairClearance(board, rules, a, b, layer);
      if (tooClose(a.shape, b.shape, c)) {
        zoneSeen.add(key);
        report(sink, 'clearance', c, a, b);
        return true;
      }
      continue;
    }
    const c = pairClearance(board, rules, a, b, layer);
    if (!tooClose(a.shape, b.shape, c)) continue;
    const touching = compareDistance(a.shape, b.shape, 0) === 0;
    report(sink, touching && shorts(a) && shorts(b) ? 'shorting_items' : 'clearance', c, a, b);
    return true;
  }
  return false;
}

// Copper of `a` against the hole of `h`.
function holePair(rules: RuleResolver, sink: ViolationSink, a: CopperItem, h: CopperItem): boolean {
  if (!h.hole) return false;
  const layer = firstLayer(a.layers);
  if (layer < 0) return false;
  const c = rules.holeClearance(ruleItem(a, layer), ruleItem(h, layer));
  // With no hole clearance at all KiCad still reports a track or pad over the hole ("actual <
  // 0"), but not a zone fill (kicad-cli 9: a via dropped into a fill, sonde-xilinx's bad-via).
  if (c <= 0 ? a.kind === 'zone' || compareDistance(a.shape, h.hole, 0) !== 0 : !tooClose(a.shape, h.hole, c)) return false;
  const n = nearest(a.shape, h.hole);
  sink.add(
    'hole_clearance',
    `Hole clearance violation (clearance ${mmText(c)}; actual ${mmText(n.distance)})`,
    { x: n.ax, y: n.ay },
    [a.net, h.net],
    [itemRef(a), itemRef(h)],
  );
  return true;
}

// Copper that touches another net's is a short when both are netted, or a pad of no net (an NPTH
// with a copper ring is one: KiCad 9 and 10 report a track across it as shorting_items).
function shorts(it: CopperItem): boolean {
  return it.net > 0 || it.kind === 'pad';
}

function report(sink: ViolationSink, type: 'clearance' | 'shorting_items', c: number, a: CopperItem, b: CopperItem): void {
  const n = nearest(a.shape, b.shape);
  const text = type === 'shorting_items' ? 'Items shorting two nets' : `Clearance violation (clearance ${mmText(c)}; actual ${mmText(n.distance)})`;
  sink.add(type, text, { x: (n.ax + n.bx) / 2, y: (n.ay + n.by) / 2 }, [a.net, b.net], [itemRef(a), itemRef(b)]);
}
