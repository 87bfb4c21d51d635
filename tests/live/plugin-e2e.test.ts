// The plugin end to end in a real pcbnew under Xvfb, once per KiCad under test (9.0.8 on this system,
// 10.0.7 inside its root, where KiCad's python runtime is the root's python and Node the root's): the
// PCM zip unpacked the way KiCad's package manager does it (exec bits dropped) into that version's
// 3rd-party folder, KiCad's own python runtime making the venv, the toolbar buttons clicked with
// xdotool, the result checked item by item over the API, Ctrl+Z/Ctrl+Y, a re-route after undo, Check
// before commit, Open panel (the host's page reached at the address handed to the browser), that
// version's kicad-cli DRC on the saved board, an unroutable selection, and a busy editor.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BoardItem, KicadClient } from '../../ipc/index.ts';
import { installLikePcm } from '../../plugin/kicad-host/pcm-package.ts';
import { kicadDrc } from '../support/kicad-drc.ts';
import { benchBoard, describeKicads, inKicad, startKicad, type KicadInstance } from './kicad-harness.ts';
import {
  boxAround,
  buildZip,
  click,
  closeMessages,
  diffSnapshots,
  findButtons,
  hostRuntimeDir,
  lastMessage,
  lastTiming,
  messages,
  noPanelAfterRoute,
  PLUGIN_ID,
  snapshot,
  stopKicadAndHosts,
  waitFor,
  type Buttons,
} from './plugin-support.ts';

const SMALL = ['/SCK', '/MOSI'];
const BLOCKED = '/MBMISO';

function netOf(i: BoardItem): string {
  return 'net' in i ? i.net : '';
}

describeKicads('the plugin in live pcbnew, installed from its PCM zip', (version) => {
  const BOARD = benchBoard('B', 'spisolator_spisolator', version);
  const figures: Record<string, number | string> = {};
  let kicad: KicadInstance;
  let client: KicadClient;
  let buttons: Buttons;
  let pluginDir = '';
  let bareText = '';
  let work = '';

  beforeAll(async () => {
    console.log(`plugin-e2e: KiCad ${version.version}${version.rooted ? ' (pcbnew, python and node inside the KiCad 10 root)' : ''}`);
    // KiCad's python runtime makes the plugin's venv with `python -m venv`, which Debian splits out;
    // it is the python of KiCad's own system (the root's for KiCad 10), as is the Node the plugin finds.
    const venv = spawnSync(version.python, ['-c', 'import ensurepip, wx'], { encoding: 'utf8' });
    if (venv.status !== 0) throw new Error(`the plugin needs python3-venv and python3-wxgtk4.0 for KiCad's python runtime: ${venv.stderr.trim()}`);
    const node = inKicad(version, 'node', ['--version']);
    const nodeVersion = spawnSync(node.cmd, node.args, { encoding: 'utf8' }).stdout.trim();
    figures.node = nodeVersion;
    const zip = await buildZip();
    // Under /tmp, which KiCad 10's root shares: the plugin it runs must reach the stand-in browser.
    work = mkdtempSync('/tmp/tmk-e2e-');
    // Stands in for the desktop's browser: records the address the host asks it to open.
    writeFileSync(join(work, 'browser.sh'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${join(work, 'opened.txt')}'\n`);
    chmodSync(join(work, 'browser.sh'), 0o755);
    kicad = await startKicad({
      board: BOARD,
      kicad: version,
      env: { TRACEMAKER_BROWSER: join(work, 'browser.sh') },
      // What the user sets in Preferences → Plugins → Python interpreter (Debian's, which has wx).
      api: { interpreter_path: '/usr/bin/python3' },
      prepare: (home, dirs) => {
        noPanelAfterRoute(home);
        pluginDir = installLikePcm(zip, dirs.thirdParty);
      },
    });
    client = await kicad.connect({ clientName: 'tracemaker-e2e' });
    bareText = await client.boardText();
    // KiCad makes the plugin's venv and runs pip (offline, nothing to install) before showing the buttons.
    buttons = (await waitFor(
      'the plugin buttons',
      () => findButtons(kicad),
      (b) => b !== null,
      120_000,
    ))!;
  });

  afterAll(async () => {
    if (kicad) {
      closeMessages(kicad);
      await stopKicadAndHosts(kicad);
    }
    if (work) rmSync(work, { recursive: true, force: true });
    console.log(`plugin-e2e figures (KiCad ${version.version}): ${JSON.stringify(figures)}`);
  });

  async function selectNets(nets: string[]): Promise<void> {
    const pads = (await client.pads()).filter((p) => nets.includes(p.net));
    await client.clearSelection();
    await client.addToSelection(pads.map((p) => p.id));
  }

  /** Clicks Route selected nets and waits for the message window; returns its title and the click→commit time. */
  async function clickRoute(expectCopper: boolean): Promise<{ title: string; ms: number }> {
    closeMessages(kicad);
    const before = (await client.items(['track', 'arc', 'via'])).length;
    const t0 = Date.now();
    click(kicad, buttons.route);
    let ms = 0;
    if (expectCopper) {
      await waitFor(
        'new copper',
        async () => (await client.items(['track', 'arc', 'via'])).length,
        (n) => n > before,
        60_000,
      );
      ms = Date.now() - t0;
    }
    const [title] = await waitFor(
      'a TraceMaker message',
      async () => messages(kicad),
      (m) => m.length > 0,
      60_000,
    );
    return { title, ms };
  }

  it('is installed as PCM lays it out: python runtime, no exec bit, a venv KiCad made', () => {
    expect(pluginDir).toBe(join(kicad.home, '.local', 'share', 'kicad', version.configDir, '3rdparty', 'plugins', PLUGIN_ID.replaceAll('.', '_')));
    for (const f of readdirSync(pluginDir)) {
      const st = statSync(join(pluginDir, f));
      if (st.isFile()) expect(st.mode & 0o111, f).toBe(0);
    }
    const venv = join(kicad.dirs.cache, 'python-environments', PLUGIN_ID);
    expect(existsSync(join(venv, 'pyvenv.cfg'))).toBe(true);
    // KiCad sorts a plugin's buttons by action id: the route action is first, so it fits first.
    expect(buttons.route.x).toBeLessThan(buttons.check.x);
    expect(buttons.check.x).toBeLessThan(buttons.panel.x);
  });

  it('with nothing selected says so and writes nothing', async () => {
    await client.clearSelection();
    const before = await snapshot(client);
    const t0 = Date.now();
    const { title } = await clickRoute(false);
    // The first click starts Python, Node and the host: the cold path a user meets once per board.
    figures.cold_click_to_message_ms = Date.now() - t0;
    expect(title).toBe('TraceMaker: nothing selected');
    expect(diffSnapshots(before, await snapshot(client))).toEqual({ added: [], removed: [], changed: [] });
  });

  it('routes the selected nets: new locked copper on exactly those nets, nothing else changed, one undo step', async () => {
    await selectNets(SMALL);
    const before = await snapshot(client);
    const { title, ms } = await clickRoute(true);
    figures.click_to_commit_small_ms = ms;
    expect(title).toBe('TraceMaker: routed');
    const after = await snapshot(client);
    const d = diffSnapshots(before, after);
    expect(d.removed).toEqual([]);
    expect(d.changed).toEqual([]);
    expect(d.added.length).toBeGreaterThan(0);
    expect(new Set(d.added.map(netOf))).toEqual(new Set(SMALL));
    expect(d.added.every((i) => ['track', 'arc', 'via'].includes(i.kind) && 'locked' in i && i.locked)).toBe(true);
    expect(d.added.some((i) => i.kind === 'via')).toBe(true);
    figures.small_items = d.added.length;
    figures.small_timing = JSON.stringify(lastTiming(kicad, 'routed'));

    // One Ctrl+Z takes exactly the new items away; Ctrl+Y brings exactly them back.
    kicad.key('ctrl+z');
    await waitFor(
      'undo',
      async () => diffSnapshots(before, await snapshot(client)),
      (x) => x.added.length === 0,
      15_000,
    );
    expect(diffSnapshots(before, await snapshot(client))).toEqual({ added: [], removed: [], changed: [] });
    kicad.key('ctrl+y');
    await waitFor(
      'redo',
      async () => diffSnapshots(after, await snapshot(client)),
      (x) => x.removed.length === 0,
      15_000,
    );
    expect(diffSnapshots(after, await snapshot(client))).toEqual({ added: [], removed: [], changed: [] });

    // Undo again, then route again: the host sees its copper gone and routes the nets anew.
    kicad.key('ctrl+z');
    await waitFor(
      'undo',
      async () => diffSnapshots(before, await snapshot(client)),
      (x) => x.added.length === 0,
      15_000,
    );
    await selectNets(SMALL);
    const again = await clickRoute(true);
    expect(again.title).toBe('TraceMaker: routed');
    const d2 = diffSnapshots(before, await snapshot(client));
    expect(d2.removed).toEqual([]);
    expect(d2.changed).toEqual([]);
    expect(new Set(d2.added.map(netOf))).toEqual(new Set(SMALL));
    expect(d2.added.length).toBe(d.added.length);
    const t = lastTiming(kicad, 'routed')!;
    expect(t.sync).toBe('own-copper');
    figures.second_action_timing = JSON.stringify(t);
  });

  it("checks before commit: the board's DRC and what routing the selection would add, writing nothing", async () => {
    await selectNets(SMALL);
    const before = await snapshot(client);
    closeMessages(kicad);
    click(kicad, buttons.check);
    const [title] = await waitFor(
      'the check message',
      async () => messages(kicad),
      (m) => m.length > 0,
      60_000,
    );
    expect(title).toBe('TraceMaker: check');
    // The two nets were routed by the test before: the check says there is nothing to route (it said
    // "would connect 0 of 0").
    expect(lastMessage(kicad, 'checked')).toMatch(
      /^TraceMaker's DRC of the board: \d+ errors?, \d+ unrouted connections?\n(Errors: .*\n)?The 2 selected nets have no unrouted connections: nothing to route\.$/,
    );
    expect(diffSnapshots(before, await snapshot(client))).toEqual({ added: [], removed: [], changed: [] });
  });

  it('opens the panel: the host serves its page at the local address it hands the browser, writing nothing', async () => {
    const before = await snapshot(client);
    closeMessages(kicad);
    click(kicad, buttons.panel);
    const [title] = await waitFor(
      'the panel message',
      async () => messages(kicad),
      (m) => m.length > 0,
      60_000,
    );
    expect(title).toBe('TraceMaker: panel');
    const opened = join(work, 'opened.txt');
    const [url] = await waitFor(
      'the browser to be asked',
      () => (existsSync(opened) ? readFileSync(opened, 'utf8').split('\n').filter(Boolean) : []),
      (u) => u.length > 0,
      15_000,
    );
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/$/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    // Without the token the server answers nothing useful.
    expect((await fetch(new URL('/', url))).status).not.toBe(200);
    expect(diffSnapshots(before, await snapshot(client))).toEqual({ added: [], removed: [], changed: [] });
  });

  it('writes nothing for a selection it cannot route cleanly, and says why', async () => {
    // Box one pad of a two-pad net in with copper of no net on every layer: no way out.
    const pad = (await client.pads()).find((p) => p.net === BLOCKED)!;
    const ring = boxAround(pad);
    const boxCommit = await client.beginCommit();
    await boxCommit.create(ring);
    await boxCommit.push('Test: box a pad in');
    await selectNets([BLOCKED]);
    const before = await snapshot(client);
    const { title } = await clickRoute(false);
    expect(['TraceMaker: not routed', 'TraceMaker: route refused']).toContain(title);
    expect(diffSnapshots(before, await snapshot(client))).toEqual({ added: [], removed: [], changed: [] });
    const why = lastTiming(kicad, title === 'TraceMaker: not routed' ? 'not_routed' : 'refused');
    expect(why).not.toBeNull();
    closeMessages(kicad);
    kicad.key('ctrl+z');
    await waitFor(
      'the box to go',
      async () => (await client.tracks()).filter((t) => t.net === '').length,
      (n) => n === 0,
      15_000,
    );
  });

  it('reports a busy editor and writes nothing', async () => {
    const fp = (await client.footprints())[0];
    await client.clearSelection();
    await client.addToSelection([fp.id]);
    const before = await snapshot(client);
    closeMessages(kicad);
    kicad.key('e');
    await waitFor(
      'the Footprint Properties dialog',
      async () => kicad.windowNames(),
      (n) => n.includes('Footprint Properties'),
    );
    try {
      // A dialog blocks the toolbar, so run the entrypoint exactly as KiCad's python runtime does.
      const python = join(kicad.dirs.cache, 'python-environments', PLUGIN_ID, 'bin', 'python');
      const run = inKicad(version, python, [join(pluginDir, 'route_selected.py')]);
      const r = spawnSync(run.cmd, run.args, {
        cwd: pluginDir,
        encoding: 'utf8',
        timeout: 60_000,
        // No windows from this run: the message is read from results.log (a route's progress window,
        // run by hand under a modal dialog, kept this spawn from returning within 60 s).
        env: { ...kicad.env, KICAD_API_SOCKET: `ipc://${kicad.socketPath}`, KICAD_API_TOKEN: client.token, TRACEMAKER_NO_WINDOW: '1' },
      });
      // Busy is an outcome of normal work, not a fault: KiCad shows no error badge for it.
      expect(r.status).toBe(0);
      const results = readFileSync(join(hostRuntimeDir(kicad), 'results.log'), 'utf8');
      expect(results).toMatch(/ {2}TraceMaker: KiCad is busy\nKiCad is busy: nothing was written\n[^\n]+\n\n$/);
    } finally {
      const dialog = kicad.xdotool(['search', '--onlyvisible', '--name', '^Footprint Properties$']).trim().split('\n')[0];
      kicad.xdotool(['windowfocus', '--sync', dialog]);
      kicad.xdotool(['key', 'Escape']);
      await waitFor(
        'the dialog to close',
        async () => kicad.windowNames(),
        (n) => !n.includes('Footprint Properties'),
      );
    }
    expect(diffSnapshots(before, await snapshot(client))).toEqual({ added: [], removed: [], changed: [] });
  });

  it('routes a large selection (every footprint) and kicad-cli finds no added DRC error', async () => {
    const fps = await client.footprints();
    await client.clearSelection();
    await client.addToSelection(fps.map((f) => f.id));
    const before = await snapshot(client);
    const { title, ms } = await clickRoute(true);
    figures.click_to_commit_large_ms = ms;
    expect(title).toBe('TraceMaker: routed');
    const d = diffSnapshots(before, await snapshot(client));
    expect(d.removed).toEqual([]);
    expect(d.changed).toEqual([]);
    expect(d.added.every((i) => 'locked' in i && i.locked)).toBe(true);
    figures.large_items = d.added.length;
    figures.large_timing = JSON.stringify(lastTiming(kicad, 'routed'));

    // Save through the API (the editor's text, unsaved edits included) and let KiCad judge it.
    const stem = 'spisolator_spisolator';
    mkdirSync(join(work, 'bare'));
    mkdirSync(join(work, 'routed'));
    const pro = BOARD.replace(/\.kicad_pcb$/, '.kicad_pro');
    writeFileSync(join(work, 'bare', `${stem}.kicad_pcb`), bareText);
    writeFileSync(join(work, 'routed', `${stem}.kicad_pcb`), await client.boardText());
    copyFileSync(pro, join(work, 'bare', `${stem}.kicad_pro`));
    copyFileSync(pro, join(work, 'routed', `${stem}.kicad_pro`));
    const bare = await kicadDrc(version, { board: join(work, 'bare', `${stem}.kicad_pcb`), pro: join(work, 'bare', `${stem}.kicad_pro`) });
    const routed = await kicadDrc(version, { board: join(work, 'routed', `${stem}.kicad_pcb`), pro: join(work, 'routed', `${stem}.kicad_pro`) });
    expect([bare.version, routed.version]).toEqual([version.version, version.version]);
    const added = Object.entries(routed.counts).filter(([k, n]) => k.endsWith(':error') && !k.startsWith('unconnected_items') && n > (bare.counts[k] ?? 0));
    expect(added).toEqual([]);
    expect(routed.unconnected).toBeLessThan(bare.unconnected);
    figures.unconnected = `${bare.unconnected} → ${routed.unconnected}`;
  });
});
