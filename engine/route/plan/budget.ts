// The work budget, in one place: what a variant may spend by default, how a call's `work` or cap
// is shared among its variants, the bounds of the further rounds and the footprint variants a call
// left open may route, and the bound a call would run under (a session's estimate). Work counts
// search expansions, flood cells and the grid sites set-up tests — never time. The words agents
// and the README read are made here from the same numbers (budgetFacts), and a test holds both to it.

import type { Attempt } from '../types.ts';

/** Default work per variant: a base that covers a large board's set-up (its obstacle maps are
 *  work too) and a share per open connection of the call, so a dense board is not cut short
 *  where a sparse one finishes; at most DEFAULT_WORK_CAP. The search stops when it is done, so
 *  a call that needs less spends less. */
export const DEFAULT_WORK = 40_000_000;
export const WORK_PER_CONNECTION = 100_000;
export const DEFAULT_WORK_CAP = 250_000_000;

/** Work the route's default budget adds for each pair it routed, to lay it as a pair: a centre
 *  line's fine map over a dense board costs several times its search. */
export const DEFAULT_PAIR_WORK = 16_000_000;

/** The most a variant may be given (a share of `tracemaker route --work`, of a session's `work`). */
export const MAX_VARIANT_WORK = 1_000_000_000;
export const MAX_VARIANTS = 8;

/** Without a set amount of work, a call whose variants leave connections open on their default
 *  budget routes further rounds of new variants (other net orders), each with that budget again,
 *  while each variant's place in the call stays within ESCALATION times it and DEFAULT_WORK_CAP:
 *  a call that stays open pays more to be made, one that routes everything pays nothing more. */
export const ESCALATION = 2;

/** The footprint variants an escalation round adds (escalationRound), each in an order of its
 *  own: on the boards that stay open one order leaves ±20 connections more than the next, so two
 *  draws make more than one; and alone in a round, one would leave a second thread idle. */
export const FOOTPRINT_VARIANTS = 2;

/** How many default budgets a footprint variant may spend (footprintBound). On the boards that stay
 *  open one route given more work makes more than more routes given less: on kicad-demo_video one
 *  variant of 1,000 M left 75 connections open where the best of the call's four, of 202 and
 *  250 M, left 152. DEFAULT_WORK_CAP bounds a call's further rounds, not these. */
export const FOOTPRINT_ESCALATION = 4;

export function defaultWork(connections: number): number {
  return Math.min(DEFAULT_WORK_CAP, DEFAULT_WORK + WORK_PER_CONNECTION * Math.max(0, connections));
}

/** The work one variant of `req` may spend, routing `connections`: the request's, else the
 *  default for them (a variant an escalation round adds, footprintBound of it) or the cap's
 *  share where that is less; never past MAX_VARIANT_WORK. */
export function variantBudget(req: Pick<Attempt, 'work' | 'workCap' | 'footprintVias'>, connections: number): number {
  const own = req.footprintVias ? footprintBound(defaultWork(connections)) : defaultWork(connections);
  return Math.min(MAX_VARIANT_WORK, Math.max(0, req.work ?? Math.min(own, req.workCap ?? Infinity)));
}

/** The most a variant's place in a call with default budget `budget` (per variant) may spend
 *  when connections stay open: its rounds together. */
export function escalationBound(budget: number): number {
  return Math.max(budget, Math.min(DEFAULT_WORK_CAP, ESCALATION * budget));
}

/** What a footprint variant of a call with default budget `budget` may spend: FOOTPRINT_ESCALATION
 *  budgets within MAX_VARIANT_WORK, and never less than a variant's place may (escalationBound). */
export function footprintBound(budget: number): number {
  return Math.max(escalationBound(budget), Math.min(MAX_VARIANT_WORK, FOOTPRINT_ESCALATION * budget));
}

/** What the variants escalation rounds add beyond their own (escalationRound's footprint variants:
 *  FOOTPRINT_VARIANTS a round, or alone where no round fits) may spend together, where no work cap
 *  holds them back, with `budget` per variant by default and `pairWork` more to lay its pairs: each
 *  footprintBound of the default (variantBudget), and its pairs' work on top. */
export function footprintWork(budget: number, pairWork = 0): number {
  const rounds = Math.max(1, Math.floor(escalationBound(budget + pairWork) / (budget + pairWork)) - 1);
  return rounds * FOOTPRINT_VARIANTS * (footprintBound(budget) + pairWork);
}

/** Number of variants a request asks for, clamped to 1..MAX_VARIANTS. */
export function variantCount(req: Pick<Attempt, 'variants'>): number {
  return Math.min(MAX_VARIANTS, Math.max(1, Math.floor(req.variants ?? 1)));
}

/** The request each variant routes: the call's `work` split evenly (⌊work / variants⌋ each, so
 *  all together never pass it); without `work`, each variant takes its own default, or its equal
 *  share of `workCap` where that is less. */
export function variantRequest<R extends Pick<Attempt, 'work' | 'workCap' | 'variants'>>(req: R): R {
  if (req.work !== undefined) return { ...req, work: Math.floor(req.work / variantCount(req)) };
  return req.workCap === undefined ? req : { ...req, workCap: Math.floor(req.workCap / variantCount(req)) };
}

/** The bound a call would run under, before routing: `work` (the call's, after any session limit)
 *  split evenly over `variants`, or without it each variant's default budget for `connections`
 *  and `pairs` with the further rounds a call that stays open routes (escalationBound), and the
 *  footprint variants escalation adds (`extra`, footprintWork). */
export function callBound(o: { work: number | undefined; variants: number; connections: number; pairs: number }): {
  perVariant: number;
  extra: number;
  bound: number;
} {
  const pairWork = o.pairs * DEFAULT_PAIR_WORK;
  const budget = defaultWork(o.connections) + pairWork;
  const perVariant = o.work !== undefined ? Math.floor(o.work / o.variants) : escalationBound(budget);
  const extra = o.work === undefined ? footprintWork(defaultWork(o.connections), pairWork) : 0;
  return { perVariant, extra, bound: perVariant * o.variants + extra };
}

/** An integer with thousands separators (by hand: locale formatting differs between builds). */
export const thousands = (x: number): string => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Work in millions or thousands as people read it: 40 M, 100 k, 1,000 M. */
const short = (x: number): string => (x >= 1_000_000 ? `${thousands(x / 1_000_000)} M` : `${thousands(x / 1000)} k`);

const TIMES = ['no', 'once', 'twice', 'three times', 'four times', 'five times'];
const COUNT = ['no', 'one', 'two', 'three', 'four', 'five'];

/** The default budget in words, each clause with its figures: the schema text agents read and
 *  the README say each of these (tests/engine/route/plan/budget.test.ts). */
export function budgetFacts(): { perVariant: string; pairs: string; rounds: string; footprint: string } {
  return {
    perVariant: `${short(DEFAULT_WORK)} plus ${short(WORK_PER_CONNECTION)} per connection the router is asked to make, at most ${short(DEFAULT_WORK_CAP)}, for each variant`,
    pairs: `${short(DEFAULT_PAIR_WORK)} more for each differential pair it routes, to lay it as a pair`,
    rounds: `up to ${TIMES[ESCALATION]} that in all (at most ${short(DEFAULT_WORK_CAP)}, or the default where that is more)`,
    footprint: `${COUNT[FOOTPRINT_VARIANTS]} variants more, each of which may spend ${TIMES[FOOTPRINT_ESCALATION]} the default budget, at most ${short(MAX_VARIANT_WORK)}`,
  };
}
