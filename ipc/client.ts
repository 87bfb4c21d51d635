// KicadClient: the typed commands of KiCad 9, 10 and 11's IPC API for a PCB tool. It finds the socket,
// drops a commit a crashed run left open, keeps the board specifier, refuses nets KiCad would silently
// invent, and re-reads what it wrote. It asks KiCad's version before the first board call: older than
// 9.0 is refused, and what came later (10's blind and buried via types and items by id and by net, 11's
// board design rules) is used only where the version has it (version.ts). Every method speaks plain
// objects in nm (types.ts).
import { tmpdir } from 'node:os';
import { Commit, type CommitHost } from './commit.ts';
import { boardDesignRules, copperToAny, glyphShape, itemFromAny, layerName, layerValue, netClass, stackupLayer, textsToRender } from './convert.ts';
import { KicadApiError, KicadIpcError, KicadItemError, KicadVersionError, UnknownNetError } from './errors.ts';
import { enumName, type Wire } from './messages.ts';
import { Rpc, type CallOptions } from './rpc.ts';
import { defaultSocketDir, resolveSocketPath, socketCandidates } from './socket-path.ts';
import { netConnector, Transport, type Connector } from './transport.ts';
import { apiFeatures, apiGeneration, type ApiFeatures, type ApiGeneration } from './version.ts';
import type {
  Arc,
  BoardDesignRules,
  BoardDocument,
  BoardItem,
  BoardShape,
  EditableItem,
  EnabledLayers,
  Footprint,
  ItemKind,
  KicadVersion,
  LayerName,
  Net,
  NetClass,
  NewItem,
  Pad,
  StackupLayer,
  TextShapes,
  Track,
  Via,
  Zone,
} from './types.ts';

export interface ConnectOptions {
  /** A socket path or `ipc://` URL; default KICAD_API_SOCKET, then the per-OS default and its `api-<pid>.sock` siblings. */
  socket?: string;
  /** Default KICAD_API_TOKEN; empty means "whichever KiCad answers first", remembered from then on. */
  token?: string;
  /** KiCad keys commits by this name: keep it stable per tool so a crashed run's commit can be dropped. */
  clientName?: string;
  /** The board to work on when several are open (file name as KiCad reports it). */
  boardFilename?: string;
  /** Per-call reply timeout, ms (reading a board as text gets at least `textTimeoutMs`). */
  timeoutMs?: number;
  textTimeoutMs?: number;
  /** How long AS_BUSY / AS_NOT_READY (a modal dialog, an interactive tool) are retried, ms. */
  busyTimeoutMs?: number;
  env?: Record<string, string | undefined>;
  connector?: Connector;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const C = 'kiapi.common.commands.';
const B = 'kiapi.board.commands.';
const EMPTY = 'google.protobuf.Empty';
const READ: CallOptions = { idempotent: true };
/** Texts per GetTextAsShapes call: a reply carries every glyph stroke, so batches keep replies modest. */
const TEXTS_PER_CALL = 64;

const OBJECT_TYPES: Record<ItemKind, string> = {
  footprint: 'KOT_PCB_FOOTPRINT',
  pad: 'KOT_PCB_PAD',
  shape: 'KOT_PCB_SHAPE',
  track: 'KOT_PCB_TRACE',
  via: 'KOT_PCB_VIA',
  arc: 'KOT_PCB_ARC',
  zone: 'KOT_PCB_ZONE',
};

export class KicadClient implements CommitHost {
  readonly socketPath: string;
  readonly clientName: string;
  #transport: Transport;
  #rpc: Rpc;
  #document: Wire | null = null;
  #boardFilename: string | undefined;
  #textTimeoutMs: number;
  #openCommit: Commit | null = null;
  #staleCommitDropped = false;
  #version: KicadVersion | null = null;

  private constructor(transport: Transport, rpc: Rpc, clientName: string, opts: ConnectOptions) {
    this.socketPath = transport.path;
    this.#transport = transport;
    this.#rpc = rpc;
    this.clientName = clientName;
    this.#boardFilename = opts.boardFilename;
    this.#textTimeoutMs = opts.textTimeoutMs ?? 120_000;
  }

  /**
   * Connects, checks the SP handshake and drops any commit a crashed run left open under this client name
   * (if KiCad is busy just then, the drop waits for this client's first commit).
   */
  static async connect(opts: ConnectOptions = {}): Promise<KicadClient> {
    const env = opts.env ?? process.env;
    const timeoutMs = opts.timeoutMs ?? 10_000;
    const connector = opts.connector ?? netConnector;
    const transport = await openTransport(opts.socket, env, connector, timeoutMs);
    const clientName = opts.clientName ?? 'tracemaker';
    const rpc = new Rpc(transport, {
      clientName,
      token: opts.token ?? env.KICAD_API_TOKEN ?? '',
      timeoutMs,
      busyTimeoutMs: opts.busyTimeoutMs ?? 15_000,
      sleep: opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      now: opts.now ?? Date.now,
    });
    const client = new KicadClient(transport, rpc, clientName, opts);
    try {
      await client.#dropStaleCommit(false);
    } catch (err) {
      // A busy KiCad (a dialog is up) still lets us read; the drop is then done before our first commit.
      if (!(err instanceof KicadApiError && (err.code === 'AS_BUSY' || err.code === 'AS_NOT_READY'))) {
        transport.close();
        throw err;
      }
    }
    return client;
  }

  close(): void {
    this.#transport.close();
  }

  /** KiCad's instance token, as given or as learnt from the first reply. */
  get token(): string {
    return this.#rpc.token;
  }

  async version(): Promise<KicadVersion> {
    const r = await this.#rpc.call(`${C}GetVersion`, {}, `${C}GetVersionResponse`, READ);
    const v = r.version ?? {};
    this.#version = { major: v.major ?? 0, minor: v.minor ?? 0, patch: v.patch ?? 0, full: v.full_version ?? '' };
    return this.#version;
  }

  /** The API generation of this KiCad, asked once; a KiCad older than 9 is refused with a KicadVersionError. */
  async #generation(): Promise<ApiGeneration> {
    const v = this.#version ?? (await this.version());
    const generation = apiGeneration(v);
    if (generation === null) throw new KicadVersionError(v.full || `${v.major}.${v.minor}.${v.patch}`);
    return generation;
  }

  /** What this KiCad's API offers that not every supported version has (asks GetVersion once). */
  async features(): Promise<ApiFeatures> {
    return apiFeatures(await this.#generation());
  }

  async ping(): Promise<void> {
    await this.#rpc.call(`${C}Ping`, {}, EMPTY, READ);
  }

  /** The boards open in this KiCad process (a pcbnew process has at most one). */
  async openBoards(): Promise<BoardDocument[]> {
    return (await this.#boardSpecifiers()).map(boardDocument);
  }

  /**
   * Opens a board by path in KiCad 11's headless server (`kicad-cli api-server`), which holds one
   * document at a time, and works on it from then on. A KiCad before 11, or an editor that does not open
   * documents for a client, refuses (KicadIpcError, or KicadApiError with KiCad's status).
   */
  async openBoard(path: string): Promise<BoardDocument> {
    if (!(await this.features()).openDocument) throw new KicadIpcError('opening a board by path needs KiCad 11 or later (kicad-cli api-server)');
    const r = await this.#rpc.call(`${C}OpenDocument`, { type: 'DOCTYPE_PCB', path }, `${C}OpenDocumentResponse`);
    if (!r.document?.board_filename) throw new KicadIpcError(`OpenDocument ${JSON.stringify(path)}: KiCad named no board`);
    this.#document = r.document;
    return boardDocument(r.document);
  }

  /** Closes the board this client works on in KiCad 11's headless server (see openBoard). */
  async closeBoard(): Promise<void> {
    await this.#rpc.call(`${C}CloseDocument`, { document: await this.#board() }, EMPTY);
    this.#document = null;
  }

  /** The board this client works on; picked on first use (by `boardFilename`, else the only one open). */
  async board(): Promise<BoardDocument> {
    return boardDocument(await this.#board());
  }

  /** The whole board as `.kicad_pcb` text, unsaved edits included. */
  async boardText(): Promise<string> {
    const r = await this.#rpc.call(`${C}SaveDocumentToString`, { document: await this.#board() }, `${C}SavedDocumentResponse`, {
      idempotent: true,
      timeoutMs: this.#textTimeoutMs,
    });
    return r.contents ?? '';
  }

  /** Board items of the given kinds, in KiCad's order. Footprints carry their pads. */
  async items(kinds: ItemKind[]): Promise<BoardItem[]> {
    if (kinds.length === 0) return [];
    const r = await this.#rpc.call(`${C}GetItems`, { header: await this.#header(), types: kinds.map((k) => OBJECT_TYPES[k]) }, `${C}GetItemsResponse`, READ);
    checkItemRequest(r.status, 'GetItems');
    return (r.items ?? []).map(itemFromAny);
  }

  /**
   * The items with these ids that the board holds (missing ids are left out), in KiCad's order. KiCad 10
   * looks them up itself (GetItemsById); on 9 the items of `kinds` are read and filtered here.
   */
  async itemsById(ids: string[], kinds: ItemKind[]): Promise<BoardItem[]> {
    if (ids.length === 0) return [];
    const want = new Set(ids);
    let items: BoardItem[];
    if ((await this.features()).itemsById) {
      const r = await this.#rpc.call(`${C}GetItemsById`, { header: await this.#header(), items: ids.map(kiid) }, `${C}GetItemsResponse`, READ);
      checkItemRequest(r.status, 'GetItemsById');
      items = (r.items ?? []).map(itemFromAny);
    } else {
      items = await this.items(kinds);
    }
    return items.filter((i) => 'id' in i && want.has(i.id));
  }

  /** The pads and copper (tracks, arcs, vias) of a net: KiCad 10 filters by net itself, on 9 it is done here. */
  async itemsOfNet(name: string): Promise<BoardItem[]> {
    const kinds: ItemKind[] = ['pad', 'track', 'arc', 'via'];
    if ((await this.features()).itemsByNet) {
      const r = await this.#rpc.call(
        `${B}GetItemsByNet`,
        { header: await this.#header(), types: kinds.map((k) => OBJECT_TYPES[k]), nets: [{ name }] },
        `${C}GetItemsResponse`,
        READ,
      );
      checkItemRequest(r.status, 'GetItemsByNet');
      return (r.items ?? []).map(itemFromAny);
    }
    return (await this.items(kinds)).filter((i) => 'net' in i && i.net === name);
  }

  footprints(): Promise<Footprint[]> {
    return this.#ofKind('footprint');
  }
  pads(): Promise<Pad[]> {
    return this.#ofKind('pad');
  }
  tracks(): Promise<Track[]> {
    return this.#ofKind('track');
  }
  arcs(): Promise<Arc[]> {
    return this.#ofKind('arc');
  }
  vias(): Promise<Via[]> {
    return this.#ofKind('via');
  }
  zones(): Promise<Zone[]> {
    return this.#ofKind('zone');
  }
  boardShapes(): Promise<BoardShape[]> {
    return this.#ofKind('shape');
  }

  /**
   * The visible texts and footprint fields on `layers` (layer names, e.g. the board's copper layers)
   * with the shapes KiCad draws them as: their Text messages, as GetItems gives them, go back to
   * GetTextAsShapes (a footprint's kept-upright text at the angle KiCad draws it). Text boxes are left
   * out (see TextShapes).
   */
  async textShapes(layers: Iterable<LayerName>): Promise<TextShapes[]> {
    const r = await this.#rpc.call(
      `${C}GetItems`,
      { header: await this.#header(), types: ['KOT_PCB_TEXT', 'KOT_PCB_FOOTPRINT'] },
      `${C}GetItemsResponse`,
      READ,
    );
    checkItemRequest(r.status, 'GetItems');
    const texts = textsToRender(r.items ?? [], new Set(layers));
    const out: TextShapes[] = [];
    for (let k = 0; k < texts.length; k += TEXTS_PER_CALL) {
      const batch = texts.slice(k, k + TEXTS_PER_CALL);
      const reply = await this.#rpc.call(`${C}GetTextAsShapes`, { text: batch.map((t) => ({ text: t.text })) }, `${C}GetTextAsShapesResponse`, READ);
      const got: Wire[] = reply.text_with_shapes ?? [];
      if (got.length !== batch.length) throw new KicadIpcError(`GetTextAsShapes: asked for ${batch.length} texts, got ${got.length}`);
      batch.forEach((t, i) => out.push({ ...t.meta, shapes: (got[i].shapes?.shapes ?? []).map(glyphShape) }));
    }
    return out;
  }

  /** Every net with its code (see Net.code for what a code means on 10); code 0 is the unconnected net "". */
  async nets(netClassFilter: string[] = []): Promise<Net[]> {
    const r = await this.#rpc.call(`${B}GetNets`, { board: await this.#board(), netclass_filter: netClassFilter }, `${B}NetsResponse`, READ);
    return (r.nets ?? []).map((n: Wire) => ({ code: n.code?.value ?? 0, name: n.name ?? '' }));
  }

  async netClasses(): Promise<NetClass[]> {
    const r = await this.#rpc.call(`${C}GetNetClasses`, {}, `${C}NetClassesResponse`, READ);
    return (r.net_classes ?? []).map(netClass);
  }

  /** The effective (resolved) net class of each named net. */
  async netClassForNets(names: string[]): Promise<Map<string, NetClass>> {
    const r = await this.#rpc.call(`${B}GetNetClassForNets`, { net: names.map((name) => ({ name })) }, `${B}NetClassForNetsResponse`, READ);
    const out = new Map<string, NetClass>();
    for (const [name, cls] of Object.entries(r.classes ?? {})) out.set(name, netClass(cls as Wire));
    return out;
  }

  async enabledLayers(): Promise<EnabledLayers> {
    const r = await this.#rpc.call(`${B}GetBoardEnabledLayers`, { board: await this.#board() }, `${B}BoardEnabledLayersResponse`, READ);
    return {
      copperLayerCount: r.copper_layer_count ?? 0,
      layers: (r.layers ?? []).map(layerName).filter((l: LayerName | null): l is LayerName => l !== null),
    };
  }

  /** The enabled copper layers from top to bottom: F.Cu, In1.Cu, …, B.Cu. */
  async copperLayers(): Promise<LayerName[]> {
    const { layers } = await this.enabledLayers();
    const copper = layers.filter((l) => l.endsWith('.Cu'));
    return copper.sort((a, b) => copperRank(a) - copperRank(b));
  }

  /** The physical stack-up from top to bottom. */
  async stackup(): Promise<StackupLayer[]> {
    const r = await this.#rpc.call(`${B}GetBoardStackup`, { board: await this.#board() }, `${B}BoardStackupResponse`, READ);
    return (r.stackup?.layers ?? []).map(stackupLayer);
  }

  /**
   * The board's design rules as the editor holds them (unsaved Board Setup edits included), from KiCad 11
   * on; null from a KiCad that has no such command (9 and 10: read the project file instead).
   */
  async designRules(): Promise<BoardDesignRules | null> {
    if (!(await this.features()).boardDesignRules) return null;
    try {
      const r = await this.#rpc.call(`${B}GetBoardDesignRules`, { board: await this.#board() }, `${B}BoardDesignRulesResponse`, READ);
      return boardDesignRules(r);
    } catch (err) {
      // A development build from before the command came answers that it has no handler for it.
      if (err instanceof KicadApiError && err.code === 'AS_UNHANDLED') return null;
      throw err;
    }
  }

  /** The user's selection (all kinds, or only `kinds`), as full items. */
  async selection(kinds: ItemKind[] = []): Promise<BoardItem[]> {
    const r = await this.#rpc.call(
      `${C}GetSelection`,
      { header: await this.#header(), types: kinds.map((k) => OBJECT_TYPES[k]) },
      `${C}SelectionResponse`,
      READ,
    );
    return (r.items ?? []).map(itemFromAny);
  }

  /** Adds items by id to the selection and returns the whole new selection; unknown ids are ignored by KiCad. */
  async addToSelection(ids: string[]): Promise<BoardItem[]> {
    const r = await this.#rpc.call(`${C}AddToSelection`, { header: await this.#header(), items: ids.map(kiid) }, `${C}SelectionResponse`, READ);
    return (r.items ?? []).map(itemFromAny);
  }

  async removeFromSelection(ids: string[]): Promise<BoardItem[]> {
    const r = await this.#rpc.call(`${C}RemoveFromSelection`, { header: await this.#header(), items: ids.map(kiid) }, `${C}SelectionResponse`, READ);
    return (r.items ?? []).map(itemFromAny);
  }

  async clearSelection(): Promise<void> {
    await this.#rpc.call(`${C}ClearSelection`, { header: await this.#header() }, EMPTY, READ);
  }

  /** Opens a commit; one per client name at a time (KiCad refuses a second). */
  async beginCommit(): Promise<Commit> {
    if (this.#openCommit?.open) throw new KicadIpcError(`commit ${this.#openCommit.id} is still open`);
    if (!this.#staleCommitDropped) await this.#dropStaleCommit(true);
    const r = await this.#rpc.call(`${C}BeginCommit`, {}, `${C}BeginCommitResponse`);
    this.#openCommit = new Commit(this, r.id?.value ?? '');
    return this.#openCommit;
  }

  async endCommit(id: string, action: 'commit' | 'drop', message: string): Promise<void> {
    await this.#rpc.call(`${C}EndCommit`, { id: kiid(id), action: action === 'commit' ? 'CMA_COMMIT' : 'CMA_DROP', message }, `${C}EndCommitResponse`);
  }

  /**
   * Creates copper items. Net names are checked against the board first (KiCad would create an unknown
   * name as a new net). Outside a commit each call is its own undo step. Returns KiCad's echo, whose nets
   * are as sent: connectivity may still change them when the commit ends.
   */
  async createItems(items: NewItem[]): Promise<BoardItem[]> {
    await this.#checkNets(items);
    const generation = await this.#generation();
    const r = await this.#rpc.call(
      `${C}CreateItems`,
      { header: await this.#header(), items: items.map((i) => copperToAny(i, generation)) },
      `${C}CreateItemsResponse`,
    );
    checkItemRequest(r.status, 'CreateItems');
    return itemResults('CreateItems', r.created_items ?? []);
  }

  /** Replaces items by id. Vias are sent with a plain through/blind padstack (mask settings default). */
  async updateItems(items: EditableItem[]): Promise<BoardItem[]> {
    await this.#checkNets(items);
    const generation = await this.#generation();
    const r = await this.#rpc.call(
      `${C}UpdateItems`,
      { header: await this.#header(), items: items.map((i) => copperToAny(i, generation)) },
      `${C}UpdateItemsResponse`,
    );
    checkItemRequest(r.status, 'UpdateItems');
    return itemResults('UpdateItems', r.updated_items ?? []);
  }

  /**
   * Deletes items by id. KiCad 10 reports each item, and an id it does not hold (or may not delete) is a
   * KicadItemError; 9.0.8 reports nothing per item, so there a missing id goes unnoticed.
   */
  async deleteItems(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const r = await this.#rpc.call(`${C}DeleteItems`, { header: await this.#header(), item_ids: ids.map(kiid) }, `${C}DeleteItemsResponse`);
    checkItemRequest(r.status, 'DeleteItems');
    for (const d of r.deleted_items ?? []) {
      const code = enumName('kiapi.common.commands.ItemDeletionStatus', d.status ?? 0) ?? 'IDS_UNKNOWN';
      const id: string = d.id?.value ?? '';
      if (code !== 'IDS_OK') throw new KicadItemError('DeleteItems', ids.indexOf(id), code, `item ${id}`);
    }
  }

  /** Refills every zone (KiCad 9.0.8 and 10.0.7 answer AS_UNIMPLEMENTED for a chosen few). */
  async refillZones(): Promise<void> {
    await this.#rpc.call(`${B}RefillZones`, { board: await this.#board(), zones: [] }, EMPTY);
  }

  /**
   * Runs a KiCad tool action by name. Only non-interactive actions are safe: one that opens a dialog
   * blocks the whole API until the user closes it.
   */
  async runAction(action: string): Promise<'ok' | 'invalid' | 'frame_not_open' | 'unknown'> {
    const r = await this.#rpc.call(`${C}RunAction`, { action }, `${C}RunActionResponse`);
    const status = enumName('kiapi.common.commands.RunActionStatus', r.status ?? 0) ?? 'RAS_UNKNOWN';
    return status.slice(4).toLowerCase() as 'ok' | 'invalid' | 'frame_not_open' | 'unknown';
  }

  async zoomToSelection(): Promise<void> {
    await this.#action('common.Control.zoomFitSelection');
  }

  /** Highlights a net in the editor (selects its copper, as KiCad's highlight works from the selection). */
  async highlightNet(name: string): Promise<void> {
    const known = new Set((await this.nets()).map((n) => n.name));
    if (!known.has(name)) throw new UnknownNetError([name]);
    const onNet = await this.itemsOfNet(name);
    await this.clearSelection();
    await this.addToSelection(onNet.map((i) => ('id' in i ? i.id : '')));
    await this.#action('pcbnew.EditorControl.highlightNetSelection');
  }

  async clearHighlight(): Promise<void> {
    await this.#action('pcbnew.EditorControl.clearHighlight');
  }

  async #action(name: string): Promise<void> {
    const status = await this.runAction(name);
    if (status !== 'ok') throw new KicadIpcError(`RunAction ${name}: ${status}`);
  }

  async #ofKind<T extends BoardItem>(kind: ItemKind): Promise<T[]> {
    return (await this.items([kind])).filter((i): i is T => i.kind === kind);
  }

  async #checkNets(items: { net: string }[]): Promise<void> {
    const wanted = new Set(items.map((i) => i.net).filter((n) => n !== ''));
    if (wanted.size === 0) return;
    const known = new Set((await this.nets()).map((n) => n.name));
    const unknown = [...wanted].filter((n) => !known.has(n)).sort();
    if (unknown.length > 0) throw new UnknownNetError(unknown);
  }

  async #boardSpecifiers(): Promise<Wire[]> {
    const r = await this.#rpc.call(`${C}GetOpenDocuments`, { type: 'DOCTYPE_PCB' }, `${C}GetOpenDocumentsResponse`, READ);
    return r.documents ?? [];
  }

  async #board(): Promise<Wire> {
    if (this.#document) return this.#document;
    // Every board call comes through here first: the place to refuse a KiCad whose API we do not speak.
    await this.#generation();
    const boards = await this.#boardSpecifiers();
    const wanted = this.#boardFilename;
    const pick = wanted ? boards.find((b) => b.board_filename === wanted) : boards.length === 1 ? boards[0] : undefined;
    if (!pick) {
      const names = boards.map((b) => JSON.stringify(b.board_filename)).join(', ') || 'none';
      throw new KicadIpcError(wanted ? `board ${JSON.stringify(wanted)} is not open in KiCad (open: ${names})` : `expected one open board, found ${names}`);
    }
    this.#document = pick;
    return pick;
  }

  async #header(): Promise<Wire> {
    return { document: await this.#board() };
  }

  // A run that crashed with a commit open leaves it open in KiCad under our client name. DROP is not
  // checked against the id; when there is nothing to drop KiCad answers AS_BAD_REQUEST, which is fine.
  async #dropStaleCommit(retryBusy: boolean): Promise<void> {
    try {
      // Dropping is safe to repeat, so a reply that went astray may be asked for again.
      await this.#rpc.call(`${C}EndCommit`, { action: 'CMA_DROP' }, `${C}EndCommitResponse`, { retryBusy, idempotent: true });
    } catch (err) {
      if (!(err instanceof KicadApiError) || err.code !== 'AS_BAD_REQUEST' || !/commit in progress/.test(err.kicadMessage)) {
        throw err;
      }
    }
    this.#staleCommitDropped = true;
  }
}

async function openTransport(socket: string | undefined, env: Record<string, string | undefined>, connector: Connector, timeoutMs: number): Promise<Transport> {
  const se = { env, platform: process.platform, tmpdir: env.TMPDIR || tmpdir() };
  if (socket || env.KICAD_API_SOCKET || process.platform === 'win32') {
    const path = resolveSocketPath({ ...se, env: socket ? { KICAD_API_SOCKET: socket } : env });
    const transport = new Transport(path, connector);
    await transport.open(timeoutMs);
    return transport;
  }
  // Standalone on Unix: api.sock may be stale or belong to another KiCad process; try each live one.
  const candidates = socketCandidates(defaultSocketDir(se));
  if (candidates.length === 0) candidates.push(resolveSocketPath(se));
  let lastError: unknown;
  for (const path of candidates) {
    const transport = new Transport(path, connector);
    try {
      await transport.open(timeoutMs);
      return transport;
    } catch (err) {
      transport.close();
      lastError = err;
    }
  }
  throw lastError;
}

function boardDocument(w: Wire): BoardDocument {
  return { boardFilename: w.board_filename ?? '', projectName: w.project?.name ?? '', projectPath: w.project?.path ?? '' };
}

function kiid(id: string): Wire {
  return { value: id };
}

function copperRank(layer: LayerName): number {
  if (layer === 'F.Cu') return 0;
  if (layer === 'B.Cu') return 1000;
  return layerValue(layer);
}

function checkItemRequest(status: number | undefined, command: string): void {
  const name = enumName('kiapi.common.types.ItemRequestStatus', status ?? 0) ?? 'IRS_UNKNOWN';
  if (name !== 'IRS_OK') throw new KicadIpcError(`${command}: the request as a whole failed with ${name}`);
}

function itemResults(command: string, results: Wire[]): BoardItem[] {
  return results.map((r, i) => {
    const code = enumName('kiapi.common.commands.ItemStatusCode', r.status?.code ?? 0) ?? 'ISC_UNKNOWN';
    if (code !== 'ISC_OK') throw new KicadItemError(command, i, code, r.status?.error_message ?? '');
    return itemFromAny(r.item);
  });
}
