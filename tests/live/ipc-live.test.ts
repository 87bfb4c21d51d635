// The IPC client against a real pcbnew under Xvfb, once per KiCad under test (9.0.8, 10.0.7): version,
// one-undo-step commits (Ctrl+Z / Ctrl+Y through xdotool), dropped commits, the unknown-net guard, a
// crashed client's open commit, and busy handling around a modal dialog. And a pcbnew with the API
// server turned off: no socket, and the plugin's launcher says how to turn it on.
import { existsSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { KicadBusyError, KicadClient, UnknownNetError, type BoardItem, type NewItem, type Pad } from '../../ipc/index.ts';
import { launch } from '../../plugin/kicad-host/launcher.ts';
import { writeCopper } from '../support/write-copper.ts';
import { benchBoard, describeKicads, useKicad, type KicadInstance } from './kicad-harness.ts';

const NAME = 'Blink-Eras_AVR_ISP_Pogo';

async function waitFor<T>(what: string, probe: () => Promise<T>, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function ids(items: BoardItem[]): string[] {
  return items.map((i) => ('id' in i ? i.id : '')).sort();
}

async function copperIds(client: KicadClient): Promise<string[]> {
  return ids(await client.items(['track', 'via']));
}

/** Three tracks and two vias on the net of `pad`, stepping away from it in a small zig-zag. */
function copperNear(pad: Pad): NewItem[] {
  const { x, y } = pad.position;
  const mm = 1_000_000;
  const p = [
    { x, y },
    { x: x + 2 * mm, y },
    { x: x + 2 * mm, y: y + 2 * mm },
    { x: x + 4 * mm, y: y + 2 * mm },
  ];
  const track = (a: number, b: number, layer: string): NewItem => ({
    kind: 'track',
    start: p[a],
    end: p[b],
    width: 250_000,
    layer,
    net: pad.net,
    locked: true,
  });
  return [
    track(0, 1, 'F.Cu'),
    track(1, 2, 'B.Cu'),
    track(2, 3, 'F.Cu'),
    { kind: 'via', position: p[1], diameter: 800_000, drill: 400_000, net: pad.net, locked: true },
    { kind: 'via', position: p[2], diameter: 800_000, drill: 400_000, net: pad.net, locked: true },
  ];
}

describeKicads('ipc client against live pcbnew', (version) => {
  const live = useKicad(version, { board: benchBoard('A', NAME, version) });
  let kicad: KicadInstance;
  let client: KicadClient;
  let pad: Pad;

  beforeAll(async () => {
    kicad = live.instance;
    client = live.client;
    const pads = await client.pads();
    pad = pads.find((p) => p.net !== '' && p.type === 'pth')!;
    expect(pad).toBeDefined();
  });

  it(`reports version ${version.version} and the board it has open`, async () => {
    const v = await client.version();
    expect(`${v.major}.${v.minor}.${v.patch}`).toBe(version.version);
    expect(v.full.startsWith(version.version)).toBe(true);
    const board = await client.board();
    expect(board.boardFilename).toBe(`${NAME}.kicad_pcb`);
    expect(`${board.projectPath}/${board.boardFilename}`).toBe(kicad.boardPath);
    await client.ping();
  });

  it('reads nets, net classes, layers, stack-up and selection, and runs the view actions', async () => {
    const nets = await client.nets();
    expect(nets.find((n) => n.name === '')).toEqual({ code: 0, name: '' });
    expect(nets.map((n) => n.name)).toContain(pad.net);
    const classes = await client.netClasses();
    expect(classes.find((c) => c.name === 'Default')?.clearance).toBeGreaterThan(0);
    expect((await client.netClassForNets([pad.net])).get(pad.net)?.trackWidth).toBeGreaterThan(0);
    expect(await client.copperLayers()).toEqual(['F.Cu', 'B.Cu']);
    expect((await client.enabledLayers()).copperLayerCount).toBe(2);
    const stackup = await client.stackup();
    expect(stackup.filter((l) => l.type === 'copper').map((l) => l.layer)).toEqual(['F.Cu', 'B.Cu']);
    expect((await client.boardShapes()).some((s) => s.layer === 'Edge.Cuts')).toBe(true);

    const selected = await client.addToSelection([pad.id]);
    expect(selected.map((i) => ('id' in i ? i.id : ''))).toEqual([pad.id]);
    expect(await client.selection(['pad'])).toHaveLength(1);
    await client.zoomToSelection();
    await client.clearSelection();
    expect(await client.selection()).toEqual([]);
    await client.highlightNet(pad.net);
    await client.clearHighlight();
    await client.clearSelection();
    await expect(client.highlightNet('NO_SUCH_NET')).rejects.toBeInstanceOf(UnknownNetError);
    // A name KiCad does not know is reported, not run.
    expect(await client.runAction('pcbnew.Control.zoomFitScreen')).toBe('invalid');
    await client.refillZones();
  });

  it('writes several tracks and vias as one undo step (Ctrl+Z removes all, Ctrl+Y restores all)', async () => {
    const before = await copperIds(client);
    const items = copperNear(pad);
    const result = await writeCopper(client, items, 'TraceMaker live test: five items');
    expect(result.items).toHaveLength(5);
    expect(result.items.every((i) => 'locked' in i && i.locked)).toBe(true);
    const created = ids(result.items);
    const after = await copperIds(client);
    expect(after).toEqual([...before, ...created].sort());

    await client.clearSelection();
    kicad.key('ctrl+z');
    await waitFor(
      'undo',
      () => copperIds(client),
      (now) => now.length === before.length,
    );
    expect(await copperIds(client)).toEqual(before);

    kicad.key('ctrl+y');
    const redone = await waitFor(
      'redo',
      () => copperIds(client),
      (now) => now.length === before.length + 5,
    );
    expect(redone.filter((id) => !before.includes(id))).toHaveLength(5);

    await client.deleteItems(redone.filter((id) => !before.includes(id)));
    expect(await copperIds(client)).toEqual(before);
    // Deleting what is gone: KiCad 10 says so per item, 9.0.8 answers OK without a word.
    const again = client.deleteItems(redone.filter((id) => !before.includes(id)).slice(0, 1));
    if (version.major >= 10) await expect(again).rejects.toMatchObject({ command: 'DeleteItems', index: 0, code: 'IDS_NONEXISTENT' });
    else await again;
  });

  it('leaves nothing behind when a commit is dropped', async () => {
    const before = await copperIds(client);
    const commit = await client.beginCommit();
    const echoed = await commit.create(copperNear(pad));
    expect(echoed).toHaveLength(5);
    await commit.drop();
    expect(await copperIds(client)).toEqual(before);
    // The client name is free for the next commit.
    const next = await client.beginCommit();
    await next.drop();
  });

  it('refuses an unknown net before KiCad sees it', async () => {
    const netsBefore = await client.nets();
    const before = await copperIds(client);
    const bad: NewItem = {
      kind: 'track',
      start: pad.position,
      end: { x: pad.position.x + 1_000_000, y: pad.position.y },
      width: 250_000,
      layer: 'F.Cu',
      net: 'NO_SUCH_NET_42',
    };
    await expect(client.createItems([bad])).rejects.toBeInstanceOf(UnknownNetError);
    await expect(writeCopper(client, [...copperNear(pad), bad], 'never')).rejects.toThrow(/unknown net: "NO_SUCH_NET_42"/);
    // KiCad would have created the net had it seen the name.
    expect(await client.nets()).toEqual(netsBefore);
    expect(await copperIds(client)).toEqual(before);
  });

  it('drops the commit a crashed client left open under the same name', async () => {
    const before = await copperIds(client);
    const crashed = await kicad.connect({ clientName: 'tracemaker-crashy' });
    const commit = await crashed.beginCommit();
    await commit.create(copperNear(pad));
    crashed.close();

    const restarted = await kicad.connect({ clientName: 'tracemaker-crashy' });
    const fresh = await restarted.beginCommit();
    await fresh.drop();
    expect(await copperIds(client)).toEqual(before);
  });

  it('reports busy while a modal dialog is up and recovers once it is closed', async () => {
    const quick = await kicad.connect({ clientName: 'tracemaker-busy', busyTimeoutMs: 800 });
    const footprint = (await quick.footprints())[0];
    await quick.clearSelection();
    await quick.addToSelection([footprint.id]);
    kicad.key('e');
    const dialog = await waitFor(
      'the Footprint Properties dialog',
      async () => kicad.windowNames(),
      (names) => names.includes('Footprint Properties'),
    );
    expect(dialog).toContain('Footprint Properties');

    const err = await quick.tracks().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadBusyError);
    expect((err as KicadBusyError).message).toBe('KiCad is busy: close the dialog or finish the current action');
    expect((err as KicadBusyError).kicadMessage).toMatch(/busy/);
    // Read-only info calls still answer while the editor is busy.
    expect((await quick.version()).major).toBe(version.major);

    // A patient client rides the busy spell out: its call completes once the dialog is closed.
    const patient = await kicad.connect({ clientName: 'tracemaker-patient', busyTimeoutMs: 30_000 });
    const waiting = patient.tracks();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const win = kicad.xdotool(['search', '--onlyvisible', '--name', '^Footprint Properties$']).trim().split('\n')[0];
    kicad.xdotool(['windowfocus', '--sync', win]);
    kicad.xdotool(['key', 'Escape']);
    expect(Array.isArray(await waiting)).toBe(true);
    expect(Array.isArray(await quick.tracks())).toBe(true);
    await quick.clearSelection();
  });
});

describeKicads('a live pcbnew with "Enable KiCad API" off', (version) => {
  const live = useKicad(version, { board: benchBoard('A', NAME, version), api: { enable_server: false } });

  it('has no API socket, and the launcher says how to turn the API on', async () => {
    const kicad = live.instance;
    // The server starts with the application, before its frame: with the window up, a socket would be there.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(existsSync(kicad.socketPath)).toBe(false);
    const r = await launch({ action: 'route-selected', env: { ...kicad.env } });
    expect(r).toMatchObject({ ok: false, code: 'no_kicad' });
    expect(r.message).toBe(
      "TraceMaker cannot reach KiCad's API: nothing was written\n" +
        `No KiCad API socket at ${kicad.socketPath}: KiCad's API server is off or KiCad is not running. ` +
        'In KiCad 9.0 or later, turn on Preferences → Plugins → "Enable KiCad API", then restart the PCB editor with the board open.',
    );
  });
});
