// A differential pair's custom rules as KiCad 9 and 10 judge them: `diff_pair_gap` (each coupled
// stretch's edge gap within the rule's min and max: diff_pair_gap_out_of_range) and
// `diff_pair_uncoupled` (the longer net's track length less its coupled stretches at most the
// max: diff_pair_uncoupled_length_too_long). Coupled stretches are found as pair-coupling.ts finds
// them, with no other copper across them. Items are grouped as KiCad groups them: per pair
// and the rules that set each constraint, an item under both going into the gap rule's group and
// into the group of both; the gap of a group that also has an uncoupled rule is reported only
// when its uncoupled length is too long.

import { diffPairOf } from '../board/diff-pairs.ts';
import type { CustomRule, RuleConstraint, RuleResolver } from '../board/rules.ts';
import { overlaps } from '../geom/collide.ts';
import { circle, segment } from '../geom/shapes.ts';
import { trackLength } from '../geom/arc.ts';
import type { CopperItems } from './copper-items.ts';
import { DRC_EPSILON } from './clearance.ts';
import { joins } from './connectivity.ts';
import { pairCoupling } from './pair-coupling.ts';
import type { ItemRef, ViolationSink } from './violation.ts';
import { mmText } from '../geom/units.ts';

interface Rule {
  rule: CustomRule;
  constraint: RuleConstraint;
}

interface Group {
  plus: number;
  minus: number;
  gap?: Rule;
  uncoupled?: Rule;
  /** Board track indices (arcs too), and vias, per net of the pair. */
  tracksP: number[];
  tracksN: number[];
  viasP: number[];
  viasN: number[];
}

/** The pair groups of the board's tracks and vias under diff-pair rules, in a fixed order. */
function pairGroups(copper: CopperItems, rules: RuleResolver): Group[] {
  const board = copper.board;
  const groups = new Map<string, Group>();
  const pairOf = new Map<number, { plus: number; minus: number } | null>();
  const pair = (net: number) => {
    let p = pairOf.get(net);
    if (p === undefined) {
      const d = diffPairOf(board.nets[net]?.name ?? '', board.netByName);
      const partner = d ? board.netByName.get(d.partner)! : -1;
      p = d ? (d.polarity === '+' ? { plus: net, minus: partner } : { plus: partner, minus: net }) : null;
      pairOf.set(net, p);
    }
    return p;
  };
  const put = (net: number, layer: number, add: (g: Group, plus: boolean) => void) => {
    const p = net > 0 ? pair(net) : null;
    if (!p) return;
    // KiCad builds the item's key one constraint at a time and files the item under the key as
    // it stands after each: the gap rule's alone, then both.
    let gap: Rule | undefined;
    for (const kind of ['diff_pair_gap', 'diff_pair_uncoupled'] as const) {
      const hit = rules.netConstraint(kind, net, layer);
      if (!hit) continue;
      if (kind === 'diff_pair_gap') gap = hit;
      const uncoupled = kind === 'diff_pair_uncoupled' ? hit : undefined;
      const key = `${p.plus}|${p.minus}|${gap?.rule.name ?? ''}|${uncoupled?.rule.name ?? ''}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { ...p, gap, uncoupled, tracksP: [], tracksN: [], viasP: [], viasN: [] }));
      add(g, net === p.plus);
    }
  };
  if (!rules.custom.some((r) => r.constraints.some((c) => c.kind === 'diff_pair_gap' || c.kind === 'diff_pair_uncoupled'))) return [];
  board.tracks.forEach((t, i) => put(copper.items[copper.trackItem[i]].net, t.layer, (g, plus) => (plus ? g.tracksP : g.tracksN).push(i)));
  board.vias.forEach((v, i) => put(copper.items[copper.viaItem[i]].net, v.layerFrom, (g, plus) => (plus ? g.viasP : g.viasN).push(i)));
  return [...groups.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((e) => e[1]);
}

/**
 * diff_pair_gap_out_of_range and diff_pair_uncoupled_length_too_long findings; `scope`: only
 * pairs with a net in it are judged.
 */
export function checkDiffPairRules(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, scope?: Set<number>): void {
  const board = copper.board;
  for (const g of pairGroups(copper, rules)) {
    if (scope && !scope.has(g.plus) && !scope.has(g.minus)) continue;
    const plus = g.tracksP.map((i) => board.tracks[i]);
    const minus = g.tracksN.map((i) => board.tracks[i]);
    // Copper across a stretch (KiCad 9.0.8 and 10.0.7 as measured): tracks, arcs and vias that
    // touch an end of either clipped side do not count (the two tracks themselves among them),
    // nor a pad that holds exactly one end of either track, nor zones; all else does, the
    // pair's own copper too. Between two arcs none of the pair's own copper counts.
    const between = (ax: number, ay: number, bx: number, by: number, layer: number, ip: number, iN: number, ends: readonly number[][]) => {
      const arcs = ends.length === 0;
      const probe = segment(ax, ay, bx, by, 0);
      const points = ends.flatMap((e) => [circle(e[0], e[1], 0), circle(e[2], e[3], 0)]);
      const parents = [plus[ip], minus[iN]];
      for (const id of copper.near(probe)) {
        const it = copper.items[id];
        if (!((it.layers >>> layer) & 1) || it.kind === 'zone') continue;
        // A touch is not a hit, as in KiCad's collision with no clearance.
        if (!joins(probe, it.shape)) continue;
        if ((it.kind === 'track' || it.kind === 'via') && (arcs ? it.net === g.plus || it.net === g.minus : points.some((q) => overlaps(q, it.shape))))
          continue;
        if (it.kind === 'pad' && parents.some((t) => [t.start, t.end].filter((e) => overlaps(circle(e.x, e.y, 0), it.shape)).length === 1)) continue;
        return true;
      }
      return false;
    };
    const gapC = g.gap?.constraint;
    const inRange = (gap: number) =>
      !gapC || ((gapC.min === undefined || gap >= gapC.min - DRC_EPSILON) && (gapC.max === undefined || gap <= gapC.max + DRC_EPSILON));
    const c = pairCoupling(plus, minus, undefined, between);
    let coupled = 0;
    // In whole nanometres as KiCad sums them: an arc's coupled length cut to one, each net's
    // running total cut after each track.
    for (const s of c.stretches) if (inRange(s.gap)) coupled += plus[s.plus].mid ? Math.trunc(s.length) : s.length;
    const total = Math.max(
      plus.reduce((n, t) => Math.trunc(n + trackLength(t)), 0),
      minus.reduce((n, t) => Math.trunc(n + trackLength(t)), 0),
    );
    const uncoupled = Math.round(total - coupled);
    const items: ItemRef[] = [
      ...g.tracksP.map((index) => ({ kind: 'track' as const, index })),
      ...g.viasP.map((index) => ({ kind: 'via' as const, index })),
      ...g.tracksN.map((index) => ({ kind: 'track' as const, index })),
      ...g.viasN.map((index) => ({ kind: 'via' as const, index })),
    ];
    const first = g.tracksP.length
      ? board.tracks[g.tracksP[0]].start
      : g.viasP.length
        ? board.vias[g.viasP[0]].at
        : g.tracksN.length
          ? board.tracks[g.tracksN[0]].start
          : board.vias[g.viasN[0]].at;
    let tooLong = false;
    const u = g.uncoupled?.constraint;
    if (u?.max !== undefined && u.max >= 0 && uncoupled > u.max) {
      tooLong = true;
      sink.add(
        'diff_pair_uncoupled_length_too_long',
        `Differential uncoupled length too long (${g.uncoupled!.rule.name} maximum uncoupled length ${mmText(u.max)}; actual ${mmText(uncoupled)})`,
        first,
        [g.plus, g.minus],
        items,
      );
    }
    if (!gapC || (g.uncoupled && !tooLong)) continue;
    for (const s of c.stretches) {
      // Past the epsilon the gap is asked of the rule again without it.
      const low = gapC.min !== undefined && gapC.min >= 0 && s.gap < gapC.min - DRC_EPSILON && s.gap < gapC.min;
      const high = !low && gapC.max !== undefined && gapC.max >= 0 && s.gap > gapC.max + DRC_EPSILON && s.gap > gapC.max;
      if (!low && !high) continue;
      const bound = low ? `minimum gap ${mmText(gapC.min!)}` : `maximum gap ${mmText(gapC.max!)}`;
      const tp = board.tracks[g.tracksP[s.plus]];
      sink.add(
        'diff_pair_gap_out_of_range',
        `Differential pair gap out of range (${g.gap!.rule.name} ${bound}; actual ${mmText(s.gap)})`,
        tp.start,
        [g.plus, g.minus],
        [
          { kind: 'track', index: g.tracksP[s.plus] },
          { kind: 'track', index: g.tracksN[s.minus] },
        ],
      );
    }
  }
}
