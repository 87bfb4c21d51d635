// Net length rules as KiCad's DRC judges them: `length_out_of_range`, `skew_out_of_range` and
// `too_many_vias`. Each track, arc and via is matched to the last custom rule that sets the
// constraint for it (the item alone, on its layer; pads too, so a net with no copper yet has
// length 0); per rule and net, the matched tracks' length plus each via's length through the
// board (stackup.ts) is the net's length, and the vias are counted.

import type { Board, Pt } from '../board/model.ts';
import type { CustomRule, RuleConstraint, RuleResolver } from '../board/rules.ts';
import { viaSpanLength } from '../board/stackup.ts';
import { diffPairOf } from '../board/diff-pairs.ts';
import { trackLength } from '../geom/arc.ts';
import { judgedByKicad10 } from '../board/kicad-version.ts';
import { CopperItems } from './copper-items.ts';
import { connect } from './connectivity.ts';
import type { Design } from '../board/design.ts';
import { bbox, circle } from '../geom/shapes.ts';
import { overlaps } from '../geom/collide.ts';
import type { ItemRef, ViolationSink } from './violation.ts';
import { mmText } from '../geom/units.ts';

/** What KiCad measures of one net's items under one rule, nm. */
export interface NetLength {
  net: number;
  /** Tracks and arcs. */
  track: number;
  /** Vias through the board. */
  via: number;
  total: number;
  vias: number;
  tracks: number[];
  viaItems: number[];
  pads: number[];
}

type Kind = 'length' | 'skew' | 'via_count';
const KINDS: readonly Kind[] = ['length', 'skew', 'via_count'];

/**
 * The copper layers a via joins, top and bottom, for its length, and how far the tracks that end
 * on it stop short of its centre. KiCad 9.0 asks its connectivity: the layers on which a track or
 * pad of the via's net meets it (a track's end on the via or the via's centre on the track; the
 * via's centre in the pad). KiCad 10 asks the tracks that end on the via: one is a stub (no
 * length) unless the via sits in a pad without that track's layer; none, the connectivity.
 * Either way a single layer adds no length.
 */
function viaSpan(copper: CopperItems, via: number, kicad10: boolean): { span: [number, number]; offCentre: number } {
  const board = copper.board;
  const v = board.vias[via];
  const vi = copper.items[copper.viaItem[via]];
  const centre = circle(v.at.x, v.at.y, 1);
  const onVia = (p: Pt) => (p.x - v.at.x) ** 2 + (p.y - v.at.y) ** 2 <= (v.size / 2) ** 2;
  let met = 0;
  let ending = 0;
  let endLayers = 0;
  let offCentre = 0;
  let inPad = -1;
  for (const id of copper.index.query(bbox(vi.shape))) {
    const it = copper.items[id];
    if (it.net !== vi.net || (it.kind !== 'track' && it.kind !== 'pad')) continue;
    const layers = it.layers & vi.layers;
    if (layers === 0) continue;
    if (it.kind === 'track') {
      const t = board.tracks[it.ref];
      const end = onVia(t.start) ? t.start : onVia(t.end) ? t.end : null;
      if (end) {
        ending++;
        endLayers |= layers;
        offCentre += Math.hypot(end.x - v.at.x, end.y - v.at.y);
      } else if (!overlaps(it.shape, centre)) continue;
    } else {
      if (!overlaps(it.shape, centre)) continue;
      const p = board.pads[it.ref];
      if (p.at.x === v.at.x && p.at.y === v.at.y) inPad = it.ref;
    }
    met |= layers;
  }
  const span = (mask: number): [number, number] => (mask === 0 ? [v.layerFrom, v.layerFrom] : [firstLayer(mask), 31 - Math.clz32(mask)]);
  if (!kicad10 || ending === 0) return { span: span(met), offCentre };
  if (ending === 1) {
    const line = firstLayer(endLayers);
    const pad = inPad >= 0 ? board.pads[inPad] : undefined;
    if (pad && !((pad.layers >>> line) & 1)) return { span: [line, firstLayer(pad.layers)], offCentre };
  }
  return { span: span(endLayers), offCentre };
}

function firstLayer(mask: number): number {
  return mask === 0 ? 0 : 31 - Math.clz32(mask & -mask);
}

/** One net's items measured as KiCad measures them. */
export function measureNet(
  copper: CopperItems,
  net: number,
  tracks: number[],
  vias: number[],
  pads: number[] = [],
  kicad10 = judgedByKicad10(copper.board),
): NetLength {
  const board = copper.board;
  let track = 0;
  for (const t of tracks) track += trackLength(board.tracks[t]);
  let via = 0;
  for (const v of vias) {
    const { span, offCentre } = viaSpan(copper, v, kicad10);
    via += viaSpanLength(board, span[0], span[1], kicad10);
    // KiCad 10 runs a track that ends off a via's centre on to it (measured: 0.1 mm off adds 0.1 mm).
    if (kicad10) track += offCentre;
  }
  track = Math.round(track);
  return { net, track, via, total: track + via, vias: vias.length, tracks, viaItems: vias, pads };
}

interface NetItems {
  tracks: number[];
  vias: number[];
  pads: number[];
}

interface Group {
  rule: CustomRule;
  constraint: RuleConstraint;
  byNet: Map<number, NetItems>;
}

/** Per constraint kind, the rules that govern some item and each net's items under them, in file
 *  order; nets ascending. `nets` of each item as the DRC resolved them. */
export function lengthGroups(board: Board, rules: RuleResolver, trackNet: (t: number) => number, viaNet: (v: number) => number): Map<Kind, Group[]> {
  const out = new Map<Kind, Group[]>();
  if (!rules.custom.some((r) => r.constraints.some((c) => (KINDS as readonly string[]).includes(c.kind)))) return out;
  for (const kind of KINDS) {
    const groups = new Map<CustomRule, Group>();
    const put = (net: number, layer: number, add: (g: NetItems) => void) => {
      // Items of no net are matched too (a rule on NetClass 'Default' takes them).
      if (net < 0) return;
      const hit = rules.netConstraint(kind, net, layer);
      if (!hit) return;
      let g = groups.get(hit.rule);
      if (!g) groups.set(hit.rule, (g = { rule: hit.rule, constraint: hit.constraint, byNet: new Map() }));
      let n = g.byNet.get(net);
      if (!n) g.byNet.set(net, (n = { tracks: [], vias: [], pads: [] }));
      add(n);
    };
    board.tracks.forEach((t, i) => put(trackNet(i), t.layer, (n) => n.tracks.push(i)));
    // A via is asked on its top layer and a pad on its footprint's side (whatever layers the
    // pad itself has), as KiCad asks them.
    const last = board.copperLayers.length - 1;
    board.vias.forEach((v, i) => put(viaNet(i), v.layerFrom, (n) => n.vias.push(i)));
    board.pads.forEach((p, i) =>
      put(p.net, board.footprints[p.footprint]?.side === 'back' ? last : p.footprint >= 0 ? 0 : firstLayer(p.layers), (n) => n.pads.push(i)),
    );
    const list = [...groups.values()].sort((a, b) => a.rule.order - b.rule.order);
    for (const g of list) g.byNet = new Map([...g.byNet].sort((a, b) => a[0] - b[0]));
    if (list.length > 0) out.set(kind, list);
  }
  return out;
}

/** Where KiCad puts the marker of a net's finding: on one of its items. */
function anchor(board: Board, m: NetLength): { pos: Pt; items: ItemRef[] } {
  const items: ItemRef[] = [
    ...m.pads.map((index) => ({ kind: 'pad' as const, index })),
    ...m.tracks.map((index) => ({ kind: 'track' as const, index })),
    ...m.viaItems.map((index) => ({ kind: 'via' as const, index })),
  ];
  const pos = m.pads.length > 0 ? board.pads[m.pads[0]].at : m.tracks.length > 0 ? board.tracks[m.tracks[0]].start : board.vias[m.viaItems[0]].at;
  return { pos, items };
}

/**
 * Length, skew and via count findings. `scope`: only rules governing one of these nets are
 * judged (a skew rule then for all its nets, since one net's new copper moves the others' skew).
 */
export function checkNetLengths(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, scope?: Set<number>): void {
  const board = copper.board;
  const netOf = (id: number) => copper.items[id].net;
  const groups = lengthGroups(
    board,
    rules,
    (t) => netOf(copper.trackItem[t]),
    (v) => netOf(copper.viaItem[v]),
  );
  const kicad10 = judgedByKicad10(board);
  for (const kind of KINDS) {
    for (const g of groups.get(kind) ?? []) {
      if (scope && ![...g.byNet.keys()].some((n) => scope.has(n))) continue;
      const measured = [...g.byNet].map(([net, it]) => measureNet(copper, net, it.tracks, it.vias, it.pads, kicad10));
      const c = g.constraint;
      const name = g.rule.name;
      if (kind === 'length') {
        for (const m of measured) {
          if (scope && !scope.has(m.net)) continue;
          const low = c.min !== undefined && m.total < c.min;
          const high = !low && c.max !== undefined && m.total > c.max;
          if (!low && !high) continue;
          const bound = low ? `min length ${mmText(c.min!)}` : `max length ${mmText(c.max!)}`;
          const { pos, items } = anchor(board, m);
          sink.add('length_out_of_range', `Track length out of range (rule '${name}' ${bound}; actual ${mmText(m.total)})`, pos, [m.net], items, {
            length: { net: m.net, rule: name, actual: m.total, min: c.min, opt: c.opt, max: c.max },
          });
        }
      } else if (kind === 'via_count') {
        for (const m of measured) {
          if (scope && !scope.has(m.net)) continue;
          if (c.max === undefined || m.vias <= c.max) continue;
          const { pos, items } = anchor(board, m);
          sink.add('too_many_vias', `Too many vias on a connection (rule '${name}' max count ${c.max}; actual ${m.vias})`, pos, [m.net], items);
        }
      } else if (c.max !== undefined) {
        for (const set of skewSets(board, measured, c.withinDiffPairs === true)) {
          let target = set[0];
          for (const m of set) if (m.total > target.total) target = m;
          for (const m of set) {
            const skew = m.total - target.total;
            if (Math.abs(skew) <= c.max) continue;
            const { pos, items } = anchor(board, m);
            const from = board.nets[target.net]?.name ?? '';
            sink.add(
              'skew_out_of_range',
              `Skew between tracks out of range (rule '${name}' max skew ${mmText(c.max)}; actual ${mmText(skew)}; target net length ${mmText(target.total)} (from ${from}); actual ${mmText(m.total)})`,
              pos,
              [m.net],
              items,
              { skew: { net: m.net, rule: name, actual: m.total, target: target.total, targetNet: target.net, max: c.max } },
            );
          }
        }
      }
    }
  }
}

/** The sets of nets matched to each other: all the rule's nets, or each differential pair's two. */
function skewSets(board: Board, measured: NetLength[], withinPairs: boolean): NetLength[][] {
  if (!withinPairs) return measured.length > 0 ? [measured] : [];
  const byBase = new Map<string, NetLength[]>();
  for (const m of measured) {
    const base = diffPairOf(board.nets[m.net]?.name ?? '', board.netByName)?.base;
    if (base === undefined) continue;
    let l = byBase.get(base);
    if (!l) byBase.set(base, (l = []));
    l.push(m);
  }
  return [...byBase.values()].filter((l) => l.length === 2);
}

/**
 * Each of `nets` measured whole as KiCad's DRC would measure it under a rule that takes all its
 * tracks, vias and pads: for reports (the session's inspect_net, the pairs benchmark).
 */
export function measureNets(design: Design, nets: readonly number[]): Map<number, NetLength> {
  const { board, rules } = design;
  const copper = new CopperItems(board, Math.max(rules.maxClearance(), rules.minimums.holeClearance));
  copper.applyNets(connect(copper).nets);
  const items = new Map<number, NetItems>(nets.map((n) => [n, { tracks: [], vias: [], pads: [] }]));
  board.tracks.forEach((_, i) => items.get(copper.items[copper.trackItem[i]].net)?.tracks.push(i));
  board.vias.forEach((_, i) => items.get(copper.items[copper.viaItem[i]].net)?.vias.push(i));
  board.pads.forEach((p, i) => items.get(p.net)?.pads.push(i));
  const out = new Map<number, NetLength>();
  for (const [net, it] of items) out.set(net, measureNet(copper, net, it.tracks, it.vias, it.pads));
  return out;
}
