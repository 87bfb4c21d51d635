// What the plugin's live tests share: the bundle and PCM zip built fresh, the toolbar buttons found on
// screen (KiCad draws them inside its toolbar, so there is no window to search: the icons' copper
// colour is looked for with wx, which every KiCad install has), message windows, and item snapshots.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import type { BoardItem, KicadClient, NewItem, Pad } from '../../ipc/index.ts';
import { packageEntries, packageZip, writeZip, type PackageSources } from '../../plugin/kicad-host/pcm-package.ts';
import { nodeBinary, nodeLicense, RUNTIMES, type Runtime } from '../../scripts/node-runtimes.ts';
import type { KicadInstance } from './kicad-harness.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const PLUGIN_ID = 'org.tracemaker.kicad';

/** Bundles plugin/cli.ts as scripts/build.mjs does, into a temp folder; returns the bundle's path. */
export async function buildBundle(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'tmk-bundle-')), 'tracemaker.js');
  await build({
    entryPoints: [join(ROOT, 'plugin', 'cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __tmCreateRequire } from 'node:module'; const require = __tmCreateRequire(import.meta.url);" },
  });
  return out;
}

/** Runs `make` on the package sources of the current tree (a fresh bundle, the rasteriser's
 *  WebAssembly, the built panel if any); the bundle's temp folder is removed again. */
async function withSources<T>(make: (src: PackageSources) => T): Promise<T> {
  const bundle = await buildBundle();
  try {
    // The PNG rasteriser's WebAssembly, from where scripts/build.mjs copies it.
    const wasm = createRequire(join(ROOT, 'package.json')).resolve('@resvg/resvg-wasm/index_bg.wasm');
    return make({ root: ROOT, bundle, wasm, ...(existsSync(join(ROOT, 'dist', 'ui', 'app.js')) ? { ui: join(ROOT, 'dist', 'ui') } : {}) });
  } finally {
    rmSync(dirname(bundle), { recursive: true, force: true });
  }
}

/** The PCM zip of the current sources, without a Node runtime. */
export async function buildZip(): Promise<Buffer> {
  return withSources((src) => writeZip(packageEntries(src)));
}

/** The platform package `npm run package` makes (scripts/package-platforms.ts) from the current
 *  sources: the official Node of that platform inside, metadata sizes filled in. */
export async function buildPlatformZip(platform: Runtime['platform']): Promise<Buffer> {
  const files = RUNTIMES.filter((r) => r.platform === platform).map((r) => ({
    dir: r.dir,
    exe: r.binary.endsWith('.exe') ? 'node.exe' : 'node',
    data: nodeBinary(r),
  }));
  return withSources((src) => packageZip({ ...src, runtimes: { platforms: [platform], files, license: nodeLicense() } }).zip);
}

// The icons' copper (scripts/make-icons.mjs, light theme) in the top toolbar strip.
const FIND_BUTTONS = `
import sys, wx
app = wx.App(False)
x0, y0, h = 0, 20, 50
w = wx.GetDisplaySize()[0]
dc = wx.ScreenDC(); bmp = wx.Bitmap(w, h); mem = wx.MemoryDC(bmp)
mem.Blit(0, 0, w, h, dc, x0, y0); mem.SelectObject(wx.NullBitmap)
data = bmp.ConvertToImage().GetData()
cols = {}
for y in range(h):
    for x in range(w):
        o = (y * w + x) * 3
        if abs(data[o] - 200) < 12 and abs(data[o + 1] - 110) < 14 and abs(data[o + 2] - 30) < 14:
            cols.setdefault(x, []).append(y + y0)
groups = []
for x in sorted(cols):
    if groups and x - groups[-1][-1][0] <= 4:
        groups[-1].append((x, cols[x]))
    else:
        groups.append([(x, cols[x])])
for g in groups:
    ys = [y for _, c in g for y in c]
    print((g[0][0] + g[-1][0]) // 2, sum(ys) // len(ys))
`;

export interface Buttons {
  check: { x: number; y: number };
  panel: { x: number; y: number };
  route: { x: number; y: number };
}

/** The plugin buttons KiCad draws in its top toolbar, left to right (those that fit the window). */
export function pluginButtons(kicad: KicadInstance): { x: number; y: number }[] {
  const r = spawnSync('/usr/bin/python3', ['-c', FIND_BUTTONS], { env: { ...kicad.env, DISPLAY: kicad.display }, encoding: 'utf8' });
  return r.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' ').map(Number))
    .map(([x, y]) => ({ x, y }));
}

/** The three plugin buttons, once KiCad shows them (sorted by action id: a-route-selected, b-check, c-open-panel). */
export function findButtons(kicad: KicadInstance): Buttons | null {
  const spots = pluginButtons(kicad);
  if (spots.length !== 3) return null;
  return { route: spots[0], check: spots[1], panel: spots[2] };
}

export function click(kicad: KicadInstance, at: { x: number; y: number }): void {
  kicad.xdotool(['mousemove', String(at.x), String(at.y), 'click', '1']);
  // Move off the button so a tooltip does not cover the next screenshot.
  kicad.xdotool(['mousemove', '600', '500']);
}

/** The title of the route's progress window, which is no message. */
export const PROGRESS_TITLE = 'TraceMaker: routing';

/** Titles of the plugin's message windows now on screen ("TraceMaker: …"), without the progress window. */
export function messages(kicad: KicadInstance): string[] {
  return kicad.windowNames().filter((n) => n.startsWith('TraceMaker:') && n !== PROGRESS_TITLE);
}

/** Closes every message window (each is its own small process, ended through its window). */
export function closeMessages(kicad: KicadInstance): void {
  let ids: string[] = [];
  try {
    ids = kicad.xdotool(['search', '--name', '^TraceMaker:']).split('\n').filter(Boolean);
  } catch {
    return;
  }
  for (const id of ids) {
    try {
      kicad.xdotool(['windowkill', id]);
    } catch {
      // Already closed by its own timer.
    }
  }
}

export async function waitFor<T>(what: string, probe: () => Promise<T> | T, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every board item KiCad reports, by id, as JSON (footprints carry their pads). */
export async function snapshot(client: KicadClient): Promise<Map<string, string>> {
  const items = await client.items(['footprint', 'shape', 'track', 'arc', 'via', 'zone']);
  const out = new Map<string, string>();
  for (const i of items) if ('id' in i) out.set(i.id, JSON.stringify(i));
  return out;
}

export interface SnapshotDiff {
  added: BoardItem[];
  removed: string[];
  changed: string[];
}

export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): SnapshotDiff {
  const added: BoardItem[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  for (const [id, json] of after) {
    const old = before.get(id);
    if (old === undefined) added.push(JSON.parse(json) as BoardItem);
    else if (old !== json) changed.push(id);
  }
  for (const id of before.keys()) if (!after.has(id)) removed.push(id);
  return { added, removed, changed };
}

/** The folder where the launcher KiCad started keeps the host's socket and log (pcbnew's TMPDIR). */
export function hostRuntimeDir(kicad: KicadInstance): string {
  return join(kicad.env.TMPDIR!, `tracemaker-${userInfo().uid}`);
}

/** Host log lines (one host per KiCad and board). */
export function hostLog(kicad: KicadInstance): string[] {
  const dir = hostRuntimeDir(kicad);
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.log') && f.startsWith('host-'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
  } catch {
    return [];
  }
}

/** Pids of hosts that logged they were listening (to end them by pid after the test). */
export function hostPids(kicad: KicadInstance): number[] {
  return hostLog(kicad)
    .map((l) => / host (\d+) listening/.exec(l)?.[1])
    .filter((p): p is string => !!p)
    .map(Number);
}

/** The message of the host's last answer with this code, from its log (what the window said). */
export function lastMessage(kicad: KicadInstance, code: string): string | null {
  const line = hostLog(kicad)
    .filter((l) => l.includes(`→ ${code}:`))
    .pop();
  return line ? (JSON.parse(line.slice(line.indexOf(`→ ${code}: `) + code.length + 4, line.lastIndexOf(' {'))) as string) : null;
}

/** The timing of the host's last answer with this code, parsed from its log. */
export function lastTiming(kicad: KicadInstance, code: string): Record<string, number | string> | null {
  const line = hostLog(kicad)
    .filter((l) => l.includes(`→ ${code}:`))
    .pop();
  const json = line?.slice(line.lastIndexOf(' {') + 1);
  return json ? (JSON.parse(json) as Record<string, number | string>) : null;
}

/** Four tracks of no net around a pad on each outer copper layer, 0.25 mm beyond half its largest
 *  extent: nothing can reach the pad any more (a selection that cannot be routed). */
export function boxAround(pad: Pad): NewItem[] {
  const size = Math.max(...pad.shapes.map((s) => Math.max(s.size.x, s.size.y)));
  const h = Math.round(size / 2 + 250_000);
  const { x, y } = pad.position;
  const c = [
    { x: x - h, y: y - h },
    { x: x + h, y: y - h },
    { x: x + h, y: y + h },
    { x: x - h, y: y + h },
  ];
  const out: NewItem[] = [];
  for (const layer of ['F.Cu', 'B.Cu']) {
    for (let i = 0; i < 4; i++) out.push({ kind: 'track', start: c[i], end: c[(i + 1) % 4], width: 200_000, layer, net: '' });
  }
  return out;
}

/** Turns off the panel that opens after a route leaving connections open, in a throwaway HOME's
 *  settings (pcbnew's XDG_CONFIG_HOME is HOME/.config): a test must never start a real browser. */
export function noPanelAfterRoute(home: string): void {
  mkdirSync(join(home, '.config', 'tracemaker'), { recursive: true });
  writeFileSync(join(home, '.config', 'tracemaker', 'settings.json'), JSON.stringify({ open_panel_after_route: false }));
}

/** Ends the hosts the plugin started for this KiCad, then KiCad itself (test teardown). */
export async function stopKicadAndHosts(kicad: KicadInstance): Promise<void> {
  for (const pid of hostPids(kicad)) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  await kicad.stop();
}
