// What a session holds between calls: its board, store of states, work used and last route, and
// the ports it reaches the router, DRC and file system through. Tool handlers see a session as
// this; session.ts adds the one `call` every transport goes through.

import type { Design } from '../board/design.ts';
import type { Reservation, RouteProgress, RouteRequest, RouteResult, StuckReason } from '../route/index.ts';
import type { SessionCopper } from './copper.ts';
import { Names } from './names.ts';
import { type OpenConnection, openConnections } from './ratsnest.ts';
import type { ToolName } from './schemas.ts';
import { StateStore } from './states.ts';

/** What a DRC run reports, reduced to what the session's tools need. */
export interface DrcSummary {
  /** Error-level violations by type, each with where (nm) and the nets involved. */
  errors: Map<string, { at: { x: number; y: number }; nets: string[] }[]>;
  /** Unconnected items (KiCad's ratsnest count). */
  unconnected: number;
}

export interface SessionPorts {
  route(design: Design, request: RouteRequest): Promise<RouteResult>;
  /** The most a call spends when it names no work (shared with `tracemaker route`), for splitting a work limit. */
  defaultWork: number;
  /** Variants a call routes when it names none; `whole`: the call names no nets. */
  defaultVariants(whole: boolean): number;
  /** Writes the saved board text to the one file named when the session started, and the input's
   *  rule files beside it where none are there; returns the base names of the rule files written. */
  save(text: string): { rulesWritten: string[] } | void;
  /** DRC of the board with the session copper added: whole (`full`) or only where session
   *  copper is involved. Optional so tests can run without its cost. */
  drc?(design: Design, copper: SessionCopper, opts: { full: boolean; softZones?: boolean }): DrcSummary;
  /** Board text with the copper added (the same writer `tracemaker route` uses). */
  write(design: Design, copper: SessionCopper): string;
  /** PNG bytes of an SVG picture at the SVG's own pixel size (render's format "png"). Optional:
   *  without it such a render answers not_supported. */
  rasterise?(svg: string): Promise<Uint8Array>;
  /** Told about internal failures (bugs), whose text is kept out of results. */
  internalError?(tool: string, e: unknown): void;
}

export interface SessionOptions {
  /** Total work the session may spend; undefined = unlimited. */
  workLimit?: number;
  /** Name shown by board_info (the file's base name, never a path). */
  boardName: string;
}

/** What a caller may hand one call besides its arguments; none of it reaches the log. */
export interface CallOptions {
  /** A route's progress (connections done of total, work), as the router reports it. */
  onProgress?: (p: RouteProgress) => void;
  /** Polled between a route's searches: true stops it, keeping the best clean result so far. */
  shouldStop?: () => boolean;
  /**
   * false: the call is not reported to the log sink (a viewer's own looks at a session an agent
   * drives). Only for tools that change nothing (LOOK_TOOLS): the log must hold every call that
   * moves the session, or its replay would not reach the same states.
   */
  record?: boolean;
}

/** What a tool handler gets of the call's options. */
export type CallContext = Pick<CallOptions, 'onProgress' | 'shouldStop'>;

/** Tools that change neither the state, the work used nor the last route: safe to leave unlogged. */
export const LOOK_TOOLS: ReadonlySet<string> = new Set<ToolName>([
  'board_info',
  'open_connections',
  'inspect_pad',
  'inspect_net',
  'render',
  'history',
  'check',
  'stuck_report',
]);

/** One call as the log records it. */
export interface CallRecord {
  tool: string;
  args: unknown;
  result: string;
  state: number;
  state_digest: string;
}

/** What the session notes on each state it makes. */
export interface StateNote {
  /** Open connections in the state (zones counting as connecting). */
  open: number;
  /** Why connections stayed open, from the route that made the state (or an ancestor's):
   *  key `net|a|b` with pad indices, a ≤ b. */
  reasons: Map<string, StuckReason>;
  /** Boxes kept for one net each (the reserve tool), carried into every state made from this one. */
  reserved?: readonly Reservation[];
}

/** The last route call (committed or not), for stuck_report: the router's result, and the copper
 *  the call left (the state it made, or a dry run's or refused route's own) with that copper's note. */
export interface LastRoute {
  result: RouteResult;
  committed: boolean;
  /** The state the route answered with: the one it made, or the one it ran on. */
  state: number;
  /** The nets the call routed; undefined: every net. */
  nets?: readonly number[];
  copper: SessionCopper;
  /** copperDigest(copper). */
  digest: string;
  note: StateNote;
}

export class SessionState {
  readonly names: Names;
  readonly states = new StateStore<StateNote>();
  workUsed = 0;
  lastRoute: LastRoute | undefined;
  /** The record of the last recorded call (what the log got). */
  lastRecord: CallRecord | undefined;
  #inputDrc: DrcSummary | undefined;
  readonly #openCache = new Map<string, OpenConnection[]>();

  constructor(
    readonly design: Design,
    readonly ports: SessionPorts,
    readonly options: SessionOptions,
    readonly onRecord?: (r: CallRecord) => void,
  ) {
    this.names = new Names(design.board);
  }

  /** Open connections of a state's copper; the last few answers are kept by copper digest. */
  open(copper: SessionCopper, digest: string, zones: boolean): OpenConnection[] {
    const key = `${digest}|${zones}`;
    let hit = this.#openCache.get(key);
    if (!hit) {
      hit = openConnections(this.design.board, copper, { zones });
      if (this.#openCache.size >= 8) this.#openCache.delete(this.#openCache.keys().next().value!);
      this.#openCache.set(key, hit);
    }
    return hit;
  }

  get workLeft(): number | null {
    return this.options.workLimit === undefined ? null : Math.max(0, this.options.workLimit - this.workUsed);
  }

  /** Full DRC of the input board, computed once (the baseline `check` measures from). */
  inputDrc(): DrcSummary | undefined {
    if (!this.ports.drc) return undefined;
    this.#inputDrc ??= this.ports.drc(this.design, { tracks: [], vias: [] }, { full: true });
    return this.#inputDrc;
  }
}
