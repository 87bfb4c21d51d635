// The session's states: immutable snapshots of session copper named by sequence id, each
// remembering the state it was made from and the call that made it. Undo steps to that parent,
// restore jumps to any kept state, and a change after either starts a new branch (the old
// states stay restorable). Every move between states (a change, an undo, a restore) is kept as
// a numbered entry, so history shows what was done and not only where it led. At most `cap`
// states and `cap` moves are kept; the oldest off the current state's line of ancestors go
// first, then the line's oldest, but never the input state 0, the current one or its parent.

import { type SessionCopper, NO_COPPER, copperDigest } from './copper.ts';
import { ToolError } from './errors.ts';

export const MAX_STATES = 256;

export interface StateCall {
  tool: string;
  /** The call's arguments as a JSON object. */
  args: Readonly<Record<string, unknown>>;
}

/** One call that moved the session: from the state it left to the state it reached. */
export interface StateMove {
  /** 1-based, in the order the moves happened (counting moves no longer kept). */
  readonly n: number;
  readonly tool: string;
  readonly args: StateCall['args'];
  readonly from: number;
  readonly to: number;
}

export interface State<T> {
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
  readonly #states = new Map<number, State<T>>();
  readonly #moves: StateMove[] = [];
  #movesMade = 0;
  #current = 0;
  #next = 1;

  constructor(readonly cap = MAX_STATES) {
    if (cap < 2) throw new RangeError(`StateStore: cap must be at least 2, got ${cap}`);
    this.#states.set(0, Object.freeze({ id: 0, parent: null, call: null, copper: NO_COPPER, digest: copperDigest(NO_COPPER), note: undefined }));
  }

  get current(): State<T> {
    return this.#states.get(this.#current)!;
  }

  /** Kept states in id order (ids only grow, and Map keeps insertion order). */
  list(): State<T>[] {
    return [...this.#states.values()];
  }

  get(id: number): State<T> | undefined {
    return this.#states.get(id);
  }

  /** The kept moves, oldest first. */
  moves(): readonly StateMove[] {
    return this.#moves;
  }

  /** How many moves were made in all (the kept ones are the last of them). */
  get movesMade(): number {
    return this.#movesMade;
  }

  /** Makes a new state from the current one and moves to it. */
  push(call: StateCall, copper: SessionCopper, note: T | undefined): State<T> {
    const s: State<T> = Object.freeze({ id: this.#next++, parent: this.#current, call, copper, digest: copperDigest(copper), note });
    this.#states.set(s.id, s);
    this.#moveTo(s.id, call);
    this.#evict();
    return s;
  }

  /** Back to the state the current one was made from. */
  undo(call: StateCall = { tool: 'undo', args: {} }): State<T> {
    const parent = this.current.parent;
    if (parent === null) throw new ToolError('not_allowed', 'undo: already at the input state');
    if (!this.#states.has(parent)) throw new ToolError('not_allowed', `undo: state ${parent} is no longer kept (at most ${this.cap} states)`);
    this.#moveTo(parent, call);
    return this.current;
  }

  /** To any kept state; `call` names who moved (the restore tool unless told otherwise). */
  restore(id: number, call: StateCall = { tool: 'restore', args: { state: id } }): State<T> {
    if (!this.#states.has(id)) throw new ToolError('unknown_name', `restore: no state ${id} (see history)`);
    this.#moveTo(id, call);
    return this.current;
  }

  #moveTo(id: number, call: StateCall): void {
    this.#moves.push(Object.freeze({ n: ++this.#movesMade, tool: call.tool, args: call.args, from: this.#current, to: id }));
    if (this.#moves.length > this.cap) this.#moves.shift();
    this.#current = id;
  }

  // Branches off the current state's line of ancestors go first, oldest first: a caller that
  // marks a state, tries changes and restores the mark (what an agent does, hundreds of times)
  // keeps its mark. Only then the line's oldest, sparing the input, the current state and its
  // parent (so one undo always works).
  #evict(): void {
    if (this.#states.size <= this.cap) return;
    const line = new Set<number>();
    for (let id: number | null = this.#current; id !== null && this.#states.has(id); id = this.#states.get(id)!.parent) line.add(id);
    const parent = this.current.parent;
    for (const spare of [(id: number) => line.has(id), (id: number) => id === this.#current || id === parent]) {
      for (const id of this.#states.keys()) {
        if (this.#states.size <= this.cap) return;
        if (id !== 0 && !spare(id)) this.#states.delete(id);
      }
    }
  }
}
