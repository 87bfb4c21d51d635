// Differential pairs routed as pairs (engine/route/design/couple-pairs.ts): on generated boards
// with pairs, each pair routed is laid again as one coupled run at its class's width and gap,
// or keeps its single tracks and says why; under a board's pair rules (diff_pair_gap,
// diff_pair_uncoupled) a pair is kept only where it meets them. KiCad 9.0.8 and 10.0.7, on the
// routed boards with their rules, find no error the route added.
import { describe, expect, it } from 'vitest';
import { gapTolerance, pairCoupling } from '../../../../engine/drc/pair-coupling.ts';
import type { GenerateOptions } from '../../../../engine/kicad/generate-board.ts';
import { expectNoErrorAdded, routeGenerated } from '../../../support/judge-generated.ts';
import { kicads } from '../../../support/kicad.ts';
import { errorsAdded, strippedBench } from '../../../support/stripped-board.ts';
import { pairGeometry } from '../../../../engine/route/pairs/couple-pairs.ts';
import { DEFAULT_PAIR_WORK, defaultWork } from '../../../../engine/route/plan/budget.ts';
import { routeDesign } from '../../../../engine/route/plan/variants.ts';
import { BUDGET_SPENT, coupleStretch, LINE_WORK, merged, stretchesOf } from '../../../../engine/route/pairs/pair-stretch.ts';
import { hostFromDesign } from '../../../../engine/route/design/host-from-design.ts';
import { routeOptions } from '../../../../engine/route/types.ts';
import type { PairBody } from '../../../../engine/route/pairs/pair-body.ts';
import { collides } from '../../../../engine/geom/collide.ts';
import { circle, segment } from '../../../../engine/geom/shapes.ts';

const FOUR: GenerateOptions = { nets: 20, padsPerNet: 3, layers: 2, width: 50, height: 40, seed: 1, pairs: 4 };
const THREE: GenerateOptions = { nets: 10, padsPerNet: 3, layers: 2, width: 40, height: 30, seed: 3, pairs: 3, lengthRules: { max: 80 } };
/** Pair rules KiCad judges every parallel stretch of a pair by: no closer than the class gap less
 *  10 µm, and at most 6 mm of the longer net uncoupled. */
const PAIR_RULES = `(rule "dp coupled"\n\t(condition "A.inDiffPair('/DP*')")\n\t(constraint diff_pair_gap (min 0.19mm))\n\t(constraint diff_pair_uncoupled (max 6mm)))\n`;

const routed = routeGenerated;

describe('pairs routed as pairs', () => {
  it('lays each pair of a generated board as one coupled run, or says why not', () => {
    const { design, result, after } = routed(FOUR);
    expect(result.open).toEqual([]);
    expect(after.errors).toEqual({});
    const pairs = result.pairs ?? [];
    expect(pairs.map((p) => design.board.nets[p.plus].name)).toEqual(['/DP1_P', '/DP2_P', '/DP3_P', '/DP4_P']);
    const coupled = pairs.filter((p) => p.coupled);
    expect(coupled.length).toBeGreaterThanOrEqual(3);
    for (const p of pairs) {
      const plus = result.tracks.filter((t) => t.net === p.plus);
      const minus = result.tracks.filter((t) => t.net === p.minus);
      // The share it reports is the share KiCad's coupling check finds at the class gap ± 10 %.
      const c = pairCoupling(plus, minus, gapTolerance(design.rules.netClass(p.plus).diffPairGap));
      expect(p.share).toBeCloseTo(c.share, 6);
      if (p.coupled) {
        expect(p.share).toBeGreaterThanOrEqual(0.5);
        // Laid at the class's pair width.
        expect(new Set([...plus, ...minus].map((t) => t.width))).toEqual(new Set([design.rules.netClass(p.plus).diffPairWidth]));
      } else expect(p.why).toMatch(/\w/);
      // Short of full coupling, it says where the rest lies.
      if (p.coupled && p.share < 0.9)
        expect(p.why).toMatch(/its pads lie [\d.]+ mm at \S+ \/ \S+, .*the tracks fan out to them over [\d.]+ mm of the longer net/);
    }
  });

  it("routes back a pair taken out of a person's routing as a pair, as the plugin meets it", () => {
    const { design, nets } = strippedBench('omega-dock-new_omega-dock-new', ['/TX+', '/TX-']);
    const result = routeDesign(design, { nets });
    expect(result.open).toEqual([]);
    const [pair] = result.pairs!;
    expect([pair.plus, pair.minus]).toEqual(nets);
    expect(pair.coupled).toBe(true);
    expect(pair.share).toBeGreaterThanOrEqual(0.5);
    expect(errorsAdded(design, result)).toEqual([]);
  });

  it('keeps a pair only where it meets the pair rules, and leaves the others open with the finding', () => {
    const { design, result, after } = routed(THREE, PAIR_RULES);
    expect(after.errors.diff_pair_uncoupled_length_too_long).toBeUndefined();
    expect(after.errors.diff_pair_gap_out_of_range).toBeUndefined();
    const kept = (result.pairs ?? []).filter((p) => !result.open.some((c) => c.net === p.plus || c.net === p.minus));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.every((p) => p.coupled)).toBe(true);
    for (const c of result.open) {
      expect(design.board.nets[c.net].name).toMatch(/^\/DP\d_[PN]$/);
      expect(c.stuck?.why).toMatch(
        /the final design-rule check refused it \(Differential uncoupled length too long \(dp coupled maximum uncoupled length 6\.0000 mm; actual \d+\.\d{4} mm\)\)/,
      );
    }
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('KiCad %s judges the pairs routed', (_v, k) => {
  it.each([
    ['four pairs, no pair rules', FOUR, ''],
    ['three pairs under diff_pair_gap and diff_pair_uncoupled', THREE, PAIR_RULES],
  ] as const)('finds no error the route added: %s', async (_name, o, extra) => {
    const { g, dru, design, result } = routed(o, extra);
    await expectNoErrorAdded(k, g, dru, design, result);
  });
});

describe('the work laying pairs takes', () => {
  // FOUR routed once, and its first pair's first stretch with the pair's geometry.
  let four: ReturnType<typeof routed> | undefined;
  const routedFour = () => (four ??= routed(FOUR));
  const firstStretch = () => {
    const { design, result } = routedFour();
    const [pair] = result.pairs!;
    const host = merged(hostFromDesign(design), pair.minus, pair.plus);
    const [st] = stretchesOf(host, result.connections, pair.plus, pair.minus);
    return { design, pair, host, st, ...pairGeometry(design, host, pair.plus, pair.minus) };
  };

  it('on the default budget is added for each pair routed, and the route spends within it', () => {
    const { result } = routedFour();
    expect(result.pairs?.length).toBe(4);
    expect(result.budget).toBe(defaultWork(result.connections.length) + 4 * DEFAULT_PAIR_WORK);
    expect(result.work).toBeLessThanOrEqual(result.budget);
  });

  it("a stretch's search counts its map before building it and never takes more than it is left", () => {
    const { pair, host, st, geom, clearance } = firstStretch();
    const search = (left: number) => coupleStretch(host, st, geom, clearance, pair.plus, pair.minus, routeOptions(undefined), left);
    const full = search(Infinity);
    expect(typeof full.bodies).not.toBe('string');
    expect(search(1)).toEqual({ bodies: BUDGET_SPENT, work: 0 });
    for (const left of [full.work / 4, full.work / 2, full.work - 1, full.work + LINE_WORK]) {
      const got = search(left);
      expect(got.work, `left ${left}`).toBeLessThanOrEqual(left);
      if (got.bodies !== BUDGET_SPENT) expect(got).toEqual(full);
    }
    expect(search(full.work + LINE_WORK)).toEqual(full);
  });

  it('runs its tracks over no pad of either net but the four its stretch ends on', () => {
    const { design, pair, host, st, geom, clearance } = firstStretch();
    // A pad of the - net midway along the stretch, as a test point on the line would lie.
    const at = {
      x: Math.round((st.pa.at.x + st.na.at.x + st.pb.at.x + st.nb.at.x) / 4),
      y: Math.round((st.pa.at.y + st.na.at.y + st.pb.at.y + st.nb.at.y) / 4),
    };
    const point = { ...st.na, index: design.board.pads.length, number: 'TP', at, shape: circle(at.x, at.y, 300_000) };
    const withPoint = { ...host, pads: [...host.pads, point] };
    const got = coupleStretch(withPoint, st, geom, clearance, pair.plus, pair.minus, routeOptions(undefined), Infinity);
    expect(typeof got.bodies).not.toBe('string');
    for (const body of got.bodies as PairBody[])
      for (const t of [...body.left.tracks, ...body.right.tracks])
        expect(collides(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), point.shape, clearance), `${t.net} at ${t.start.x},${t.start.y}`).toBe(false);
  });

  it('under a set amount comes out of it, never past it, and a pair it cannot pay for says so', () => {
    const { design } = routedFour();
    const said = new Set<string>();
    for (const work of [12_000_000, 20_000_000, 30_000_000, 45_000_000]) {
      const r = routeDesign(design, { work });
      expect(r.budget).toBe(work);
      expect(r.work, `work ${work}`).toBeLessThanOrEqual(work);
      for (const p of r.pairs ?? []) if (p.why) said.add(p.why);
    }
    expect([...said].some((w) => w.includes(BUDGET_SPENT))).toBe(true);
  });
});
