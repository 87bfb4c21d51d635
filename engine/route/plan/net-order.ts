// The order a variant routes its nets in: hinted nets first, then by priority, fine-pitch parts
// first where asked, planes last on odd variants, big nets before the rest, shortest span first
// (jittered by the variant's seed; variant 0 keeps the plain order), then the plans' own order (by
// net name, variant-run.ts), as the sort keeps it: not the net code, which KiCad 9 and 10 give
// the same net differently.

import type { Prng } from '../../geom/prng.ts';
import type { NetPlan } from '../negotiate/net-plan.ts';
import { routeOptions, type Attempt } from '../types.ts';

/** Nets of at least this many pieces (grounds, supplies, buses of many pins) route before the rest,
 *  shortest first within each group: they have the least freedom per connection, and routed last
 *  they find their pins boxed in by everyone else's tracks. */
const BIG_NET_PIECES = 6;

export function orderNets(plans: NetPlan[], req: Attempt, rng: Prng, variant: number, planeLast: Set<number>): NetPlan[] {
  const first = req.hints?.firstNets ?? [];
  const prio = req.hints?.priority ?? {};
  const escape = routeOptions(req.options).escapePlan;
  const jitter = new Map<number, number>();
  for (const p of plans) jitter.set(p.net, variant === 0 ? 1 : 0.6 + 0.8 * rng.next());
  const key = (p: NetPlan): number[] => {
    const f = first.indexOf(p.net);
    return [
      f >= 0 ? f : first.length,
      -(prio[p.net] ?? 0),
      escape && p.minPad < 400_000 ? 0 : 1,
      planeLast.has(p.net) ? 1 : 0,
      p.pieces.length >= BIG_NET_PIECES ? 0 : 1,
      p.span * jitter.get(p.net)!,
    ];
  };
  return [...plans].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
}
