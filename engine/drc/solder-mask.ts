// KiCad's `solder_mask_bridge`: an opening in the solder mask (a pad's, an untented via's, a mask
// graphic's) that exposes copper of another net, so solder may bridge them. Modelled on KiCad's
// solder-mask provider: items in its order, one finding per item pair and mask side, and a mask
// graphic (no net) takes the net of the first copper seen under it. Mask text is not modelled.

import type { Board } from '../board/model.ts';
import type { RuleResolver } from '../board/rules.ts';
import { compareCore, compareDistance } from '../geom/collide.ts';
import { nearest } from '../geom/distance.ts';
import { bbox, radiusOf, type Shape } from '../geom/shapes.ts';
import { SpatialIndex } from '../geom/spatial-index.ts';
import { CopperItems } from './copper-items.ts';
import { judgedByKicad10 } from '../board/kicad-version.ts';
import type { ItemRef, ViolationSink } from './violation.ts';
import { DEFAULT_MASK_SETUP, maskItems, padMaskExpansion, shapeMaskExpansion, zoneItems, type MaskItem } from './mask-items.ts';

/** KiCad's copper-to-opening and opening-to-opening test: closer than `c` nm; at 0, overlapping
 *  (shapes that only touch do not collide, unless both are plain polygons). */
function collide(a: Shape, b: Shape, c: number): boolean {
  if (c > 0) return compareDistance(a, b, c) < 0;
  if (c < 0) return false;
  for (const x of a.kind === 'compound' ? a.parts : [a]) {
    for (const y of b.kind === 'compound' ? b.parts : [b]) {
      const r = radiusOf(x) + radiusOf(y);
      if (r > 0 ? compareCore(x, y, r) < 0 : compareCore(x, y, 0) === 0) return true;
    }
  }
  return false;
}

/**
 * Reports `solder_mask_bridge` findings into `sink`. With `scope` (CopperItems ids of added
 * copper) only findings that name an added item are reported, with every opening they touch
 * judged as in a full run.
 */
export function checkSolderMask(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, scope?: Set<number>): void {
  if (!sink.wants('solder_mask_bridge')) return;
  const board = copper.board;
  const setup = board.mask ?? DEFAULT_MASK_SETUP;
  const k10 = judgedByKicad10(board);
  const toCopper = rules.minimums.solderMaskToCopper ?? 0;
  const items = maskItems(copper, scope);
  const zones = zoneItems(board);
  let maxExp = 0;
  for (const it of items) maxExp = Math.max(maxExp, it.expansion[0], it.expansion[1]);
  const reach = Math.max(setup.minWidth, toCopper) + 2 * maxExp + 1;

  const { openings, trees } = indexOpenings(items, reach);
  const relevant = scope ? relevantApertures(items, openings, trees) : new Set<number>();
  const wanted = (a: number, b: number) => !scope || items[a].scoped || items[b].scoped || relevant.has(a) || relevant.has(b);

  const claimed = new Set<number>();
  const firstNet = new Map<number, { item: MaskItem; net: number }>();

  const report = (s: number, involved: MaskItem[], nets: number[], a: Shape, b: Shape) => {
    if (scope && !involved.some((it) => it.scoped)) return;
    const n = nearest(a, b);
    const refs: ItemRef[] = involved.map((it) => ({ kind: it.kind, index: it.ref }));
    const what = s === 0 ? 'Front' : 'Rear';
    sink.add(
      'solder_mask_bridge',
      `${what} solder mask aperture bridges items with different nets`,
      { x: (n.ax + n.bx) / 2, y: (n.ay + n.by) / 2 },
      nets.filter((x) => x > 0),
      refs,
    );
  };

  const apertureBridge = (m: number, t: MaskItem, s: number, net: number) => firstOtherCopper(board, k10, firstNet, items[m], 2 * m + s, t, s, net);
  const itemBridge = (it: MaskItem, net: number) => mayShowIn(copper, it, net);

  const passes = (x: number, y: number, s: number): boolean => {
    const a = items[x],
      b = items[y];
    if (b.net > 0 && b.net === a.net) return false;
    if (b.nullAperture) return false;
    if (a.footprint >= 0 && a.footprint === b.footprint && (setup.allowBridgesInFootprints || footprintAllows(board, a))) return false;
    if (a.kind === 'pad' && b.kind === 'pad' && (sameLogicalPad(board, a.ref, b.ref) || sharesNetTie(board, a.ref, b.ref))) return false;
    if (isTieItem(board, a) && (b.net < 0 || tieNets(board, copper, a).has(b.net))) return false;
    if (isTieItem(board, b) && (a.net < 0 || tieNets(board, copper, b).has(a.net))) return false;
    const key = (Math.min(x, y) * items.length + Math.max(x, y)) * 2 + s;
    if (claimed.has(key)) return false;
    claimed.add(key);
    return true;
  };

  for (let x = 0; x < items.length; x++) {
    if (sink.full('solder_mask_bridge')) return;
    const a = items[x];
    for (const s of [0, 1] as const) {
      const bit = 1 << s;
      const asOpening = (a.mask & bit) !== 0 && !a.nullAperture;
      if (!asOpening && !(a.copper & bit)) continue;
      const shapeA = a.shapes[s][0];
      const base = asOpening ? setup.minWidth : toCopper;
      for (const k of trees[s].query(bbox(shapeA))) {
        const y = openings[s][k];
        if (y === x || !wanted(x, y) || !passes(x, y, s)) continue;
        const b = items[y];
        const shapeB = b.shapes[s][0];
        if (!collide(shapeA, shapeB, base + a.expansion[s] + b.expansion[s])) continue;
        if (a.aperture) {
          const c = apertureBridge(x, b, s, b.net);
          if (c) report(s, [a, c, b], [c.net, b.net], shapeA, shapeB);
        } else if (b.aperture) {
          const c = apertureBridge(y, a, s, a.net);
          if (c) report(s, [b, c, a], [c.net, a.net], shapeB, shapeA);
        } else if (itemBridge(b, a.net)) report(s, [a, b], [a.net, b.net], shapeA, shapeB);
      }
      if (!asOpening || (scope && !a.scoped && !relevant.has(x))) continue;
      // Openings against copper zones of the side.
      for (const z of zones) {
        if (!(z.copper & bit)) continue;
        if (a.net >= 0 && z.net === a.net && z.net > 0) continue;
        const c = toCopper + a.expansion[s];
        const hit = z.shapes[s].find((f) => collide(shapeA, f, c));
        if (!hit) continue;
        if (a.aperture && z.net >= 0) {
          const first = apertureBridge(x, z, s, z.net);
          if (first) report(s, [a, first, z], [first.net, z.net], shapeA, hit);
        } else report(s, [a, z], [a.net, z.net], shapeA, hit);
      }
    }
  }
}

/** Openings per side (item indices), indexed by their boxes grown by `reach` nm. */
function indexOpenings(items: MaskItem[], reach: number): { openings: [number[], number[]]; trees: SpatialIndex[] } {
  const openings: [number[], number[]] = [[], []];
  items.forEach((it, i) => {
    for (const s of [0, 1] as const) if (it.mask & (1 << s) && !it.nullAperture) openings[s].push(i);
  });
  const trees = openings.map(
    (ids, s) =>
      new SpatialIndex(
        ids.map((i) => bbox(items[i].shapes[s][0])),
        reach,
      ),
  );
  return { openings, trees };
}

/** Scoped runs: the no-net openings an added item comes near; their history is replayed in full. */
function relevantApertures(items: MaskItem[], openings: [number[], number[]], trees: SpatialIndex[]): Set<number> {
  const relevant = new Set<number>();
  items.forEach((it) => {
    if (!it.scoped) return;
    for (const s of [0, 1] as const) for (const k of trees[s].query(bbox(it.shapes[s][0]))) if (items[openings[s][k]].aperture) relevant.add(openings[s][k]);
  });
  return relevant;
}

/** KiCad's checkMaskAperture: the first copper under a no-net opening names its net (kept in
 *  `firstNet` under `key`, the opening and side); later copper of another net bridges with it,
 *  which is returned. Null when `t` does not bridge. */
function firstOtherCopper(
  board: Board,
  k10: boolean,
  firstNet: Map<number, { item: MaskItem; net: number }>,
  mask: MaskItem,
  key: number,
  t: MaskItem,
  s: number,
  net: number,
): MaskItem | null {
  if (!(t.copper & (1 << s))) return null;
  if (footprintAllows(board, mask)) return null;
  if (k10 && net <= 0) return null;
  const first = firstNet.get(key);
  if (!first) {
    firstNet.set(key, { item: t, net });
    return null;
  }
  if (first.net === net && net >= 0) return null;
  if (mask.footprint >= 0 && t.footprint === mask.footprint) {
    const a = first.item,
      b = t;
    if (a.kind === 'pad' && b.kind === 'pad' && (sameLogicalPad(board, a.ref, b.ref) || sharesNetTie(board, a.ref, b.ref))) return null;
    if (a.kind === 'pad' && b.kind === 'graphic' && tieGroup(board, a.ref) >= 0) return null;
    if (b.kind === 'pad' && a.kind === 'graphic' && tieGroup(board, b.ref) >= 0) return null;
  }
  return first.item;
}

/** KiCad's checkItemMask: may copper of net `net` show in the opening of pad/via `it`? */
function mayShowIn(copper: CopperItems, it: MaskItem, net: number): boolean {
  const board = copper.board;
  if (it.footprint < 0) return true;
  if (footprintAllows(board, it)) return false;
  if (it.kind === 'pad' && tieGroup(board, it.ref) >= 0) {
    if (net < 0 || it.net === net) return false;
    if (tiePads(board, it.ref).some((p) => copper.items[copper.padItem[p]].net === net)) return false;
  }
  return true;
}

/** The item's footprint lets its openings bridge (KiCad's allow_soldermask_bridges). */
function footprintAllows(board: Board, it: MaskItem): boolean {
  return it.footprint >= 0 && !!board.footprints[it.footprint].allowMaskBridges;
}

function sameLogicalPad(board: Board, a: number, b: number): boolean {
  const p = board.pads[a],
    q = board.pads[b];
  return p.footprint === q.footprint && p.number !== '' && p.number === q.number;
}

/** Index of the footprint's net-tie group holding the pad's number, or -1. */
function tieGroup(board: Board, pad: number): number {
  const p = board.pads[pad];
  return board.footprints[p.footprint]?.netTiePadGroups.findIndex((g) => g.includes(p.number)) ?? -1;
}

function sharesNetTie(board: Board, a: number, b: number): boolean {
  const g = tieGroup(board, a);
  return g >= 0 && board.pads[a].footprint === board.pads[b].footprint && tieGroup(board, b) === g;
}

/** The pads of the same footprint in the pad's net-tie group. */
function tiePads(board: Board, pad: number): number[] {
  const g = tieGroup(board, pad);
  if (g < 0) return [];
  const fp = board.footprints[board.pads[pad].footprint];
  return fp.pads.filter((p) => tieGroup(board, p) === g);
}

function isTieItem(board: Board, it: MaskItem): boolean {
  return it.footprint >= 0 && it.kind !== 'zone' && board.footprints[it.footprint].netTiePadGroups.length > 0;
}

/** KiCad's net-tie cache of an item of a net-tie footprint: a pad's group's nets; a graphic's,
 *  every grouped pad's. */
function tieNets(board: Board, copper: CopperItems, it: MaskItem): Set<number> {
  const fp = board.footprints[it.footprint];
  const pads = it.kind === 'pad' ? tiePads(board, it.ref) : fp.pads.filter((p) => tieGroup(board, p) >= 0);
  return new Set(pads.map((p) => copper.items[copper.padItem[p]].net));
}

/** A solder mask opening as the router must respect it: on `side`, copper of any net but `net`
 *  (-1: of every net) keeps `clearance` nm from `shape`. */
export interface MaskOpening {
  side: 0 | 1;
  shape: Shape;
  net: number;
  clearance: number;
}

/**
 * The openings new copper must keep out of: a pad's or untented via's, of its own net, where the
 * mask clearance (solder mask to copper plus expansion) reaches past `copperClearance` (nm, the
 * least copper clearance any net keeps, which the router keeps anyway); a mask graphic's, open
 * to the one net whose copper it already shows, else to none. Footprints that allow bridges are
 * left out, as KiCad leaves them.
 */
export function maskOpenings(board: Board, rules: RuleResolver, copperClearance: number): MaskOpening[] {
  const copper = new CopperItems(board, 0);
  const k10 = judgedByKicad10(board);
  const toCopper = rules.minimums.solderMaskToCopper ?? 0;
  const last = board.copperLayers.length - 1;
  const out: MaskOpening[] = [];
  for (const it of maskItems(copper, undefined, true)) {
    if (it.footprint >= 0 && board.footprints[it.footprint].allowMaskBridges) continue;
    for (const s of [0, 1] as const) {
      if (!(it.mask & (1 << s)) || it.nullAperture) continue;
      const shape = it.shapes[s][0];
      const clearance = toCopper + it.expansion[s];
      if (!it.aperture) {
        if (clearance > copperClearance) out.push({ side: s, shape, net: it.net > 0 ? it.net : -1, clearance });
        continue;
      }
      const nets = new Set<number>();
      const layer = s === 0 ? 0 : last;
      for (const id of copper.near(shape, clearance + 2 * maxExpansion(board))) {
        const c = copper.items[id];
        if (!((c.layers >>> layer) & 1)) continue;
        const net = c.kind === 'graphic' && board.graphics[c.ref].text ? -1 : c.net;
        if (k10 && net <= 0) continue;
        const e = c.kind === 'pad' ? padMaskExpansion(board, c.ref) : c.kind === 'graphic' ? shapeMaskExpansion(board, board.graphics[c.ref].shape) : 0;
        if (collide(shape, c.shape, clearance + e)) nets.add(net);
      }
      const [only] = nets;
      out.push({ side: s, shape, net: nets.size === 1 && only > 0 ? only : -1, clearance });
    }
  }
  return out;
}

function maxExpansion(board: Board): number {
  let m = Math.max(0, (board.mask ?? DEFAULT_MASK_SETUP).padToMask);
  for (const p of board.pads) m = Math.max(m, p.maskMargin ?? 0);
  for (const f of board.footprints) m = Math.max(m, f.maskMargin ?? 0);
  return m;
}
