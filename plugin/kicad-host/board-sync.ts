// Keeps one session in step with the board open in the editor. On every action the live board text is
// compared with what the session was built from, ignoring the copper the host wrote: if nothing else
// changed, the parsed board and the session are kept and only the host's copper is reconciled (gone
// copper counts as ripped, copper back after a redo as restored); anything else rebuilds the session,
// and then copper the host wrote earlier is simply part of the board. It never talks to KiCad itself.
import { basename } from 'node:path';
import type { Board } from '../../engine/board/model.ts';
import { loadDesign, type DesignFiles } from '../../engine/kicad/load.ts';
import type { Design } from '../../engine/board/design.ts';
import type { TextGlyphs } from '../../engine/kicad/read-text.ts';
import type { NewTrack, NewVia } from '../../engine/board/added-copper.ts';
import { copperDigest, type SessionCopper } from '../../engine/session/copper.ts';
import { Session, type SessionPorts, type StateNote } from '../../engine/session/session.ts';
import { readCopperBlock, readKey, splitBoard } from './board-text.ts';

/** The editor's board as the host reads it: the live text plus the project files beside the board. */
export interface LiveBoard {
  text: string;
  /** The board's path as KiCad reports it (used for names and messages only). */
  path: string;
  project?: string;
  dru?: string;
  /** The glyphs of its copper texts as the editor draws them (derived from `text`). */
  textGlyphs?: readonly TextGlyphs[];
}

export type SyncKind = 'rebuilt' | 'unchanged' | 'own-copper';

export interface SyncReport {
  kind: SyncKind;
  /** Why a rebuild happened (first action, the board changed, our copper was edited). */
  why?: string;
  /** Time spent here, ms: splitting and hashing always, parsing and indexing only on a rebuild. */
  ms: number;
  /** For own-copper: the state the session moved to. */
  state?: number;
}

type CopperItem = { track: NewTrack } | { via: NewVia };

/** A canonical key of session copper in file terms, equal to readKey() of the same item read back. */
export function copperKey(board: Board, item: CopperItem): string {
  const layer = (i: number) => board.copperLayers[i]?.name ?? `#${i}`;
  if ('track' in item) {
    const t = item.track;
    const mid = t.mid ? `${t.mid.x},${t.mid.y}` : '-';
    return `T ${t.net} ${layer(t.layer)} ${t.width} ${t.start.x},${t.start.y} ${mid} ${t.end.x},${t.end.y}`;
  }
  const v = item.via;
  return `V ${v.net} ${layer(v.layerFrom)}-${layer(v.layerTo)} ${v.size}/${v.drill} ${v.at.x},${v.at.y}`;
}

export function copperItems(c: SessionCopper): CopperItem[] {
  return [...c.tracks.map((track) => ({ track })), ...c.vias.map((via) => ({ via }))];
}

export class BoardSync {
  #session: Session | null = null;
  #digest = '';
  /** Copper the host wrote into the editor, by KiCad uuid. */
  readonly #written = new Map<string, { key: string; item: CopperItem }>();

  /** `makePorts` gets each rebuilt design and the live texts it was loaded from (the router's workers load them too). */
  constructor(readonly makePorts: (design: Design, files: DesignFiles) => SessionPorts) {}

  get session(): Session {
    if (!this.#session) throw new Error('BoardSync: sync() must run before the session is used');
    return this.#session;
  }

  /** Brings the session in step with `live`. Throws the reader's typed errors for a board it cannot read. */
  sync(live: LiveBoard): SyncReport {
    const t0 = performance.now();
    const extra = [live.project, live.dru];
    const split = splitBoard(live.text, new Set(this.#written.keys()), extra);
    const done = (r: Omit<SyncReport, 'ms'>): SyncReport => ({ ...r, ms: Math.round(performance.now() - t0) });
    if (!this.#session) return done(this.#rebuild(live, 'first action on this board'));
    if (this.#digest === '') return done(this.#rebuild(live, 'another KiCad instance holds the board'));
    if (split.digest !== this.#digest) return done(this.#rebuild(live, 'the board changed in the editor'));

    const present: CopperItem[] = [];
    for (const [uuid, block] of split.found) {
      const read = readCopperBlock(block, (name) => this.#session!.design.board.netByName.get(name));
      const mine = this.#written.get(uuid)!;
      // Our item, edited by hand (moved, re-layered): from now on it is the user's copper.
      if (!read || readKey(read) !== mine.key) return done(this.#rebuild(live, 'copper the host wrote was edited'));
      present.push(mine.item);
    }
    const s = this.#session;
    const current = s.states.current;
    const copper = toCopper(present);
    const digest = copperDigest(copper);
    if (digest === current.digest) return done({ kind: 'unchanged' });
    const state = this.#stateFor(digest) ?? this.#pushSynced(copper, digest);
    return done({ kind: 'own-copper', state });
  }

  /**
   * Forgets the session: the next sync() reads the board afresh. For a board now held by another
   * KiCad instance (restarted after a crash), whose undo history and item uuids are not the ones
   * this session kept.
   */
  detach(): void {
    // The session stays readable (the panel may be showing it) until that sync replaces it.
    this.#digest = '';
    this.#written.clear();
  }

  /** Remembers copper the host just wrote, by the uuid KiCad gave each item. */
  recordWritten(board: Board, written: { uuid: string; item: CopperItem }[]): void {
    for (const w of written) this.#written.set(w.uuid, { key: copperKey(board, w.item), item: w.item });
  }

  /** KiCad uuids of written copper, for each item of `items` (by key; undefined when not written by us). */
  uuidsOf(board: Board, items: CopperItem[]): (string | undefined)[] {
    const byKey = new Map<string, string[]>();
    for (const [uuid, w] of this.#written) {
      const list = byKey.get(w.key) ?? [];
      list.push(uuid);
      byKey.set(w.key, list);
    }
    return items.map((i) => byKey.get(copperKey(board, i))?.shift());
  }

  /** Forgets written copper that KiCad no longer holds (after a commit removed ripped items). */
  forget(uuids: string[]): void {
    for (const u of uuids) this.#written.delete(u);
  }

  #rebuild(live: LiveBoard, why: string): Omit<SyncReport, 'ms'> {
    const files: DesignFiles = {
      board: live.text,
      boardName: live.path,
      project: live.project,
      projectName: live.path.replace(/\.kicad_pcb$/, '.kicad_pro'),
      dru: live.dru,
      druName: live.path.replace(/\.kicad_pcb$/, '.kicad_dru'),
      ...(live.textGlyphs?.length ? { textGlyphs: live.textGlyphs } : {}),
    };
    const design = loadDesign(files);
    this.#session = new Session(design, this.makePorts(design, files), { boardName: basename(live.path) });
    this.#written.clear();
    this.#digest = splitBoard(live.text, new Set(), [live.project, live.dru]).digest;
    return { kind: 'rebuilt', why };
  }

  // The kept state with this copper, nearest first along the current state's ancestry (an undo in the
  // editor lands on the parent), then the newest (a redo lands on a child).
  #stateFor(digest: string): number | undefined {
    const s = this.session;
    for (let id: number | null = s.states.current.id; id !== null;) {
      const st = s.states.get(id);
      if (!st) break;
      if (st.digest === digest) return this.#restore(st.id);
      id = st.parent;
    }
    const match = s.states
      .list()
      .filter((st) => st.digest === digest)
      .pop();
    return match ? this.#restore(match.id) : undefined;
  }

  // Recorded as a move of its own: the panel's history shows that the editor went back (or forth).
  #restore(id: number): number {
    this.session.states.restore(id, { tool: 'sync', args: { reason: "the editor holds this state's copper again (undo or redo in KiCad)" } });
    return id;
  }

  // The editor holds a mix no state has (the user deleted some of our tracks): record it as a state of
  // its own so the next route starts from what the board really has.
  #pushSynced(copper: SessionCopper, digest: string): number {
    const s = this.session;
    const open = s.open(copper, digest, true).length;
    const note: StateNote = { open, reasons: new Map() };
    return s.states.push({ tool: 'sync', args: { reason: 'copper changed in the editor' } }, copper, note).id;
  }
}

function toCopper(items: CopperItem[]): SessionCopper {
  const tracks: NewTrack[] = [];
  const vias: NewVia[] = [];
  for (const i of items) {
    if ('track' in i) tracks.push(i.track);
    else vias.push(i.via);
  }
  return { tracks, vias };
}
