// The session's states: immutable snapshots of session copper named by sequence id, each
// remembering the state it was made from and the call that made it. Undo steps to that parent,
// restore jumps to any kept state, and a change after either starts a new branch (the old
// states stay restorable). At most `cap` states are kept; the oldest go first, but never the
// input state 0, the current one or its parent.

import { type SessionCopper, NO_COPPER, copperDigest } from './copper.ts';
import { ToolError } from './errors.ts';

export const MAX_STATES = 256;

export interface StateCall {
  tool: string;
  args: unknown;
}

export interface SessionState<T> {
  readonly id: number;
  /** The state this one was made from; null for the input state. */
  readonly parent: number | null;
  /** The call that made it; null for the input state. */
  readonly call: StateCall | null;
  readonly copper: SessionCopper;
  /** copperDigest(copper). */
  readonly digest: string;
  /** What a tool attached (the route's report, for stuck_report and open reasons). */
  readonly note: T | undefined;
}

export class StateStore<T> {
  readonly #states = new Map<number, SessionState<T>>();
  #current = 0;
  #next = 1;

  constructor(readonly cap = MAX_STATES) {
    if (cap < 2) throw new RangeError(`StateStore: cap must be at least 2, got ${cap}`);
    this.#states.set(0, Object.freeze({ id: 0, parent: null, call: null, copper: NO_COPPER, digest: copperDigest(NO_COPPER), note: undefined }));
  }

  get current(): SessionState<T> {
    return this.#states.get(this.#current)!;
  }

  /** Kept states in id order (ids only grow, and Map keeps insertion order). */
  list(): SessionState<T>[] {
    return [...this.#states.values()];
  }

  get(id: number): SessionState<T> | undefined {
    return this.#states.get(id);
  }

  /** Makes a new state from the current one and moves to it. */
  push(call: StateCall, copper: SessionCopper, note: T | undefined): SessionState<T> {
    const s: SessionState<T> = Object.freeze({ id: this.#next++, parent: this.#current, call, copper, digest: copperDigest(copper), note });
    this.#states.set(s.id, s);
    this.#current = s.id;
    this.#evict();
    return s;
  }

  /** Back to the state the current one was made from. */
  undo(): SessionState<T> {
    const parent = this.current.parent;
    if (parent === null) throw new ToolError('not_allowed', 'undo: already at the input state');
    if (!this.#states.has(parent)) throw new ToolError('not_allowed', `undo: state ${parent} is no longer kept (at most ${this.cap} states)`);
    this.#current = parent;
    return this.current;
  }

  restore(id: number): SessionState<T> {
    if (!this.#states.has(id)) throw new ToolError('unknown_name', `restore: no state ${id} (see history)`);
    this.#current = id;
    return this.current;
  }

  // Oldest first, sparing the input, the current state and its parent (so one undo always works).
  #evict(): void {
    const parent = this.current.parent;
    for (const id of this.#states.keys()) {
      if (this.#states.size <= this.cap) return;
      if (id !== 0 && id !== this.#current && id !== parent) this.#states.delete(id);
    }
  }
}
