// The panel's view of the live editor (plugin/panel/bridge.ts), implemented over the host's KiCad
// connection: select and zoom to pads, route the editor's selection through the same action the toolbar
// runs, write a move between session states as one commit, and reconcile the session with the live
// board as every action does. Every call goes through the host's queue, so a panel click and a toolbar
// click never interleave on the board or the session.
import type { BridgeResult, EditorBridge, PadName, StateChange } from '../panel/bridge.ts';
import type { KicadClient } from '../../ipc/index.ts';
import { readLive, runAction, type ActionContext } from './actions.ts';
import { copperDiff, writeBack } from './write-back.ts';

export interface BridgeHost {
  /** Runs `fn` after every earlier action of the host has finished. */
  enqueue<T>(fn: () => Promise<T>): Promise<T>;
  context(): ActionContext;
}

function failed(err: unknown): { ok: false; message: string } {
  return { ok: false, message: err instanceof Error ? err.message : String(err) };
}

export class KicadEditorBridge implements EditorBridge {
  constructor(readonly host: BridgeHost) {}

  selectPads(pads: PadName[]): Promise<BridgeResult<{ selected: number }>> {
    return this.host.enqueue(async () => {
      try {
        const client: KicadClient = await this.host.context().client();
        const wanted = new Set(pads.map((p) => `${p.reference}\0${p.pad}`));
        const ids = (await client.footprints()).flatMap((f) => f.pads.filter((p) => wanted.has(`${f.reference}\0${p.number}`)).map((p) => p.id));
        await client.clearSelection();
        if (ids.length > 0) {
          await client.addToSelection(ids);
          await client.zoomToSelection();
        }
        return { ok: true, value: { selected: ids.length } };
      } catch (err) {
        return failed(err);
      }
    });
  }

  routeSelection(): Promise<BridgeResult<object>> {
    return this.host.enqueue(async () => {
      const r = await runAction(this.host.context(), { action: 'route-selected' });
      return r.ok ? { ok: true, value: { message: r.message, ...r.details } } : { ok: false, message: r.message };
    });
  }

  sync(): Promise<BridgeResult<{ state: number }>> {
    return this.host.enqueue(async () => {
      try {
        const cx = this.host.context();
        cx.sync.sync(await readLive(await cx.client()));
        return { ok: true, value: { state: cx.sync.session.states.current.id } };
      } catch (err) {
        return failed(err);
      }
    });
  }

  applyState(change: StateChange): Promise<BridgeResult<{ created: number; deleted: number }>> {
    return this.host.enqueue(async () => {
      try {
        const cx = this.host.context();
        const s = cx.sync.session;
        const from = s.states.get(change.from);
        const to = s.states.get(change.to);
        if (!from || !to) return { ok: false, message: `state ${from ? change.to : change.from} is no longer kept` };
        const board = s.design.board;
        const diff = copperDiff(board, from.copper, to.copper);
        const removeIds = cx.sync.uuidsOf(board, diff.removed).filter((u): u is string => u !== undefined);
        if (diff.added.length === 0 && removeIds.length === 0) return { ok: true, value: { created: 0, deleted: 0 } };
        // The panel's routes follow the same setting as the toolbar's.
        const locked = cx.settings?.().lockNewCopper ?? true;
        const written = await writeBack(await cx.client(), board, diff, removeIds, change.message, { locked });
        cx.sync.forget(removeIds);
        cx.sync.recordWritten(
          board,
          written.uuids.map((uuid, i) => ({ uuid, item: diff.added[i] })),
        );
        return { ok: true, value: { created: written.uuids.length, deleted: removeIds.length } };
      } catch (err) {
        return failed(err);
      }
    });
  }
}
