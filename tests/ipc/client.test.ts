// KicadClient over a real socket against a scripted SP peer: errors carry KiCad's status and message,
// busy is waited out on a fake clock, out-of-step replies are detected and resynchronised, a stale commit
// is dropped at connect, unknown nets never reach KiCad, and a failed write drops its commit.
import { afterEach, describe, expect, it } from 'vitest';
import {
  KicadApiError,
  KicadBusyError,
  KicadClient,
  KicadItemError,
  KicadProtocolError,
  KicadVersionError,
  UnknownNetError,
  type ConnectOptions,
  type NewItem,
} from '../../ipc/index.ts';
import { decode, packAny, type Wire } from '../../ipc/messages.ts';
import { writeCopper } from '../support/write-copper.ts';
import { kicadLike, startPeer, TOKEN, type Handler, type Peer, type Reply } from './sp-peer.ts';

const C = 'kiapi.common.commands.';
let peer: Peer | null = null;
let client: KicadClient | null = null;
afterEach(async () => {
  client?.close();
  await peer?.close();
  client = null;
  peer = null;
});

/** A fake clock: sleeping advances time at once, so back-off runs instantly and deterministically. */
function fakeClock() {
  let t = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: (ms: number) => {
      sleeps.push(ms);
      t += ms;
      return Promise.resolve();
    },
  };
}

async function connect(handler: Handler, opts: ConnectOptions = {}): Promise<KicadClient> {
  peer = await startPeer(handler);
  client = await KicadClient.connect({ socket: `ipc://${peer.path}`, env: {}, timeoutMs: 2000, ...opts });
  return client;
}

const track = (net: string, layer = 'F.Cu'): NewItem => ({
  kind: 'track',
  start: { x: 0, y: 0 },
  end: { x: 1_000_000, y: 0 },
  width: 200_000,
  layer,
  net,
});

describe('KicadClient', () => {
  it('drops a commit left open under its client name when it connects', async () => {
    await connect(kicadLike(), { clientName: 'router-7' });
    expect(peer!.received[0].command).toBe(`${C}EndCommit`);
    expect(peer!.received[0].message.action).toBe(2);
    expect(peer!.received[0].clientName).toBe('router-7');
  });

  it('learns the instance token from the first reply and sends it from then on', async () => {
    const c = await connect(kicadLike());
    await c.ping();
    expect(c.token).toBe(TOKEN);
    expect(peer!.received.map((r) => r.token)).toEqual(['', TOKEN]);
  });

  it("turns a status into KicadApiError with KiCad's message", async () => {
    const c = await connect(
      kicadLike({
        [`${C}SaveDocumentToString`]: () => ({ status: 'AS_BAD_REQUEST', error: 'the requested document demo.kicad_pcb is not open' }),
      }),
    );
    const err = await c.boardText().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadApiError);
    expect(err).toMatchObject({ code: 'AS_BAD_REQUEST', kicadMessage: 'the requested document demo.kicad_pcb is not open', command: 'SaveDocumentToString' });
  });

  it('waits out AS_BUSY with back-off and then succeeds', async () => {
    let busy = 3;
    const clock = fakeClock();
    const c = await connect(
      kicadLike({
        [`${C}Ping`]: () =>
          busy-- > 0 ? { status: 'AS_BUSY', error: 'KiCad is busy and cannot respond to API requests right now' } : { type: 'google.protobuf.Empty' },
      }),
      { ...clock, busyTimeoutMs: 10_000 },
    );
    await c.ping();
    expect(clock.sleeps).toEqual([50, 100, 200]);
  });

  it('gives up on a KiCad that stays busy with the user-facing message', async () => {
    const clock = fakeClock();
    const c = await connect(
      kicadLike({
        [`${C}GetItems`]: () => ({ status: 'AS_BUSY', error: 'KiCad is busy and cannot respond to API requests right now' }),
      }),
      { ...clock, busyTimeoutMs: 3000 },
    );
    const err = await c.tracks().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadBusyError);
    expect((err as Error).message).toBe('KiCad is busy: close the dialog or finish the current action');
    expect((err as KicadBusyError).waitedMs).toBe(3000);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(3000);
  });

  it('still connects while KiCad is busy and drops the stale commit before its first commit', async () => {
    let busy = true;
    const clock = fakeClock();
    const c = await connect(
      kicadLike({
        [`${C}EndCommit`]: () => (busy ? { status: 'AS_BUSY', error: 'busy' } : { status: 'AS_BAD_REQUEST', error: 'does not has a commit in progress' }),
        [`${C}BeginCommit`]: () => ({ type: `${C}BeginCommitResponse`, value: { id: { value: 'c1' } } }),
      }),
      clock,
    );
    expect(clock.sleeps).toEqual([]);
    busy = false;
    await c.beginCommit();
    expect(peer!.received.map((r) => short(r.command))).toEqual(['EndCommit', 'EndCommit', 'BeginCommit']);
  });

  it('refuses unknown nets before KiCad sees them', async () => {
    const c = await connect(kicadLike());
    const err = await c.createItems([track('GND'), track('NOPE'), track('ALSO_NOPE')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownNetError);
    expect((err as UnknownNetError).nets).toEqual(['ALSO_NOPE', 'NOPE']);
    expect(peer!.received.some((r) => r.command === `${C}CreateItems`)).toBe(false);
  });

  it('drops the commit when an item is refused, and names the item', async () => {
    const c = await connect(
      kicadLike({
        [`${C}BeginCommit`]: () => ({ type: `${C}BeginCommitResponse`, value: { id: { value: 'c1' } } }),
        [`${C}EndCommit`]: () => ({ type: `${C}EndCommitResponse` }),
        [`${C}CreateItems`]: (req) => ({
          type: `${C}CreateItemsResponse`,
          value: {
            status: 'IRS_OK',
            created_items: req.message.items.map((item: Wire, i: number) =>
              i === 1
                ? { status: { code: 'ISC_INVALID_DATA', error_message: 'attempted to add item with no overlapping layers with the board' } }
                : { status: { code: 'ISC_OK' }, item },
            ),
          },
        }),
      }),
    );
    const err = await writeCopper(c, [track('GND'), track('VCC', 'In1.Cu')], 'Route GND').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadItemError);
    expect(err).toMatchObject({ index: 1, code: 'ISC_INVALID_DATA' });
    const ends = peer!.received.filter((r) => r.command === `${C}EndCommit`).map((r) => r.message);
    expect(ends.at(-1)).toMatchObject({ action: 2, id: { value: 'c1' } });
  });

  it('writes copper as one commit, re-reads it and reports nets KiCad changed', async () => {
    const c = await connect(
      kicadLike({
        [`${C}BeginCommit`]: () => ({ type: `${C}BeginCommitResponse`, value: { id: { value: 'c9' } } }),
        [`${C}EndCommit`]: () => ({ type: `${C}EndCommitResponse` }),
        [`${C}CreateItems`]: (req) => ({
          type: `${C}CreateItemsResponse`,
          value: {
            status: 'IRS_OK',
            created_items: req.message.items.map((_: Wire, i: number) => ({
              status: { code: 'ISC_OK' },
              item: packAny('kiapi.board.types.Track', { id: { value: `t${i}` }, layer: 'BL_F_Cu', net: { name: 'GND' } }),
            })),
          },
        }),
        // Connectivity re-netted the second track to VCC after the commit.
        [`${C}GetItems`]: () => ({
          type: `${C}GetItemsResponse`,
          value: {
            status: 'IRS_OK',
            items: [
              packAny('kiapi.board.types.Track', { id: { value: 't0' }, layer: 'BL_F_Cu', net: { name: 'GND' }, width: { value_nm: 200000 } }),
              packAny('kiapi.board.types.Track', { id: { value: 't1' }, layer: 'BL_F_Cu', net: { name: 'VCC' }, width: { value_nm: 200000 } }),
              packAny('kiapi.board.types.Track', { id: { value: 'other' }, layer: 'BL_B_Cu', net: { name: 'GND' } }),
            ],
          },
        }),
      }),
    );
    const result = await writeCopper(c, [track('GND'), track('GND')], 'Route GND');
    expect(result.items.map((i) => ('id' in i ? i.id : ''))).toEqual(['t0', 't1']);
    expect(result.renetted).toEqual([{ id: 't1', asked: 'GND', got: 'VCC' }]);
    const commands = peer!.received.map((r) => short(r.command));
    expect(commands.slice(1)).toEqual(['BeginCommit', 'GetVersion', 'GetOpenDocuments', 'GetNets', 'CreateItems', 'EndCommit', 'GetItems']);
    expect(peer!.received.find((r) => r.command === `${C}EndCommit` && r.message.action === 1)?.message.message).toBe('Route GND');
  });

  it('on KiCad 10 sends a buried via as buried and re-reads what it wrote by id', async () => {
    const c = await connect(
      kicadLike({
        [`${C}GetVersion`]: () => ({ type: `${C}GetVersionResponse`, value: { version: { major: 10, patch: 7, full_version: '10.0.7' } } }),
        [`${C}BeginCommit`]: () => ({ type: `${C}BeginCommitResponse`, value: { id: { value: 'c1' } } }),
        [`${C}EndCommit`]: () => ({ type: `${C}EndCommitResponse` }),
        [`${C}CreateItems`]: (req) => ({
          type: `${C}CreateItemsResponse`,
          value: { status: 'IRS_OK', created_items: req.message.items.map((item: Wire) => ({ status: { code: 'ISC_OK' }, item })) },
        }),
        [`${C}GetItemsById`]: (req) => ({
          type: `${C}GetItemsResponse`,
          value: {
            status: 'IRS_OK',
            items: req.message.items.map((id: Wire) =>
              packAny('kiapi.board.types.Via', {
                id,
                type: 'VT_BURIED',
                net: { name: 'GND' },
                pad_stack: { drill: { start_layer: 'BL_In1_Cu', end_layer: 'BL_In2_Cu' } },
              }),
            ),
          },
        }),
      }),
    );
    const buried: NewItem = {
      kind: 'via',
      position: { x: 0, y: 0 },
      diameter: 600_000,
      drill: 300_000,
      net: 'GND',
      type: 'buried',
      startLayer: 'In1.Cu',
      endLayer: 'In2.Cu',
    };
    const created = await c.createItems([buried]);
    const sent = peer!.received.find((r) => r.command === `${C}CreateItems`)!.message.items[0];
    expect(sent.type_url).toBe('type.googleapis.com/kiapi.board.types.Via');
    expect(decode('kiapi.board.types.Via', sent.value).type).toBe(5);
    expect(created[0]).toMatchObject({ kind: 'via', type: 'buried' });
    const back = await c.itemsById(['a', 'b'], ['via']);
    expect(back.map((i) => (i.kind === 'via' ? [i.id, i.type, i.startLayer, i.endLayer] : null))).toEqual([
      ['a', 'buried', 'In1.Cu', 'In2.Cu'],
      ['b', 'buried', 'In1.Cu', 'In2.Cu'],
    ]);
    expect(peer!.received.some((r) => r.command === `${C}GetItems`)).toBe(false);
  });

  it('speaks to a development build of KiCad 11 (10.99) as to 11: items by id and by net, blind and buried apart', async () => {
    const c = await connect(
      kicadLike({
        [`${C}GetVersion`]: () => ({ type: `${C}GetVersionResponse`, value: { version: { major: 10, minor: 99, full_version: '10.99.0-1234-g0123abcd' } } }),
        [`${C}GetItemsById`]: () => ({ type: `${C}GetItemsResponse`, value: { status: 'IRS_OK', items: [] } }),
        ['kiapi.board.commands.GetItemsByNet']: () => ({ type: `${C}GetItemsResponse`, value: { status: 'IRS_OK', items: [] } }),
      }),
    );
    expect(await c.features()).toMatchObject({ itemsById: true, itemsByNet: true, blindAndBuriedApart: true, boardDesignRules: true });
    expect(await c.itemsById(['a'], ['via'])).toEqual([]);
    expect(await c.itemsOfNet('GND')).toEqual([]);
    const commands = peer!.received.map((r) => short(r.command));
    expect(commands).toContain('GetItemsById');
    expect(commands).toContain('GetItemsByNet');
    expect(commands).not.toContain('GetItems');
  });

  it('reads the board design rules from KiCad 11 and asks nothing of a 9 or 10, which has no such command', async () => {
    let version = { major: 11, minor: 0, full_version: '11.0.0' };
    const rules = {
      type: 'kiapi.board.commands.BoardDesignRulesResponse',
      value: { rules: { constraints: { min_clearance: { value_nm: 127_000 } } }, custom_rules_status: 'CRS_NONE' },
    };
    const c = await connect(
      kicadLike({
        [`${C}GetVersion`]: () => ({ type: `${C}GetVersionResponse`, value: { version } }),
        ['kiapi.board.commands.GetBoardDesignRules']: (req) =>
          req.message.board?.board_filename === 'demo.kicad_pcb' ? rules : { status: 'AS_BAD_REQUEST', error: 'no board' },
      }),
    );
    expect(await c.designRules()).toMatchObject({ minimums: { clearance: 127_000 }, customRules: 'none' });
    for (const older of [
      { major: 9, minor: 0, full_version: '9.0.8' },
      { major: 10, minor: 0, full_version: '10.0.7' },
    ]) {
      version = older;
      const fresh = await KicadClient.connect({ socket: `ipc://${peer!.path}`, env: {}, timeoutMs: 2000 });
      const before = peer!.received.length;
      expect(await fresh.designRules()).toBeNull();
      expect(peer!.received.slice(before).map((r) => short(r.command))).toEqual(['GetVersion']);
      fresh.close();
    }
  });

  it('takes a development build without the design-rules command as having none', async () => {
    const c = await connect(
      kicadLike({
        [`${C}GetVersion`]: () => ({ type: `${C}GetVersionResponse`, value: { version: { major: 10, minor: 99, full_version: '10.99.0' } } }),
      }),
    );
    expect(await c.designRules()).toBeNull();
    expect(peer!.received.map((r) => short(r.command))).toContain('GetBoardDesignRules');
  });

  it("opens a board by path in KiCad 11's headless server and works on it; refuses on a 10", async () => {
    const opened = { type: 'DOCTYPE_PCB', board_filename: 'other.kicad_pcb', project: { name: 'other', path: '/home/user/other' } };
    let version = { major: 11, minor: 0, full_version: '11.0.0' };
    const c = await connect(
      kicadLike({
        [`${C}GetVersion`]: () => ({ type: `${C}GetVersionResponse`, value: { version } }),
        [`${C}OpenDocument`]: (req) =>
          req.message.type === 3 && req.message.path === '/home/user/other/other.kicad_pcb'
            ? { type: `${C}OpenDocumentResponse`, value: { document: opened } }
            : { status: 'AS_BAD_REQUEST', error: 'bad path' },
        [`${C}CloseDocument`]: (req) =>
          req.message.document?.board_filename === 'other.kicad_pcb'
            ? { type: 'google.protobuf.Empty' }
            : { status: 'AS_BAD_REQUEST', error: 'No document is currently open' },
        [`${C}SaveDocumentToString`]: (req) => ({
          type: `${C}SavedDocumentResponse`,
          value: { contents: `(kicad_pcb ${req.message.document.board_filename})` },
        }),
      }),
    );
    expect(await c.openBoard('/home/user/other/other.kicad_pcb')).toEqual({
      boardFilename: 'other.kicad_pcb',
      projectName: 'other',
      projectPath: '/home/user/other',
    });
    expect(await c.boardText()).toBe('(kicad_pcb other.kicad_pcb)');
    await c.closeBoard();
    expect(peer!.received.map((r) => short(r.command))).not.toContain('GetOpenDocuments');
    version = { major: 10, minor: 0, full_version: '10.0.7' };
    const ten = await KicadClient.connect({ socket: `ipc://${peer!.path}`, env: {}, timeoutMs: 2000 });
    await expect(ten.openBoard('/home/user/other/other.kicad_pcb')).rejects.toThrow('opening a board by path needs KiCad 11 or later (kicad-cli api-server)');
    ten.close();
  });

  it("names an item KiCad 10 did not delete; takes 9.0.8's empty answer as it is", async () => {
    let perItem = true;
    const c = await connect(
      kicadLike({
        [`${C}DeleteItems`]: (req) => ({
          type: `${C}DeleteItemsResponse`,
          value: {
            status: 'IRS_OK',
            deleted_items: perItem
              ? [...req.message.item_ids].reverse().map((id: Wire) => ({ id, status: id.value === 'gone' ? 'IDS_NONEXISTENT' : 'IDS_OK' }))
              : [],
          },
        }),
      }),
    );
    await c.deleteItems(['a', 'b']);
    const err = await c.deleteItems(['a', 'gone', 'b']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadItemError);
    expect(err).toMatchObject({ command: 'DeleteItems', index: 1, code: 'IDS_NONEXISTENT' });
    expect((err as Error).message).toBe('DeleteItems: item 1: IDS_NONEXISTENT: item gone');
    perItem = false;
    await c.deleteItems(['gone']);
  });

  it('refuses a KiCad older than 9 before any board call, saying what to do', async () => {
    const c = await connect(
      kicadLike({
        [`${C}GetVersion`]: () => ({ type: `${C}GetVersionResponse`, value: { version: { major: 8, patch: 6, full_version: '8.0.6' } } }),
      }),
    );
    const err = await c.tracks().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadVersionError);
    expect((err as Error).message).toBe(
      'KiCad 8.0.6 is too old: TraceMaker needs KiCad 9.0 or later (its IPC API and plugins came with 9.0). Update KiCad, then try again',
    );
    expect(peer!.received.some((r) => r.command === `${C}GetItems` || r.command === `${C}GetOpenDocuments`)).toBe(false);
  });
});

function short(command: string): string {
  return command.slice(command.lastIndexOf('.') + 1);
}

describe('replies out of step (9.0.8 answers a malformed request twice)', () => {
  /**
   * KiCad after an unparseable request: one extra reply is queued, so each request gets the reply of the
   * one before, until the shift heals after `healAfter` shifted replies (KiCad's overwrite is racy).
   */
  function shifter(healAfter: number) {
    const base = kicadLike();
    let queue: Reply[] = [];
    let shiftedReplies = 0;
    const handler: Handler = async (req) => {
      const real = await base(req);
      if (queue.length === 0) return real;
      if (shiftedReplies === healAfter) {
        queue = [];
        return real;
      }
      shiftedReplies++;
      queue.push(real);
      return queue.shift()!;
    };
    const shift = () => {
      queue = [{ status: 'AS_BAD_REQUEST', error: 'request has no inner message' }];
    };
    return { handler, shift };
  }

  it('detects a foreign reply, resynchronises, and repeats a read', async () => {
    const s = shifter(2);
    const c = await connect(s.handler);
    s.shift();
    expect((await c.version()).full).toBe('9.0.8+1');
    const commands = peer!.received.slice(1).map((r) => short(r.command));
    // The stray reply, one shifted Ping, then two in step, then the read again.
    expect(commands).toEqual(['GetVersion', 'Ping', 'GetVersion', 'Ping', 'GetVersion']);
  });

  it('does not repeat an edit whose reply went astray', async () => {
    const s = shifter(2);
    const c = await connect(s.handler);
    s.shift();
    const err = await c.beginCommit().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadProtocolError);
    expect((err as Error).message).toMatch(/^BeginCommit: KiCad's reply was out of step .* may or may not have run$/);
    expect(peer!.received.filter((r) => r.command === `${C}BeginCommit`)).toHaveLength(1);
    expect((await c.version()).major).toBe(9);
  });

  it('gives up when the stream never comes back in step', async () => {
    const s = shifter(Infinity);
    const c = await connect(s.handler);
    s.shift();
    const err = await c.version().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadProtocolError);
    expect((err as Error).message).toMatch(/stay out of step/);
  });
});
