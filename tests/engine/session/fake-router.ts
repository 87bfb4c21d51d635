// A stand-in router for session tests: it joins each open connection of the asked nets (or the
// one connection asked for) with one straight F.Cu track between the pad centres (no clearance
// checks), spends 1000 work a connection, and leaves the connection open instead when the work
// runs out. Enough to test transactions, states, limits, logs and replay without the real
// router's cost.

import type { Design } from '../../../engine/board/design.ts';
import type { NewTrack } from '../../../engine/board/added-copper.ts';
import type { RouteRequest, RouteResult, ConnectionResult } from '../../../engine/route/types.ts';
import { openConnections } from '../../../engine/session/ratsnest.ts';
import type { SessionPorts } from '../../../engine/session/session.ts';
import { addCopper } from '../../../engine/kicad/write-board.ts';

export const FAKE_COST = 1000;

export async function fakeRoute(design: Design, req: RouteRequest): Promise<RouteResult> {
  const { board } = design;
  const session = { tracks: req.session?.tracks ?? [], vias: req.session?.vias ?? [] };
  const only = req.connection;
  const open = openConnections(board, session, { zones: true }).filter((c) =>
    only ? 'pad' in c.a && 'pad' in c.b && [c.a.pad, c.b.pad].sort().join() === [only.from, only.to].sort().join() : !req.nets || req.nets.includes(c.net),
  );
  // `work` (else `workCap`) bounds the whole call, as the real router's does.
  const budget = req.work ?? req.workCap ?? 1e9;
  let work = 0;
  const tracks: NewTrack[] = [];
  const conns: ConnectionResult[] = [];
  for (const c of open) {
    if (!('pad' in c.a) || !('pad' in c.b)) continue;
    const pa = board.pads[c.a.pad];
    const pb = board.pads[c.b.pad];
    const ref = (i: number) => ({ pad: i, ref: board.footprints[board.pads[i].footprint].reference, number: board.pads[i].number, at: board.pads[i].at });
    const base = { net: c.net, netName: board.nets[c.net].name, from: ref(c.a.pad), to: ref(c.b.pad) };
    if (work + FAKE_COST > budget) {
      conns.push({ ...base, routed: false, stuck: { reason: 'budget', why: 'the work budget ran out', blockers: [], rips: 0, fails: 0, tried: false } });
      continue;
    }
    work += FAKE_COST;
    tracks.push({ start: pa.at, end: pb.at, width: 250_000, layer: 0, net: c.net, locked: true });
    conns.push({ ...base, routed: true });
  }
  const left = conns.filter((c) => !c.routed);
  return {
    tracks,
    vias: [],
    nets: [],
    connections: conns,
    open: left,
    ripped: { tracks: [], vias: [] },
    work,
    budget,
    setup: 0,
    stopped: left.length ? 'budget' : 'done',
    variant: 0,
    seed: req.seed ?? 1,
    summary: { routed: conns.length - left.length, open: left.length, tracks: tracks.length, vias: 0, length: 0 },
  };
}

/** Ports for an in-process session; `saved` collects what save wrote. */
export function fakePorts(saved: string[] = []): SessionPorts {
  return {
    route: fakeRoute,
    defaultWork: 1_000_000,
    defaultVariants: () => 1,
    write: (d, c) => addCopper(d.board, c.tracks, c.vias),
    save: (t) => void saved.push(t),
  };
}
