// Rip-up and reroute after commit: a net left with pieces apart is searched once more with the
// committed nets passable at a high price, which names the nets in its way; those are ripped,
// the stuck net routes through the freed room, the ripped nets reroute around it, and the
// exchange is kept only when the open count of the nets involved drops — else all is restored.
// It never touches fixed copper and keeps the commit's invariant: what is placed is legal.

import type { NetPlan } from '../negotiate/net-plan.ts';
import type { Join, Router } from '../negotiate/router.ts';
import { viaOf } from '../core/via-span.ts';

/** Present-congestion price of the blocker search: one crossed site outweighs a long detour. */
const BLOCKER_PRES = 60;
/** At most this many nets are ripped for one stuck net (at escalation level 0; doubled per level). */
const MAX_RIPPED = 6;
/** Rounds over the stuck nets; a round without progress ends the repair. */
const MAX_ROUNDS = 4;
/** How far a chain of exchanges may go: a ripped net may rip others this many times over (at
 *  level 0; one more per level). */
const MAX_DEPTH = 2;
/** The highest escalation level: budget left after it is not spent on more of the same. */
export const MAX_LEVEL = 2;

/** How far one repair may go: wider exchanges at higher levels. */
interface Reach {
  ripped: number;
  depth: number;
}

function reachAt(level: number): Reach {
  return { ripped: MAX_RIPPED << level, depth: MAX_DEPTH + level };
}

/** The nets the stuck net's cheapest soft route crosses, most crossed first ([] when none). */
function blockersOf(router: Router, plan: NetPlan): number[] | undefined {
  const kept = router.routes.get(plan.net)?.joins ?? [];
  // After the soft search the net is placed back (its stamp again) and the stamps are scanned for
  // who holds its path (at most all of them): both owed, so no look without room for them.
  const after = router.occ.stampedBy(plan.net) + router.occ.stamped;
  if (after >= router.room) return undefined;
  router.unplace(plan);
  router.owed += after;
  const soft = router.routeNet(plan, BLOCKER_PRES, false, kept);
  router.owed -= after;
  router.place(plan, kept);
  const added = soft.joins.slice(kept.length);
  if (added.length === 0) return undefined;
  const nodes: number[] = [];
  const vias: number[] = [];
  const cells = router.grid.cells;
  for (const j of added) {
    for (let i = 0; i < j.path.length; i++) {
      nodes.push(j.path[i]);
      if (i > 0 && Math.floor(j.path[i] / cells) !== Math.floor(j.path[i - 1] / cells)) vias.push(j.path[i] % cells);
    }
  }
  const at = router.occ.netsAt(plan.profile, nodes, vias);
  router.work += at.work;
  const out = at.nets.filter((n) => n.net !== plan.net).map((n) => n.net);
  // Pad-entry stubs and the exact shapes may meet routed copper the grid stamps miss: ask the
  // exact checker too, and take the routed nets it names.
  const prof = router.profiles[plan.profile];
  const add = (net: number | undefined) => {
    if (net !== undefined && net > 0 && net !== plan.net && router.routes.has(net) && !out.includes(net)) out.push(net);
  };
  for (const j of added) {
    for (const leg of j.copper.legs) {
      for (let i = 0; i + 1 < leg.pts.length; i++)
        add(router.checker.track(plan.net, leg.layer, leg.pts[i].x, leg.pts[i].y, leg.pts[i + 1].x, leg.pts[i + 1].y, leg.width ?? prof.width[leg.layer])?.net);
    }
    for (const v of j.copper.vias) add(router.checker.via(plan.net, v.at.x, v.at.y, viaOf(prof, v, router.grid.layers))?.net);
  }
  return out;
}

/** The nets an exchange touched, with their joins and open count before it, to undo it. A
 *  touched net is placed again and, if the exchange is undone, once more: both stamps are owed
 *  (router.owed) while the journal is open, so the exchange's searches cannot spend them. */
class Journal {
  readonly saved = new Map<number, Join[]>();
  readonly plans: NetPlan[] = [];
  before = 0;
  #owes = 0;

  constructor(readonly router: Router) {}

  touch(p: NetPlan): void {
    if (this.saved.has(p.net)) return;
    this.saved.set(p.net, this.router.routes.get(p.net)?.joins ?? []);
    this.plans.push(p);
    this.before += this.router.missing(p);
    const owes = 2 * this.router.occ.stampedBy(p.net);
    this.#owes += owes;
    this.router.owed += owes;
  }

  /** The exchange is kept or undone: nothing more is owed for it. */
  close(): void {
    this.router.owed -= this.#owes;
    this.#owes = 0;
  }

  open(): number {
    let n = 0;
    for (const p of this.plans) n += this.router.missing(p);
    return n;
  }

  /** Puts every touched net back as it was; the saved routes were legal together. */
  restore(): void {
    for (const p of this.plans) this.router.unplace(p);
    for (const p of this.plans) this.router.place(p, this.saved.get(p.net)!);
  }
}

/**
 * Rips `blockers`, commits the stuck net, recommits the blockers; a blocker that lost a
 * connection may in turn rip nets not yet involved (up to the reach's depth). The caller keeps or
 * restores the whole exchange by the journal's open count.
 */
function exchange(
  router: Router,
  plan: NetPlan,
  blockers: NetPlan[],
  journal: Journal,
  guard: Set<number>,
  depth: number,
  byNet: Map<number, NetPlan>,
  reach: Reach,
): void {
  const open = new Map<number, number>();
  for (const p of [plan, ...blockers]) {
    journal.touch(p);
    open.set(p.net, router.missing(p));
    router.unplace(p);
  }
  router.commitNet(plan, router.routes.get(plan.net)?.joins ?? []);
  for (const b of blockers) router.commitNet(b, journal.saved.get(b.net)!);
  if (depth >= reach.depth) return;
  for (const b of blockers) {
    if (router.missing(b) <= open.get(b.net)! || !router.mayStart()) continue;
    const next = blockersOf(router, b);
    if (!next || next.length === 0 || next.length > reach.ripped || next.some((n) => guard.has(n))) continue;
    for (const n of next) guard.add(n);
    exchange(
      router,
      b,
      next.map((n) => byNet.get(n)!),
      journal,
      guard,
      depth + 1,
      byNet,
      reach,
    );
  }
}

/** Tries one exchange for a stuck net; true when it was kept (fewer open connections). */
function attempt(router: Router, plan: NetPlan, blockers: number[], byNet: Map<number, NetPlan>, reach: Reach): boolean {
  const journal = new Journal(router);
  const guard = new Set<number>([plan.net, ...blockers]);
  exchange(
    router,
    plan,
    blockers.map((n) => byNet.get(n)!),
    journal,
    guard,
    0,
    byNet,
    reach,
  );
  journal.close();
  if (journal.open() < journal.before) {
    for (const p of journal.plans) if (p.net !== plan.net) router.stats.get(p.net)!.rips++;
    return true;
  }
  journal.restore();
  return false;
}

/** Repairs the committed world until a round brings no progress or no search may start; a
 *  higher `level` rips more nets per exchange and chains exchanges further. */
export function repair(router: Router, order: NetPlan[], level = 0): void {
  const reach = reachAt(level);
  const byNet = new Map<number, NetPlan>();
  for (const p of order) byNet.set(p.net, p);
  // Exchanges that failed are not retried until something else changed.
  const tried = new Set<number>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let progress = false;
    for (const plan of order) {
      if (router.missing(plan) <= 0 || tried.has(plan.net)) continue;
      if (!router.mayStart()) return;
      const blockers = blockersOf(router, plan);
      if (!blockers || blockers.length === 0 || blockers.length > reach.ripped) {
        tried.add(plan.net);
        continue;
      }
      if (!router.mayStart()) return;
      // An exchange places its nets again and may put them back: not begun without room for that.
      if (2 * [plan.net, ...blockers].reduce((w, n) => w + router.occ.stampedBy(n), 0) >= router.room) {
        tried.add(plan.net);
        continue;
      }
      if (attempt(router, plan, blockers, byNet, reach)) {
        progress = true;
        tried.clear();
      } else tried.add(plan.net);
    }
    if (!progress) return;
  }
}

/**
 * Escalation's reorder: every net of the call taken out and committed again, the nets still
 * apart first (each keeps what of its old route is still legal), then repaired. Kept only when
 * fewer connections stay apart; else everything goes back as it was.
 */
export function reorder(router: Router, order: NetPlan[]): void {
  const stuck = order.filter((p) => router.missing(p) > 0);
  // Committing everything again and, when that is no better, putting it back each stamp all the
  // call's copper: not begun without room for both, which the journal owes while it is open.
  if (stuck.length === 0 || stuck.length === order.length || !router.mayStart() || 2 * router.occ.stamped >= router.room) return;
  const journal = new Journal(router);
  for (const p of order) journal.touch(p);
  for (const p of order) router.unplace(p);
  const sequence = [...stuck, ...order.filter((p) => !stuck.includes(p))];
  for (const p of sequence) router.commitNet(p, journal.saved.get(p.net)!);
  repair(router, sequence);
  journal.close();
  if (journal.open() < journal.before) return;
  journal.restore();
}
