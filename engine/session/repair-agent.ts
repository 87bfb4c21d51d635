// The baseline scripted agent, driving a session only through its tools (as any agent would):
// route everything once; then, while a round gains, for each stuck connection look at its pad,
// rip the nets that block it, route the stuck net alone, route the ripped nets again, and keep
// the result only if the open count drops (else go back to the state before the try).

type Call = (tool: string, args: unknown) => Promise<object>;
type Obj = Record<string, any>;

export interface AgentSummary {
  open_before: number;
  open_after: number;
  rounds: number;
  tries: number;
  kept: number;
  work_used: number;
}

export interface AgentOptions {
  /** Variants of the first plain route. */
  variants?: number;
  /** At most this many blocker nets ripped per try. */
  maxRips?: number;
  maxRounds?: number;
}

export async function repairAgent(call: Call, o: AgentOptions = {}): Promise<AgentSummary> {
  const info = (await call('board_info', {})) as Obj;
  const summary: AgentSummary = { open_before: info.open_connections, open_after: info.open_connections, rounds: 0, tries: 0, kept: 0, work_used: 0 };
  const spent = (r: Obj) => r.error?.code === 'limit';
  const first = (await call('route', o.variants ? { variants: o.variants } : {})) as Obj;
  if (!spent(first)) {
    for (let round = 0; round < (o.maxRounds ?? 8); round++) {
      summary.rounds++;
      let gained = false;
      const open = (await call('open_connections', {})) as Obj;
      const stuck = (open.connections ?? []).filter((c: Obj) => c.blockers?.length);
      let out = false;
      for (const c of stuck) {
        const openNow = ((await call('board_info', {})) as Obj).open_connections;
        const mark = ((await call('history', {})) as Obj).current;
        if (c.a !== 'zone') await call('inspect_pad', { pad: c.a });
        const rips: string[] = [];
        for (const b of c.blockers as { net: string }[]) {
          if (rips.length >= (o.maxRips ?? 3) || b.net === c.net) continue;
          const r = (await call('rip_net', { net: b.net })) as Obj;
          if (!r.error) rips.push(b.net);
        }
        summary.tries++;
        const r1 = (await call('route', { nets: [c.net] })) as Obj;
        const r2 = rips.length ? ((await call('route', { nets: rips })) as Obj) : {};
        out = spent(r1) || spent(r2);
        const after = ((await call('board_info', {})) as Obj).open_connections;
        if (after < openNow) {
          gained = true;
          summary.kept++;
        } else await call('restore', { state: mark });
        if (out) break;
      }
      if (!gained || out) break;
    }
  }
  const end = (await call('board_info', {})) as Obj;
  summary.open_after = end.open_connections;
  summary.work_used = end.work.used;
  return summary;
}
