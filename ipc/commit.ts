// An open KiCad commit: everything created, updated or deleted through it becomes one undo step when it
// is pushed, and nothing at all when it is dropped. KiCad keys commits by client name, not connection.
import type { BoardItem, EditableItem, NewItem } from './types.ts';

/** What a commit needs from the client; implemented by KicadClient. */
export interface CommitHost {
  createItems(items: NewItem[]): Promise<BoardItem[]>;
  updateItems(items: EditableItem[]): Promise<BoardItem[]>;
  deleteItems(ids: string[]): Promise<void>;
  endCommit(id: string, action: 'commit' | 'drop', message: string): Promise<void>;
}

export class Commit {
  readonly id: string;
  #host: CommitHost;
  #open = true;

  constructor(host: CommitHost, id: string) {
    this.#host = host;
    this.id = id;
  }

  get open(): boolean {
    return this.#open;
  }

  /** Creates items inside the commit; returns KiCad's echo (ids assigned; nets before connectivity runs). */
  create(items: NewItem[]): Promise<BoardItem[]> {
    this.#mustBeOpen();
    return this.#host.createItems(items);
  }

  update(items: EditableItem[]): Promise<BoardItem[]> {
    this.#mustBeOpen();
    return this.#host.updateItems(items);
  }

  delete(ids: string[]): Promise<void> {
    this.#mustBeOpen();
    return this.#host.deleteItems(ids);
  }

  /** Ends the commit as one undo step labelled `message` (KiCad shows it in Edit → Undo). */
  async push(message: string): Promise<void> {
    this.#mustBeOpen();
    this.#open = false;
    await this.#host.endCommit(this.id, 'commit', message);
  }

  /** Reverts everything done in the commit. Dropping a commit that is already ended does nothing. */
  async drop(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    await this.#host.endCommit(this.id, 'drop', '');
  }

  #mustBeOpen(): void {
    if (!this.#open) throw new Error(`commit ${this.id} is already ended`);
  }
}
