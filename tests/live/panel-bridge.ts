// A minimal EditorBridge over the IPC client, for the panel's live test until the plugin's host
// bridge (plugin/kicad-host/) lands: select pads by REF.PIN and zoom there, and bring KiCad's copper
// to a session state by deleting and creating only session copper, in one commit.
import type { KicadClient, NewItem } from '../../ipc/index.ts';
import type { Session } from '../../engine/session/session.ts';
import type { SessionCopper } from '../../engine/session/copper.ts';
import type { BridgeResult, EditorBridge, PadName, StateChange } from '../../plugin/panel/bridge.ts';

export class TestBridge implements EditorBridge {
  /** Session copper KiCad holds now: item key → KiCad id. */
  readonly #placed = new Map<string, string>();

  constructor(
    readonly client: KicadClient,
    readonly session: Session,
  ) {}

  async padIds(pads: PadName[]): Promise<string[]> {
    const want = new Set(pads.map((p) => `${p.reference}.${p.pad}`));
    const ids: string[] = [];
    for (const f of await this.client.footprints()) for (const p of f.pads) if (want.has(`${f.reference}.${p.number}`)) ids.push(p.id);
    return ids.sort();
  }

  async selectPads(pads: PadName[]): Promise<BridgeResult<{ selected: number }>> {
    const ids = await this.padIds(pads);
    if (ids.length === 0) return { ok: false, message: 'none of those pads is on the open board' };
    await this.client.clearSelection();
    await this.client.addToSelection(ids);
    await this.client.zoomToSelection();
    return { ok: true, value: { selected: ids.length } };
  }

  /** This bridge writes every change itself and the test edits nothing in KiCad: always in step. */
  async sync(): Promise<BridgeResult<{ state: number }>> {
    return { ok: true, value: { state: this.session.states.current.id } };
  }

  async routeSelection(): Promise<BridgeResult<object>> {
    return { ok: false, message: 'not part of this test' };
  }

  async applyState(change: StateChange): Promise<BridgeResult<{ created: number; deleted: number }>> {
    const target = this.#items(this.session.states.get(change.to)!.copper);
    const gone = [...this.#placed.keys()].filter((k) => !target.has(k));
    const fresh = [...target.keys()].filter((k) => !this.#placed.has(k));
    const commit = await this.client.beginCommit();
    if (gone.length > 0) await commit.delete(gone.map((k) => this.#placed.get(k)!));
    const made = fresh.length > 0 ? await commit.create(fresh.map((k) => target.get(k)!)) : [];
    await commit.push(change.message);
    for (const k of gone) this.#placed.delete(k);
    fresh.forEach((k, i) => this.#placed.set(k, (made[i] as { id: string }).id));
    return { ok: true, value: { created: fresh.length, deleted: gone.length } };
  }

  #items(copper: SessionCopper): Map<string, NewItem> {
    const { board } = this.session.design;
    const layer = (i: number) => board.copperLayers.find((l) => l.index === i)!.name;
    const net = (n: number) => this.session.names.netName(n);
    const out = new Map<string, NewItem>();
    for (const t of copper.tracks) {
      out.set(`T ${t.net} ${t.layer} ${t.width} ${t.start.x},${t.start.y} ${t.end.x},${t.end.y}`, {
        kind: 'track',
        start: t.start,
        end: t.end,
        width: t.width,
        layer: layer(t.layer),
        net: net(t.net),
        locked: true,
      });
    }
    for (const v of copper.vias) {
      out.set(`V ${v.net} ${v.size} ${v.drill} ${v.at.x},${v.at.y}`, {
        kind: 'via',
        position: v.at,
        diameter: v.size,
        drill: v.drill,
        net: net(v.net),
        locked: true,
      });
    }
    return out;
  }
}
