// The Linux package as a user without Node meets it: the zip `npm run package` makes for Linux, with the
// official linux-x64 Node inside, unpacked the way KiCad's package manager does it (no exec bits) into
// that version's 3rd-party folder; pcbnew started with a PATH that has no node on it (a folder of links
// to the few programs it and the KiCad 10 wrappers run); Route selected nets clicked. The copper lands on
// exactly the selected nets, and the host that did it is the package's own Node: its /proc/<pid>/exe is
// runtime/linux-x64/node of the plugin folder, and no folder of its PATH holds a node.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BoardItem, KicadClient } from '../../ipc/index.ts';
import { installLikePcm } from '../../plugin/kicad-host/pcm-package.ts';
import { KICAD10_ROOT } from '../support/kicad.ts';
import { benchBoard, describeKicads, inKicad, startKicad, type KicadInstance } from './kicad-harness.ts';
import {
  buildPlatformZip,
  click,
  closeMessages,
  diffSnapshots,
  findButtons,
  hostPids,
  messages,
  noPanelAfterRoute,
  snapshot,
  stopKicadAndHosts,
  waitFor,
  type Buttons,
} from './plugin-support.ts';

const SMALL = ['/SCK', '/MOSI'];
// What pcbnew and the plugin run by name: pcbnew itself, KiCad's python, the shell, and what
// scripts/kicad10/run needs to enter the KiCad 10 root. Each is a link to /usr/bin or /usr/sbin, which
// inside the root resolves to the root's own program.
const PROGRAMS = ['pcbnew', 'python3', 'sh', 'bash', 'env', 'dirname', 'realpath', 'mountpoint', 'unshare', 'chroot', 'mkdir', 'mount'];

describeKicads('the Linux package with its own Node, on a PATH without node', (version) => {
  const BOARD = benchBoard('B', 'spisolator_spisolator', version);
  let kicad: KicadInstance;
  let client: KicadClient;
  let buttons: Buttons;
  let pluginDir = '';
  let work = '';
  let bin = '';
  const bundledNode = () => join(pluginDir, 'runtime', 'linux-x64', 'node');

  /** Runs a shell command as pcbnew's environment would, inside the KiCad 10 root for 10. */
  function shell(command: string): { status: number | null; stdout: string } {
    const run = inKicad(version, 'sh', ['-c', command]);
    const r = spawnSync(run.cmd, run.args, { encoding: 'utf8', env: { PATH: bin, HOME: work }, timeout: 30_000 });
    return { status: r.status, stdout: r.stdout.trim() };
  }

  beforeAll(async () => {
    const venv = spawnSync(version.python, ['-c', 'import ensurepip, wx'], { encoding: 'utf8' });
    if (venv.status !== 0) throw new Error(`the plugin needs python3-venv and python3-wxgtk4.0 for KiCad's python runtime: ${venv.stderr.trim()}`);
    const zip = await buildPlatformZip('linux');
    // Under /tmp, which KiCad 10's root shares: the links and the plugin folder mean the same inside.
    work = mkdtempSync('/tmp/tmk-bundled-');
    bin = join(work, 'bin');
    mkdirSync(bin);
    for (const p of PROGRAMS) {
      const target = ['/usr/bin', '/usr/sbin'].map((d) => join(d, p)).find((t) => existsSync(t));
      if (!target) throw new Error(`${p} is not in /usr/bin or /usr/sbin`);
      symlinkSync(target, join(bin, p));
    }
    kicad = await startKicad({
      board: BOARD,
      kicad: version,
      env: { PATH: bin },
      api: { interpreter_path: '/usr/bin/python3' },
      prepare: (home, dirs) => {
        noPanelAfterRoute(home);
        pluginDir = installLikePcm(zip, dirs.thirdParty);
      },
    });
    // KiCad sets up the plugin's Python environment before it shows the buttons, and may answer
    // slowly meanwhile: connect once they are up.
    buttons = (await waitFor(
      'the plugin buttons',
      () => findButtons(kicad),
      (b) => b !== null,
      120_000,
    ))!;
    client = await kicad.connect({ clientName: 'tracemaker-bundled' });
  });

  afterAll(async () => {
    if (kicad) {
      closeMessages(kicad);
      await stopKicadAndHosts(kicad);
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("starts pcbnew with a PATH on which node is not found, and the package's node without its exec bit", () => {
    expect(kicad.env.PATH).toBe(bin);
    // The PATH works (the programs on it are found) and has no node, on this system or in the root.
    expect(shell('command -v pcbnew')).toEqual({ status: 0, stdout: join(bin, 'pcbnew') });
    expect(shell('command -v node').status).not.toBe(0);
    expect(shell('command -v nodejs').status).not.toBe(0);
    // As KiCad's package manager leaves it: the launcher must make it executable itself.
    expect(statSync(bundledNode()).mode & 0o111).toBe(0);
  });

  it("routes the selected nets with the package's own Node: locked copper on exactly those nets", async () => {
    const pads = (await client.pads()).filter((p) => SMALL.includes(p.net));
    await client.clearSelection();
    await client.addToSelection(pads.map((p) => p.id));
    const before = await snapshot(client);
    const copper = (await client.items(['track', 'arc', 'via'])).length;
    closeMessages(kicad);
    const t0 = Date.now();
    click(kicad, buttons.route);
    await waitFor(
      'new copper',
      async () => (await client.items(['track', 'arc', 'via'])).length,
      (n) => n > copper,
      90_000,
    );
    const ms = Date.now() - t0;
    const [title] = await waitFor(
      'a TraceMaker message',
      async () => messages(kicad),
      (m) => m.length > 0,
      60_000,
    );
    expect(title).toBe('TraceMaker: routed');
    const d = diffSnapshots(before, await snapshot(client));
    expect(d.removed).toEqual([]);
    expect(d.changed).toEqual([]);
    expect(d.added.length).toBeGreaterThan(0);
    expect(new Set(d.added.map((i: BoardItem) => ('net' in i ? i.net : '')))).toEqual(new Set(SMALL));
    expect(d.added.every((i) => ['track', 'arc', 'via'].includes(i.kind) && 'locked' in i && i.locked)).toBe(true);

    // The host the launcher started runs the package's binary (the launcher spawns it with its own
    // process.execPath, so the launcher ran on it too). Compared by inode: KiCad 10's plugin runs in
    // the root's mount namespace, where the path reads differently from here.
    const pids = hostPids(kicad);
    expect(pids).toHaveLength(1);
    const exe = `/proc/${pids[0]}/exe`;
    const running = statSync(exe);
    const shipped = statSync(bundledNode());
    expect([running.dev, running.ino]).toEqual([shipped.dev, shipped.ino]);
    expect(statSync(bundledNode()).mode & 0o100).not.toBe(0);
    // Its environment is the one KiCad gave the plugin: no folder of its PATH has a node.
    const env = readFileSync(`/proc/${pids[0]}/environ`, 'utf8').split('\0');
    const path = env
      .find((e) => e.startsWith('PATH='))!
      .slice('PATH='.length)
      .split(':');
    expect(path).toContain(bin);
    const root = version.rooted ? KICAD10_ROOT : '/';
    expect(path.filter((dir) => existsSync(join(root, dir, 'node')) || existsSync(join(root, dir, 'nodejs')))).toEqual([]);
    console.log(
      `plugin-bundled-runtime (KiCad ${version.version}): host ${pids[0]} runs ${readlinkSync(exe)}; PATH ${path.join(':')}; click → copper ${ms} ms, ${d.added.length} items`,
    );
  });
});
