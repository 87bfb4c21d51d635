// The work budget has one owner (engine/route/plan/budget.ts): the words agents read in the
// route tool's schema and the README's say its defaults in its own figures, and the bound a
// session's estimate gives is the one the router runs under.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolList } from '../../../../engine/session/schemas.ts';
import {
  budgetFacts,
  callBound,
  DEFAULT_PAIR_WORK,
  defaultWork,
  escalationBound,
  footprintWork,
  MAX_VARIANTS,
  variantCount,
  variantRequest,
} from '../../../../engine/route/plan/budget.ts';

const oneLine = (s: string) => s.replace(/\s+/g, ' ');

describe('the work budget', () => {
  const facts = Object.values(budgetFacts());

  it('says its defaults in the figures it routes by', () => {
    expect(facts.join(' ')).toContain('40 M plus 100 k per connection');
    expect(facts.join(' ')).toContain('at most 250 M');
    expect(facts.join(' ')).toContain('four times the default budget, at most 1,000 M');
  });

  it("is what the route tool's schema tells agents", () => {
    const route = toolList().find((t) => t.name === 'route')!;
    const work = oneLine(JSON.stringify(route.inputSchema));
    for (const f of facts) expect(work).toContain(f);
  });

  it('is what the README says', () => {
    const readme = oneLine(readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'README.md'), 'utf8'));
    for (const f of facts) expect(readme).toContain(f);
  });

  it("bounds an estimate as the router's shares and rounds do", () => {
    // A set amount is split evenly, rounded down; no further round is paid for.
    expect(callBound({ work: 10_000_001, variants: 2, connections: 50, pairs: 0 })).toEqual({ perVariant: 5_000_000, extra: 0, bound: 10_000_000 });
    expect(variantRequest({ work: 10_000_001, variants: 2 }).work).toBe(5_000_000);
    // Without it: each variant's place may spend its escalation bound, the footprint variants on top.
    const b = callBound({ work: undefined, variants: 2, connections: 300, pairs: 1 });
    const budget = defaultWork(300) + DEFAULT_PAIR_WORK;
    expect(b.perVariant).toBe(escalationBound(budget));
    expect(b.extra).toBe(footprintWork(defaultWork(300), DEFAULT_PAIR_WORK));
    expect(b.bound).toBe(2 * escalationBound(budget) + b.extra);
    expect(variantCount({ variants: 99 })).toBe(MAX_VARIANTS);
  });
});
