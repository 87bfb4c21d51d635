// Copper text against the copper of other nets: `clearance`, or `shorting_items` where KiCad 9 calls
// netted copper touching a text a short. KiCad 9 tests a pad, a fill or a track against a text from
// the item's side first (a clearance: the text has no net), unless the item is a track that has
// already spent its one finding on another item; the pair is then tested from the text's side, where
// a track of a net across it is a short (kicad-demo_sonde-xilinx's dangling-stub and text-cross
// faults show both). KiCad 10 reports a clearance either way. A text whose glyphs are known (from
// the running KiCad, or a TrueType render cache) is checked with them against every item, as KiCad
// checks it. A text known only by the box that holds its glyphs (a file read without KiCad: the stroke
// font is not embedded) is checked only when judging added copper (a scoped run: the router's final
// check), and only against tracks and vias, the copper the router adds: the box keeps that check on
// the safe side. A full run leaves such text out, as it would report the board's own copper where it
// meets the box but not the glyphs (16 times on kicad-demo_carte_test's reference routing, where
// KiCad finds nothing); pads and zone fills, which KiCad placed and filled around the real glyphs,
// are never held against a box.

import type { Board } from '../board/model.ts';
import type { RuleResolver } from '../board/rules.ts';
import { compareDistance } from '../geom/collide.ts';
import { nearest } from '../geom/distance.ts';
import { localClearance, ruleItem, tooClose } from './clearance.ts';
import type { CopperItem, CopperItems, CopperText } from './copper-items.ts';
import { judgedByKicad10 } from '../board/kicad-version.ts';
import type { ViolationSink } from './violation.ts';
import { mmText } from '../geom/units.ts';

function clearanceFor(board: Board, rules: RuleResolver, t: CopperText, it: CopperItem): number {
  const local = localClearance(board, it);
  if (local !== undefined) return local;
  return rules.clearance({ net: t.net, layer: t.layer, shape: t.shape, kind: 'text' }, ruleItem(it, t.layer));
}

/**
 * Checks every copper text against the items near it (only those in `scope`, item ids, when given):
 * one finding per text and item (per text and zone for fills).
 */
export function checkTextClearance(copper: CopperItems, rules: RuleResolver, sink: ViolationSink, scope?: Set<number>): void {
  if (copper.texts.length === 0 || (!sink.wants('clearance') && !sink.wants('shorting_items'))) return;
  const board = copper.board;
  const kicad9 = !judgedByKicad10(board);
  // Tracks and vias that already have a copper finding (clearance.ts runs first).
  const spent = new Set<string>();
  for (const v of sink.violations) {
    if (v.type !== 'clearance' && v.type !== 'shorting_items' && v.type !== 'tracks_crossing') continue;
    for (const r of v.items) if (r.kind === 'track' || r.kind === 'via') spent.add(`${r.kind}:${r.index}`);
  }
  for (const t of copper.texts) {
    if (!t.glyphs && !scope) continue;
    const bit = (1 << t.layer) >>> 0;
    const zones = new Set<number>();
    for (const j of copper.near(t.shape)) {
      if (scope && !scope.has(j)) continue;
      const it = copper.items[j];
      if ((it.layers & bit) === 0 || it.net === t.net) continue;
      if (!t.glyphs && it.kind !== 'track' && it.kind !== 'via') continue;
      if (it.kind === 'zone' && zones.has(it.ref)) continue;
      const c = clearanceFor(board, rules, t, it);
      if (!tooClose(t.shape, it.shape, c)) continue;
      if (it.kind === 'zone') zones.add(it.ref);
      const n = nearest(t.shape, it.shape);
      const touching = compareDistance(t.shape, it.shape, 0) === 0;
      const at = { x: (n.ax + n.bx) / 2, y: (n.ay + n.by) / 2 };
      const refs = [
        { kind: 'graphic' as const, index: t.ref },
        { kind: it.kind, index: it.ref },
      ];
      // Pads and fills are tested from their own side first, as tracks with a finding to spare are.
      const fromText = (it.kind === 'track' || it.kind === 'via') && spent.has(`${it.kind}:${it.ref}`);
      if (touching && kicad9 && fromText && it.net > 0) sink.add('shorting_items', 'Items shorting two nets', at, [t.net, it.net], refs);
      else sink.add('clearance', `Clearance violation (clearance ${mmText(c)}; actual ${mmText(n.distance)})`, at, [t.net, it.net], refs);
    }
  }
}
