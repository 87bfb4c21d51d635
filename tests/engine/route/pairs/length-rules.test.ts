// Nets under a custom length or via-count rule are routed, and the final design-rule check, which
// measures a net as KiCad does, keeps a net only where its route meets the rule: a net whose route
// is too long stays open and says by how much; one that is too short is lengthened with meanders
// to the rule's target, or left open saying how much they made up. KiCad (9.0.8 and 10.0.7, on the
// routed board with its rules) finds no error the route added.
import { describe, expect, it } from 'vitest';
import { withCopper } from '../../../../engine/board/added-copper.ts';
import { measureNets } from '../../../../engine/drc/net-length.ts';
import { gapTolerance, pairCoupling } from '../../../../engine/drc/pair-coupling.ts';
import { expectNoErrorAdded, routeGenerated } from '../../../support/judge-generated.ts';
import { retraces } from '../../../../engine/route/pairs/detour.ts';
import { kicads } from '../../../support/kicad.ts';

const OPTS = { nets: 10, padsPerNet: 3, layers: 2, width: 40, height: 30, seed: 3, pairs: 3 };
const PAIR_NETS = ['/DP1_P', '/DP1_N', '/DP2_P', '/DP2_N', '/DP3_P', '/DP3_N'];

// A board whose pair nets run 4–6 mm between pads and need 15: meanders beside them find room
// for a few millimetres only.
const DETOUR_OPTS = { nets: 20, padsPerNet: 3, layers: 2, width: 50, height: 40, seed: 6, pairs: 4, lengthRules: { min: 15 } };

/** The board under `lengthRules`, routed once for every test that asks (the route is deterministic):
 *  a route that leaves nets open routes the further round of a call left open, which is long. */
const ROUTED = new Map<string, ReturnType<typeof routeGenerated>>();
const routed = (lengthRules: { skew?: number; min?: number; max?: number }, extra = '') => {
  const key = JSON.stringify([lengthRules, extra]);
  let r = ROUTED.get(key);
  if (!r) ROUTED.set(key, (r = routeGenerated({ ...OPTS, lengthRules }, extra)));
  return r;
};

/** Time for a test that routes the board under a maximum its routes break, the first to ask. */
const OPEN_ROUTE_TIMEOUT = 300_000;

describe('length and via-count rules in the router', () => {
  it('routes the nets a length maximum governs where their routes are short enough', () => {
    const { result, after } = routed({ max: 80 });
    expect(result.open).toEqual([]);
    expect(after.errors.length_out_of_range).toBeUndefined();
  });

  it(
    'leaves open, with the measured length, each net whose route is longer than the maximum',
    () => {
      const { result, after } = routed({ max: 12 });
      const open = result.open.filter((c) => PAIR_NETS.includes(c.netName));
      expect(open.map((c) => c.netName).sort()).toEqual([...PAIR_NETS].sort());
      for (const c of open)
        expect(c.stuck?.why).toMatch(
          /the final design-rule check refused it \(Track length out of range \(rule 'pair length' max length 12\.0000 mm; actual \d+\.\d{4} mm\)\)/,
        );
      // The other nets route as before; no pair net keeps copper that breaks the rule.
      expect(result.open.length).toBe(open.length);
      expect(after.errors.length_out_of_range).toBeUndefined();
    },
    OPEN_ROUTE_TIMEOUT,
  );

  it('lengthens a net shorter than the minimum with meanders, to the middle of the range', () => {
    const { design, result, after } = routed({ min: 25, max: 30 });
    const made = result.nets.filter((n) => PAIR_NETS.includes(n.name) && n.routed > 0);
    expect(made.length).toBeGreaterThanOrEqual(4);
    // Only the nets left open are short, as they were before the route.
    expect(after.errors.length_out_of_range ?? 0).toBe(PAIR_NETS.length - made.length);
    // Every pair net routed is measured (as KiCad measures it: tracks, and a via 1.545 mm) within
    // the rule, and at 27.5 mm, the range's middle, where its meanders made up all it needed.
    const measured = measureNets(
      { ...design, board: withCopper(design.board, result.tracks, result.vias) },
      made.map((n) => n.net),
    );
    let atMiddle = 0;
    for (const n of made) {
      const length = measured.get(n.net)!.total;
      expect(length, n.name).toBeGreaterThanOrEqual(25_000_000);
      expect(length, n.name).toBeLessThanOrEqual(30_000_000);
      if (Math.abs(length - 27_500_000) < 250_000) atMiddle++;
      // Meanders are runs of bumps: many more tracks than the route had.
      expect(n.tracks.length, n.name).toBeGreaterThan(8);
    }
    expect(atMiddle).toBeGreaterThanOrEqual(made.length / 2);
    // A net's own bumps have rounded corners: arcs (a coupled pair's bumps are square).
    expect(made.some((n) => n.tracks.some((t) => t.mid !== undefined))).toBe(true);
    for (const c of result.open.filter((x) => PAIR_NETS.includes(x.netName))) {
      expect(c.stuck?.reason).toBe('length_rule');
      expect(c.stuck?.why).toMatch(
        /shorter than the 25\.0000 mm rule 'pair length' asks; meanders where the DRC allows them made up \d+\.\d{4} mm of the \d+\.\d{4} mm needed/,
      );
    }
  });

  it('lengthens a coupled pair with pair meanders: both nets bent together, the bumps coupled', () => {
    // The same board under a rule its routes already meet: the route before tuning.
    const untuned = routed({ max: 30 }).result;
    const { design, result } = routed({ min: 25, max: 30 });
    const measured = measureNets({ ...design, board: withCopper(design.board, result.tracks, result.vias) }, [1, 2, 3, 4, 5, 6]);
    const gap = gapTolerance(design.rules.netClass(1).diffPairGap);
    const coupling = (r: typeof result, plus: number, minus: number) =>
      pairCoupling(
        r.tracks.filter((t) => t.net === plus),
        r.tracks.filter((t) => t.net === minus),
        gap,
      );
    const tuned = (result.pairs ?? []).filter((p) => p.coupled);
    let gained = 0;
    let rounded = 0;
    for (const p of tuned) {
      const name = design.board.nets[p.plus].name;
      for (const net of [p.plus, p.minus]) expect(measured.get(net)!.total, name).toBeGreaterThanOrEqual(25_000_000);
      const before = coupling(untuned, p.plus, p.minus);
      const after = coupling(result, p.plus, p.minus);
      expect(Math.min(after.lengthP - before.lengthP, after.lengthN - before.lengthN), name).toBeGreaterThan(2_000_000);
      // A pair's bumps are coupled but for their corners, where one net's own bumps take the
      // straight they bend away from out of the coupling: a pair made up by pair meanders alone
      // runs coupled over more than before.
      if (after.coupled > before.coupled) gained++;
      // The share the result gives is the tuned copper's, as KiCad measures it.
      expect(p.share, name).toBeCloseTo(after.share, 6);
      // Rounded bumps: each arc of the plus net coupled with one of the minus net.
      const arcsP = result.tracks.filter((t) => t.net === p.plus && t.mid);
      const coupledArcs = new Set(after.stretches.filter((s) => result.tracks.filter((t) => t.net === p.plus)[s.plus].mid).map((s) => s.plus));
      if (arcsP.length > 0 && coupledArcs.size === arcsP.length) rounded++;
    }
    // Two of the three pairs here are made up by pair meanders alone; the third needs more than
    // its coupled runs hold and makes up the rest on each net.
    expect(gained).toBeGreaterThanOrEqual(2);
    expect(rounded).toBeGreaterThanOrEqual(1);
  });

  it('matches the two nets of each pair within the skew rule, or leaves the pair open saying why', () => {
    const { design, result, after } = routed({ skew: 0.5 });
    expect(after.errors.skew_out_of_range).toBeUndefined();
    const byName = new Map(result.nets.map((n) => [n.name, n]));
    // As KiCad measures them (engine/drc/net-length.ts): pad to pad, vias through the board.
    const measured = measureNets(
      { ...design, board: withCopper(design.board, result.tracks, result.vias) },
      result.nets.map((n) => n.net),
    );
    const length = (name: string) => measured.get(byName.get(name)!.net)!.total;
    let matched = 0;
    for (let k = 1; k <= 3; k++) {
      const p = byName.get(`/DP${k}_P`)!;
      const n = byName.get(`/DP${k}_N`)!;
      if (p.routed > 0 && n.routed > 0) {
        matched++;
        expect(Math.abs(length(p.name) - length(n.name)), `pair ${k}`).toBeLessThanOrEqual(500_000);
      } else {
        // A pair is kept whole or not at all: one net alone would be 0 against the other's length.
        expect([p.routed, n.routed], `pair ${k}`).toEqual([0, 0]);
        for (const c of result.open.filter((x) => x.netName === p.name || x.netName === n.name)) {
          expect(c.stuck?.reason).toBe('length_rule');
          expect(c.stuck?.why).toMatch(
            new RegExp(`/DP${k}_P at \\d+\\.\\d{4} mm is matched to /DP${k}_N at \\d+\\.\\d{4} mm, and rule 'pair skew' allows 0\\.5000 mm between them`),
          );
        }
      }
    }
    // The route as found leaves pairs 1 and 2 more than 0.25 mm apart: tuning matched them.
    expect(matched).toBeGreaterThanOrEqual(2);
  });

  it('leaves a pair it cannot route coupled open, with the rule it would break', () => {
    // The router lays a pair's nets as two single tracks: a pair held to 2 mm uncoupled cannot stay.
    const dp = `(rule "dp coupled"\n\t(condition "A.inDiffPair('/DP*')")\n\t(constraint diff_pair_gap (min 0.2mm) (max 0.3mm))\n\t(constraint diff_pair_uncoupled (max 2mm)))\n`;
    const { result, after } = routed({ max: 80 }, dp);
    expect(after.errors.diff_pair_uncoupled_length_too_long).toBeUndefined();
    expect(after.errors.diff_pair_gap_out_of_range).toBeUndefined();
    const open = result.open.filter((c) => PAIR_NETS.includes(c.netName));
    expect(open.map((c) => c.netName).sort()).toEqual([...PAIR_NETS].sort());
    for (const c of open)
      expect(c.stuck?.why).toMatch(/the final design-rule check refused it \(Differential (uncoupled length too long|pair gap out of range) \(dp coupled /);
    expect(result.open.length).toBe(open.length);
  });

  it('routes a net too short for its minimum the long way round where meanders beside it find too little room', () => {
    const { design, result, after } = routeGenerated(DETOUR_OPTS);
    expect(result.open).toEqual([]);
    expect(after.errors.length_out_of_range).toBeUndefined();
    const detoured = (result.pairs ?? []).filter((p) => p.why?.includes('long way round'));
    expect(detoured.length).toBeGreaterThan(0);
    const nets = detoured.flatMap((p) => [p.plus, p.minus]);
    const measured = measureNets({ ...design, board: withCopper(design.board, result.tracks, result.vias) }, nets);
    for (const net of nets) {
      expect(measured.get(net)!.total).toBeGreaterThanOrEqual(15_000_000);
      // Longer by going round, not by running out and back over its own copper.
      expect(retraces(result.tracks.filter((t) => t.net === net))).toBe(false);
    }
  });

  it('says what the long way round came to where no detour met the rules', () => {
    // 50 mm: longer than the long way round makes for some pairs here.
    const { result } = routeGenerated({ ...DETOUR_OPTS, lengthRules: { min: 50 } });
    const open = result.open.filter((c) => c.stuck?.reason === 'length_rule');
    expect(open.length).toBeGreaterThan(0);
    for (const c of open) {
      const m = /The long way round was tried (\d+) times?, both nets of the pair together: (.*)\.$/.exec(c.stuck!.why);
      expect(m, c.stuck!.why).not.toBeNull();
      // Each try is counted once, under what it came to.
      const counted = [...m![2].matchAll(/(\d+) (?:found|ran|were)/g)].reduce((s, x) => s + Number(x[1]), 0);
      expect(counted).toBe(Number(m![1]));
    }
  });

  it('keeps a net to its via count', () => {
    const { result, after } = routed({ max: 80 }, `(rule "no vias"\n\t(condition "A.inDiffPair('/DP*')")\n\t(constraint via_count (max 0)))\n`);
    const withVias = result.nets.filter((n) => PAIR_NETS.includes(n.name) && n.vias.length > 0);
    expect(withVias).toEqual([]);
    expect(after.errors.too_many_vias).toBeUndefined();
    // A pair connection that needs a via is left open, said why; the others find a way on one
    // layer, off the grid where the grid has none (gridless.ts), and are the most of them.
    for (const c of result.open.filter((k) => PAIR_NETS.includes(k.netName)))
      expect(c.stuck?.why).toMatch(/Too many vias on a connection \(rule 'no vias' max count 0; actual [1-9]/);
    expect(result.open.every((c) => PAIR_NETS.includes(c.netName))).toBe(true);
    const whole = result.nets.filter((n) => PAIR_NETS.includes(n.name) && n.open === 0 && n.tracks.length > 0);
    expect(whole.length).toBeGreaterThan(PAIR_NETS.length / 2);
  });
});

describe.each(kicads().map((k) => [k.version, k] as const))('KiCad %s judges the routed board', (_v, k) => {
  it.each([
    ['a maximum the routes break', { max: 12 }],
    ['a minimum met with meanders', { min: 25, max: 30 }],
    ['a skew within each pair', { skew: 0.5, max: 80 }],
  ] as const)(
    'finds no error the route added under %s',
    async (_name, rules) => {
      const { g, dru, design, result } = routed(rules);
      await expectNoErrorAdded(k, g, dru, design, result);
    },
    OPEN_ROUTE_TIMEOUT,
  );

  it('finds no error the route added under a minimum met the long way round', async () => {
    const { g, dru, design, result } = routeGenerated(DETOUR_OPTS);
    await expectNoErrorAdded(k, g, dru, design, result);
  });
});
