// What the panel needs from the live editor, and nothing more: select pads and zoom there,
// route the editor's selection, bring the editor's copper to a session state in one commit, and
// bring the session in step with what the user did in the editor since (Ctrl+Z included).
// The KiCad host implements it; `tracemaker panel BOARD` has none, so those buttons are off.
// The panel never talks to KiCad itself: the bridge owns the IPC connection and its errors.

/** A pad as a person names it: footprint reference and pad number ("U3", "14"). */
export interface PadName {
  reference: string;
  pad: string;
}

/** An editor operation's outcome: errors are values, with a sentence for the panel to show. */
export type BridgeResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** A move of the session between two states, as the editor should see it. */
export interface StateChange {
  /** The state whose copper the editor holds now. */
  from: number;
  /** The state whose copper the editor should hold after the commit. */
  to: number;
  /** The commit message, e.g. "TraceMaker: route GND, +3V3" (net names are data, not markup). */
  message: string;
}

export interface EditorBridge {
  /** Selects exactly these pads in the editor (AddToSelection) and zooms to them. */
  selectPads(pads: PadName[]): Promise<BridgeResult<{ selected: number }>>;
  /**
   * Routes what is selected in the editor through the same session (the "Route selected nets"
   * flow, commit included). The value is the session's route result, shown as it is.
   */
  routeSelection(): Promise<BridgeResult<object>>;
  /**
   * Writes the difference between two states' session copper to the editor as ONE commit, so
   * one Ctrl+Z in KiCad takes it back. Only session copper is created or deleted.
   */
  applyState(change: StateChange): Promise<BridgeResult<{ created: number; deleted: number }>>;
  /**
   * Reads the editor's board and reconciles the session with it (an undo, a redo or an edit made
   * in the editor since the last look). The value is the state the session is at afterwards.
   */
  sync(): Promise<BridgeResult<{ state: number }>>;
}

/** "U3.14" → { reference: "U3", pad: "14" } (references hold no dot; pad numbers may); a zone end → undefined. */
export function padName(end: string): PadName | undefined {
  const dot = end.indexOf('.');
  if (dot <= 0 || dot === end.length - 1) return undefined;
  return { reference: end.slice(0, dot), pad: end.slice(dot + 1) };
}
