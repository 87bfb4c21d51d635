// A call on its default budget that leaves connections open routes further rounds of new variants
// (design/variants.ts, escalationRound); one that made everything, had a set amount of work or
// was stopped does not, nor one whose open connections no order can make (a rule the router does
// not model, a proven fence of fixed copper), and no variant's place in the call passes
// escalationBound or the work cap. Half of a further round routes the nets left open first.
import { describe, expect, it } from 'vitest';
import { rect } from '../../../../engine/geom/index.ts';
import { escalationRound, variantRounds, type RoundVariant } from '../../../../engine/route/plan/variants.ts';
import { routeHost } from '../../../../engine/route/plan/variant-run.ts';
import {
  DEFAULT_WORK_CAP,
  defaultWork,
  ESCALATION,
  escalationBound,
  FOOTPRINT_ESCALATION,
  FOOTPRINT_VARIANTS,
  footprintBound,
  footprintWork,
  MAX_VARIANT_WORK,
  variantBudget,
} from '../../../../engine/route/plan/budget.ts';
import type { RouteRequest, RouteResult, StuckCode } from '../../../../engine/route/types.ts';
import { squareHost, TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;

const indices = (round: RoundVariant[] | undefined) => round?.map((v) => v.index);

/** Net 1's pad A boxed in by a ring of net 2's copper on both layers, its other end outside;
 *  net 2's two pads outside as well. */
function results(): { open: RouteResult; made: RouteResult } {
  const host = squareHost(20 * MM, {
    netNames: ['', 'A', 'B'],
    pads: [testPad(0, 1, 6 * MM, 6 * MM), testPad(1, 1, 16 * MM, 16 * MM), testPad(2, 2, 2 * MM, 16 * MM), testPad(3, 2, 16 * MM, 2 * MM)],
    obstacles: [1, 2].flatMap((layers) =>
      [
        { x0: 3 * MM, y0: 3 * MM, x1: 9 * MM, y1: 4 * MM },
        { x0: 3 * MM, y0: 8 * MM, x1: 9 * MM, y1: 9 * MM },
        { x0: 3 * MM, y0: 3 * MM, x1: 4 * MM, y1: 9 * MM },
        { x0: 8 * MM, y0: 3 * MM, x1: 9 * MM, y1: 9 * MM },
      ].map((b) => ({ kind: 'track' as const, shape: rect(b.x0, b.y0, b.x1, b.y1), layers, net: 2, clearance: 0 })),
    ),
    rules: TEST_RULES,
  });
  return { open: routeHost(host, { nets: [1], work: 10_000_000 }, 0), made: routeHost(host, { nets: [2], work: 10_000_000 }, 0) };
}

/** `r` with every open connection's reason set to `reason`. */
const because = (r: RouteResult, reason: StuckCode): RouteResult => ({ ...r, open: r.open.map((c) => ({ ...c, stuck: { ...c.stuck!, reason } })) });

describe('further rounds of variants while connections stay open on the default budget', () => {
  const routed = results();
  // The ring is fixed copper, a proven fence no order opens: as blocked by the call's own routes,
  // it is what a further round may make.
  const open = because(routed.open, 'blocked');
  const made = routed.made;
  const req: RouteRequest = { variants: 2 };
  const at = (r: RouteResult, variant: number, budget = r.budget): RouteResult => ({ ...r, variant, budget });

  it('starts from two results, one open and one made', () => {
    expect(routed.open.open.map((c) => c.stuck?.reason)).toEqual(['boxed_in']);
    expect(made.open).toEqual([]);
  });

  it('routes as many new variants and two more, past every order of the rounds before, while the call stays open', () => {
    const b = 40 * MM;
    const first = [at(open, 0, b), at(open, 1, b)];
    // The two more lie past every index the rounds and their orders use (ESCALATION · 2 · 7),
    // each in an order of its own.
    expect(FOOTPRINT_VARIANTS).toBe(2);
    expect(indices(escalationRound(req, first, 1))).toEqual([14, 15, 28, 29]);
    expect(indices(escalationRound({ variants: 1 }, [at(open, 0, b)], 1))).toEqual([7, 14, 15]);
    // Rounds together stay within ESCALATION budgets: round ESCALATION − 1 is the last.
    const last = (2 * ESCALATION - 2) * 14;
    expect(indices(escalationRound(req, first, ESCALATION - 1))).toEqual([...[0, 1].map((i) => i + (ESCALATION - 1) * 14), last, last + 1]);
    expect(escalationRound(req, first, ESCALATION)).toBeUndefined();
    // Under a work cap (each variant's share) the two more go only where the call's cap holds
    // them as well: 2 · 2b for the round's places and their own bounds, 2 · 4b.
    expect(footprintBound(b)).toBe(FOOTPRINT_ESCALATION * b);
    expect(indices(escalationRound({ ...req, workCap: 6 * b }, first, 1))).toEqual([14, 15, 28, 29]);
    expect(indices(escalationRound({ ...req, workCap: 5.9 * b }, first, 1))).toEqual([14, 15]);
    // What they may spend, as a session's estimate counts it: each its footprintBound a further
    // round, or one; past DEFAULT_WORK_CAP, up to MAX_VARIANT_WORK.
    expect(footprintWork(b)).toBe((ESCALATION - 1) * 2 * FOOTPRINT_ESCALATION * b);
    expect(footprintBound(DEFAULT_WORK_CAP)).toBe(MAX_VARIANT_WORK);
    expect(footprintWork(DEFAULT_WORK_CAP)).toBe(2 * MAX_VARIANT_WORK);
    // Their pairs' work comes on top of their bounds, as routeVariant lays them: at the cap too.
    expect(footprintWork(b, 5 * MM)).toBe(2 * (FOOTPRINT_ESCALATION * b + 5 * MM));
    expect(footprintWork(240 * MM, 20 * MM)).toBe(2 * (FOOTPRINT_ESCALATION * 240 * MM + 20 * MM));
    // Never less than a variant's place may spend.
    expect(footprintBound(0)).toBe(escalationBound(0));
  });

  it('gives each of the two more FOOTPRINT_ESCALATION default budgets, within the cap’s share', () => {
    const c = 100;
    expect(variantBudget({ footprintVias: true }, c)).toBe(FOOTPRINT_ESCALATION * defaultWork(c));
    expect(variantBudget({}, c)).toBe(defaultWork(c));
    expect(variantBudget({ footprintVias: true, workCap: 50 * MM }, c)).toBe(50 * MM);
    // A set amount of work is the variant's, whatever it is.
    expect(variantBudget({ footprintVias: true, work: 10 * MM }, c)).toBe(10 * MM);
  });

  it('routes the two more after the round’s own, and only while the call stays open', () => {
    const b = 40 * MM;
    /** The rounds a call yields when the variants of each come back as `answer` says. */
    const rounds = (answer: (index: number) => RouteResult) => {
      const results: RouteResult[] = [];
      const seen: number[][] = [];
      for (const round of variantRounds(req, results)) {
        seen.push(round.map((v) => v.index));
        results.push(...round.map((v) => at(answer(v.index), v.index, b)));
      }
      return seen;
    };
    // Open throughout: the round's own, then the two more, then no round fits.
    expect(rounds(() => open)).toEqual([
      [0, 1],
      [14, 15],
      [28, 29],
    ]);
    // The round's own made everything: the two more are not routed.
    expect(rounds((i) => (i === 15 ? made : open))).toEqual([
      [0, 1],
      [14, 15],
    ]);
  });

  it('routes none once a variant made everything, under a set amount of work, or once stopped', () => {
    const b = 40 * MM;
    expect(escalationRound(req, [at(open, 0, b), at(made, 1, b)], 1)).toBeUndefined();
    expect(escalationRound({ ...req, work: 2 * b }, [at(open, 0, b), at(open, 1, b)], 1)).toBeUndefined();
    expect(escalationRound({ ...req, shouldStop: () => true }, [at(open, 0, b), at(open, 1, b)], 1)).toBeUndefined();
    expect(escalationRound(req, [{ ...at(open, 0, b), stopped: 'cancelled' }], 1)).toBeUndefined();
    // Held back for a rule the router does not model, or fenced in by fixed copper: no order makes it.
    for (const reason of ['rule_not_supported', 'boxed_in', 'unreachable'] as const)
      expect(escalationRound(req, [because(at(open, 0, b), reason)], 1)).toBeUndefined();
  });

  it('routes the nets left open first in the second half of a round, and in a round of one', () => {
    const b = 40 * MM;
    const first = [at(open, 0, b), at(open, 1, b)];
    const net = open.open[0].net;
    const round = escalationRound(req, first, 1)!;
    // The first half goes in a new order only.
    expect(round[0].request).toBe(req);
    expect(round[1].request.hints?.priority).toEqual({ [net]: 1 });
    const four = escalationRound({ variants: 4 }, [at(open, 0, b)], 1)!;
    expect(escalationRound({ variants: 1 }, [at(open, 0, b)], 1)![0].request.hints?.priority).toEqual({ [net]: 1 });
    // The two more route the second half's request with a contested via priced by its footprint.
    expect(four.map((v) => v.request.hints?.priority?.[net])).toEqual([undefined, undefined, 1, 1, 1, 1]);
    expect(four.map((v) => v.request.footprintVias === true)).toEqual([false, false, false, false, true, true]);
  });

  it('puts them above every priority the request gives, after its first_nets, its other hints kept', () => {
    const b = 40 * MM;
    const net = open.open[0].net;
    const layers = [{ layer: 0, cost: 2 }];
    const hinted: RouteRequest = { ...req, hints: { firstNets: [2], priority: { [net]: -3, 2: 7 }, layers } };
    const round = escalationRound(hinted, [at(open, 0, b), at(open, 1, b)], 1)!;
    expect(round[1].request.hints).toEqual({ firstNets: [2], priority: { [net]: 8, 2: 7 }, layers });
    expect(round[1].request.variants).toBe(2);
    // The caller's request is unchanged.
    expect(hinted.hints?.priority).toEqual({ [net]: -3, 2: 7 });
  });

  it('keeps every variant’s place within DEFAULT_WORK_CAP and the work cap', () => {
    const half = DEFAULT_WORK_CAP / 2;
    expect(indices(escalationRound(req, [at(open, 0, half)], 1))).toEqual([14, 15, 28, 29]);
    expect(escalationRound(req, [at(open, 0, half)], 2)).toBeUndefined();
    // Where no round fits, the two more go alone, once, in new orders only.
    const alone = escalationRound(req, [at(open, 0, DEFAULT_WORK_CAP)], 1);
    expect(indices(alone)).toEqual([28, 29]);
    for (const v of alone!) expect(v.request).toEqual({ ...req, footprintVias: true });
    expect(escalationRound(req, [at(open, 0, DEFAULT_WORK_CAP)], 2)).toBeUndefined();
    // A session's cap (per variant, as variantRequest shares it): a round only where it fits whole.
    expect(indices(escalationRound({ ...req, workCap: 80 * MM }, [at(open, 0, 40 * MM)], 1))).toEqual([14, 15]);
    expect(escalationRound({ ...req, workCap: 79 * MM }, [at(open, 0, 40 * MM)], 1)).toBeUndefined();
  });

  it('bounds a place by ESCALATION budgets, at most DEFAULT_WORK_CAP unless the budget is more', () => {
    expect(escalationBound(40 * MM)).toBe(ESCALATION * 40 * MM);
    expect(escalationBound(DEFAULT_WORK_CAP / 2)).toBe(DEFAULT_WORK_CAP);
    expect(escalationBound(DEFAULT_WORK_CAP)).toBe(DEFAULT_WORK_CAP);
    expect(escalationBound(2 * DEFAULT_WORK_CAP)).toBe(2 * DEFAULT_WORK_CAP);
  });
});
