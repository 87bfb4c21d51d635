// The baseline scripted agent, driving a session only through its tools (as any agent would):
// route everything once; then, while a round gains, for each open connection: route it alone
// (route_connection, on a grid of its own), then at the narrowest width its reason suggests,
// then, where its ends share no layer, with vias allowed inside the net's pads; then rip the
// copper of the nets that fence it inside a box round one end (rip), route it, and route the
// ripped nets again. A try is kept only if the open count drops, else the session goes back to
// the state before it (restore) and the next try widens: the other end; the blockers ripped
// whole (rip_net); every net's copper in a box twice as wide round each end, then over both ends.

type Call = (tool: string, args: unknown) => Promise<object>;
type Obj = Record<string, any>;

export interface AgentSummary {
  open_before: number;
  open_after: number;
  rounds: number;
  tries: number;
  kept: number;
  /** Tries kept, by the step that gained (see the steps in repairAgent). */
  kept_by: { alone: number; narrow: number; via_in_pad: number; box: number; whole_nets: number; wide_box: number; span: number };
  work_used: number;
}

export interface AgentOptions {
  /** Variants of the first plain route. */
  variants?: number;
  /** At most this many blocker nets ripped per try. */
  maxRips?: number;
  maxRounds?: number;
  /** Half the side of the box ripped round a stuck end, mm (the wide box is twice it). */
  boxMm?: number;
}

const spent = (r: Obj) => r.error?.code === 'limit';

export async function repairAgent(call: Call, o: AgentOptions = {}): Promise<AgentSummary> {
  const openCount = async () => ((await call('board_info', {})) as Obj).open_connections as number;
  const before = await openCount();
  const summary: AgentSummary = { open_before: before, open_after: before, rounds: 0, tries: 0, kept: 0, kept_by: { alone: 0, narrow: 0, via_in_pad: 0, box: 0, whole_nets: 0, wide_box: 0, span: 0 }, work_used: 0 };
  const half = o.boxMm ?? 2.5;
  const maxRips = o.maxRips ?? 3;
  let out = spent((await call('route', o.variants ? { variants: o.variants } : {})) as Obj);
  for (let round = 0; round < (o.maxRounds ?? 8) && !out; round++) {
    summary.rounds++;
    let gained = false;
    const open = ((await call('open_connections', {})) as Obj).connections as Obj[];
    for (const c of open ?? []) {
      // A zone end is made through its piece's nearest pad (a_pad, b_pad).
      const [ea, eb] = [c.a_pad ?? c.a, c.b_pad ?? c.b] as string[];
      const openNow = await openCount();
      if (openNow === 0) break;
      const mark = ((await call('board_info', {})) as Obj).state as number;
      const blockers = ((c.blockers ?? []) as { net: string }[]).map((b) => b.net).filter((n) => n !== c.net).slice(0, maxRips);
      const padA = (await call('inspect_pad', { pad: ea })) as Obj;
      const padB = (await call('inspect_pad', { pad: eb })) as Obj;
      const [pa, pb]: number[][] = [padA.position_mm, padB.position_mm];
      // Ends that share no layer need a via; where none fits beside the pads, one inside a pad
      // of the net may (what people do on a large connector pad).
      const apart = !(padA.layers as string[]).some((l) => (padB.layers as string[]).includes(l));
      // The end the reason points at first, then the other end.
      const at: number[] = c.at_mm ?? pa;
      const other = Math.hypot(at[0] - pa[0], at[1] - pa[1]) < Math.hypot(at[0] - pb[0], at[1] - pb[1]) ? pb : pa;
      const around = (p: number[], h: number) => [p[0] - h, p[1] - h, p[0] + h, p[1] + h];
      const span = [Math.min(pa[0], pb[0]) - 1, Math.min(pa[1], pb[1]) - 1, Math.max(pa[0], pb[0]) + 1, Math.max(pa[1], pb[1]) + 1];
      // The narrowest width the rules allow, where the reason suggests a narrower track.
      const narrow = /width_mm ([0-9.]+)/.exec(c.hint ?? '')?.[1];
      const none = async () => [] as string[];
      const steps: [keyof AgentSummary['kept_by'], () => Promise<string[]>, object][] = [
        ['alone', none, {}],
        ['narrow', none, narrow ? { width_mm: Number(narrow) } : {}],
        ['via_in_pad', none, { options: { via_in_pad: true } }],
        ['box', () => ripBox(call, around(at, half), blockers), {}],
        ['box', () => ripBox(call, around(other, half), blockers), {}],
        ['whole_nets', () => ripNets(call, blockers), {}],
        ['wide_box', () => ripBox(call, around(at, 2 * half), undefined), {}],
        ['wide_box', () => ripBox(call, around(other, 2 * half), undefined), {}],
        ['span', () => ripBox(call, span, undefined), {}],
      ];
      for (const [step, rip, how] of steps) {
        if ((step === 'narrow' && !narrow) || (step === 'via_in_pad' && !apart)) continue;
        const ripped = await rip();
        // A rip that took nothing would only repeat the try alone.
        if (ripped.length === 0 && rip !== none) continue;
        summary.tries++;
        const r1 = (await call('route_connection', { net: c.net, a: ea, b: eb, ...how })) as Obj;
        // The ripped nets are routed again only when the connection went through: else the try
        // has already failed, and restoring is cheaper than routing them back.
        const r2 = r1.committed && ripped.length ? ((await call('route', { nets: ripped })) as Obj) : {};
        out = spent(r1) || spent(r2);
        if (r1.committed && (await openCount()) < openNow) {
          gained = true;
          summary.kept++;
          summary.kept_by[step]++;
          break;
        }
        // A mark the session no longer keeps would leave the failed try standing: stop there.
        if (((await call('restore', { state: mark })) as Obj).error) out = true;
        if (out) break;
      }
      if (out) break;
    }
    if (!gained) break;
  }
  summary.open_after = await openCount();
  summary.work_used = ((await call('board_info', {})) as Obj).work.used;
  return summary;
}

/** Rips session copper in a box (mm): of `nets` (none when the list is empty), or of every net
 *  when undefined. Returns the nets it took. */
async function ripBox(call: Call, box: number[], nets: string[] | undefined): Promise<string[]> {
  if (nets?.length === 0) return [];
  const r = (await call('rip', { box_mm: box, ...(nets ? { nets } : {}) })) as Obj;
  return r.error ? [] : (r.nets as string[]);
}

async function ripNets(call: Call, nets: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const n of nets) if (!((await call('rip_net', { net: n })) as Obj).error) out.push(n);
  return out;
}
