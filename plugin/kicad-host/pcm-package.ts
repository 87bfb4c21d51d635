// The Plugin and Content Manager package: metadata.json at the top, the plugin folder (plugin.json, the
// Python entrypoints KiCad's python runtime runs, an empty requirements.txt, the bundled tracemaker.js
// and the PNG rasteriser's resvg.wasm beside it, icons) under plugins/, the package icon under resources/. Also the layout KiCad's "Install from
// file" produces from it (dots of the identifier become underscores, exec bits dropped), for tests; and
// the small deterministic zip writer and reader that needs.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export interface PackageSources {
  /** The repository root (metadata.json, package.json, plugin/manifest/, assets/icons/). */
  root: string;
  /** The bundled CLI (dist/tracemaker.js). */
  bundle: string;
  /** The panel's page (dist/ui: index.html, app.js, app.css), shipped beside the bundle as the panel expects. */
  ui?: string;
  /** The PNG rasteriser's WebAssembly (dist/resvg.wasm), shipped beside the bundle, where plugin/rasterise.ts loads it. */
  wasm?: string;
  /** Node runtimes to carry, for a package that needs nothing installed (absent: Node from the user's PATH). */
  runtimes?: PackageRuntimes;
}

/** The Node binaries of one platform package: `plugins/runtime/<dir>/<exe>`, with Node's licence beside them. */
export interface PackageRuntimes {
  /** PCM's platform names this package is for ("windows", "macos", "linux"). */
  platforms: string[];
  files: { dir: string; exe: string; data: Uint8Array }[];
  license: Uint8Array;
}

/** Every platform KiCad's package manager knows; a package without a runtime runs on each (with Node installed). */
export const ALL_PLATFORMS = ['linux', 'macos', 'windows'];

export class PackageError extends Error {
  override name = 'PackageError';
}

/**
 * The KiCad versions the package must install on: 9.0 and 10.0 releases, KiCad 11's development builds
 * (10.99) and its releases. PCM hides a package from a KiCad outside its range, so a kicad_version_max
 * left at 10 would hide it from 11 without a word.
 */
export const SUPPORTED_KICAD = ['9.0.0', '9.0.8', '10.0.0', '10.0.7', '10.99.0', '11.0.0'];

/**
 * Whether PCM takes a package version with this range on this KiCad, by PCM's own rule: kicad_version is
 * the lowest (missing parts count 0), kicad_version_max the highest (missing parts count 999), compared
 * part by part as major, minor, patch.
 */
export function pcmAdmits(range: { kicad_version: string; kicad_version_max?: string }, kicad: string): boolean {
  const parts = (v: string, missing: number) => [0, 1, 2].map((i) => (v.split('.')[i] === undefined ? missing : parseInt(v.split('.')[i], 10) || 0));
  const cmp = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  const at = parts(kicad, 0);
  if (cmp(parts(range.kicad_version, 0), at) > 0) return false;
  return range.kicad_version_max === undefined || cmp(parts(range.kicad_version_max, 999), at) >= 0;
}

const UI_FILES = ['index.html', 'app.js', 'app.css'];
const MANIFEST_FILES = ['plugin.json', 'tracemaker_launch.py', 'route_selected.py', 'check.py', 'open_panel.py', 'requirements.txt'];

function need(path: string): Buffer {
  if (!existsSync(path)) throw new PackageError(`package: ${path} is missing${path.endsWith('.js') ? ' (run npm run build first)' : ''}`);
  return readFileSync(path);
}

/** The package's files. metadata.json gets the version of package.json and the unpacked size. */
export function packageEntries(src: PackageSources): ZipEntry[] {
  const manifest = join(src.root, 'plugin', 'manifest');
  const icons = join(src.root, 'assets', 'icons');
  const plugin: ZipEntry[] = MANIFEST_FILES.map((f) => ({ path: `plugins/${f}`, data: need(join(manifest, f)) }));
  plugin.push({ path: 'plugins/tracemaker.js', data: need(src.bundle) });
  if (src.wasm) plugin.push({ path: 'plugins/resvg.wasm', data: need(src.wasm) });
  if (src.ui) for (const f of UI_FILES) plugin.push({ path: `plugins/ui/${f}`, data: need(join(src.ui, f)) });
  for (const r of src.runtimes?.files ?? []) plugin.push({ path: `plugins/runtime/${r.dir}/${r.exe}`, data: r.data, mode: 0o755 });
  if (src.runtimes) plugin.push({ path: 'plugins/runtime/NODE-LICENSE', data: src.runtimes.license });
  const pluginJson = JSON.parse(need(join(manifest, 'plugin.json')).toString('utf8')) as { actions: { 'icons-light'?: string[]; 'icons-dark'?: string[] }[] };
  const iconPaths = new Set(pluginJson.actions.flatMap((a) => [...(a['icons-light'] ?? []), ...(a['icons-dark'] ?? [])]));
  for (const p of [...iconPaths].sort()) {
    if (!p.startsWith('icons/')) throw new PackageError(`package: icon ${p} must live under icons/`);
    plugin.push({ path: `plugins/${p}`, data: need(join(icons, p.slice('icons/'.length))) });
  }
  const resources: ZipEntry[] = [{ path: 'resources/icon.png', data: need(join(icons, 'package-64.png')) }];
  const version = (JSON.parse(need(join(src.root, 'package.json')).toString('utf8')) as { version: string }).version;
  const meta = JSON.parse(need(join(src.root, 'metadata.json')).toString('utf8')) as { versions: Record<string, unknown>[] };
  if (meta.versions.length !== 1) throw new PackageError('package: metadata.json must hold exactly one version for "Install from file"');
  const range = meta.versions[0] as { kicad_version: string; kicad_version_max?: string };
  const excluded = SUPPORTED_KICAD.filter((k) => !pcmAdmits(range, k));
  if (excluded.length > 0) throw new PackageError(`package: metadata.json's KiCad range would hide the package from KiCad ${excluded.join(', ')}`);
  meta.versions[0].version = version;
  meta.versions[0].platforms = src.runtimes?.platforms ?? ALL_PLATFORMS;
  meta.versions[0].install_size = [...plugin, ...resources].reduce((n, e) => n + e.data.length, 0);
  const metadata: ZipEntry = { path: 'metadata.json', data: Buffer.from(JSON.stringify(meta, null, 2) + '\n') };
  return [metadata, ...plugin, ...resources].map((e) => ({ ...e, mode: e.mode ?? 0o644 }));
}

/**
 * The package's zip, its metadata's download_size the zip's own size. metadata.json is stored, not
 * deflated, so its size moves only with the number's digits: writing the size and assembling again
 * settles in a round or two. Everything else is compressed once.
 */
export function packageZip(src: PackageSources): { zip: Buffer; files: number } {
  const entries = packageEntries(src);
  const meta = JSON.parse(Buffer.from(entries[0].data).toString('utf8')) as { versions: Record<string, unknown>[] };
  const packed = entries.map((e, i) => packEntry(e, i === 0));
  let zip = assembleZip(packed);
  for (let round = 0; round < 4; round++) {
    if (meta.versions[0].download_size === zip.length) return { zip, files: entries.length };
    meta.versions[0].download_size = zip.length;
    packed[0] = packEntry({ ...entries[0], data: Buffer.from(JSON.stringify(meta, null, 2) + '\n') }, true);
    zip = assembleZip(packed);
  }
  throw new PackageError(`package: download_size did not settle (last ${zip.length} bytes)`);
}

export function buildPackage(src: PackageSources, out: string): { path: string; bytes: number; files: number } {
  const { zip, files } = packageZip(src);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, zip);
  return { path: out, bytes: zip.length, files };
}

/**
 * Unpacks a package the way KiCad's PCM does into a 3rd-party folder (…/kicad/<9.0|10.0>/3rdparty, where
 * pcbnew 9.0.8 and 10.0.7 load it from, seen live): plugins/* into
 * plugins/<identifier with '.' → '_'>/, resources/* likewise, every file 0644 (9.0.8's PCM drops exec
 * bits, so the plugin must run without them). Returns the plugin folder.
 */
export function installLikePcm(zip: Buffer, thirdParty: string): string {
  const entries = readZip(zip);
  const meta = entries.find((e) => e.path === 'metadata.json');
  if (!meta) throw new PackageError('package: no metadata.json');
  const id = (JSON.parse(Buffer.from(meta.data).toString('utf8')) as { identifier: string }).identifier.replaceAll('.', '_');
  for (const e of entries) {
    const [top, ...rest] = e.path.split('/');
    if ((top !== 'plugins' && top !== 'resources') || rest.length === 0) continue;
    const to = join(thirdParty, top, id, ...rest);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, e.data, { mode: 0o644 });
  }
  return join(thirdParty, 'plugins', id);
}

/** Files under a folder, relative, sorted (for tests and the package listing). */
export function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? listFiles(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`]))
    .sort();
}

// A minimal zip writer and reader: deflated entries with Unix modes in the external attributes, a fixed
// timestamp so the same inputs give the same bytes, no zip64 (a plugin package stays far below 4 GB).

export interface ZipEntry {
  /** Forward-slash path inside the archive. */
  path: string;
  data: Uint8Array;
  /** Unix permission bits, e.g. 0o644. */
  mode?: number;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// 1 Jan 2025 00:00 in DOS date/time: the archive's bytes do not depend on the clock.
const DOS_TIME = 0;
const DOS_DATE = ((2025 - 1980) << 9) | (1 << 5) | 1;

/** The fields a zip's local header and its central-directory entry share, in the same order:
 *  version needed, flags (UTF-8 names), method (deflate or stored), time, date, CRC, sizes, name length. */
function writeFileFields(buf: Buffer, at: number, f: { crc: number; packed: number; size: number; name: number; method: number }): void {
  buf.writeUInt16LE(20, at);
  buf.writeUInt16LE(0x0800, at + 2);
  buf.writeUInt16LE(f.method, at + 4);
  buf.writeUInt16LE(DOS_TIME, at + 6);
  buf.writeUInt16LE(DOS_DATE, at + 8);
  buf.writeUInt32LE(f.crc, at + 10);
  buf.writeUInt32LE(f.packed, at + 14);
  buf.writeUInt32LE(f.size, at + 18);
  buf.writeUInt16LE(f.name, at + 22);
}
/** An entry compressed once, so a zip can be assembled again without deflating it again. */
export interface PackedEntry {
  name: Buffer;
  packed: Uint8Array;
  crc: number;
  size: number;
  mode: number;
  /** 8 deflate, 0 stored. */
  method: number;
}

// Level 9 buys nothing on executables but time; they get zlib's default.
const BIG = 1 << 20;

export function packEntry(e: ZipEntry, store = false): PackedEntry {
  if (!e.path || e.path.startsWith('/') || e.path.split('/').includes('..')) throw new Error(`zip: bad entry path ${JSON.stringify(e.path)}`);
  return {
    name: Buffer.from(e.path, 'utf8'),
    packed: store ? e.data : deflateRawSync(e.data, { level: e.data.length > BIG ? 6 : 9 }),
    crc: crc32(e.data),
    size: e.data.length,
    mode: e.mode ?? 0o644,
    method: store ? 0 : 8,
  };
}

export function writeZip(entries: readonly ZipEntry[]): Buffer {
  return assembleZip(entries.map((e) => packEntry(e)));
}

export function assembleZip(entries: readonly PackedEntry[]): Buffer {
  const locals: Uint8Array[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const seen = new Set<string>();
  for (const e of entries) {
    const path = e.name.toString('utf8');
    if (seen.has(path)) throw new Error(`zip: duplicate entry ${path}`);
    seen.add(path);
    const file = { crc: e.crc, packed: e.packed.length, size: e.size, name: e.name.length, method: e.method };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeFileFields(local, 4, file);
    locals.push(local, e.name, e.packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode below is read
    writeFileFields(central, 6, file);
    central.writeUInt32LE(((0o100000 | e.mode) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, e.name);
    offset += local.length + e.name.length + e.packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** Reads back what writeZip (or any plain deflate/store zip without zip64) holds. */
export function readZip(zip: Buffer): ZipEntry[] {
  const endAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error('zip: no end of central directory');
  const count = zip.readUInt16LE(endAt + 10);
  let p = zip.readUInt32LE(endAt + 16);
  const out: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('zip: bad central directory');
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const mode = (zip.readUInt32LE(p + 38) >>> 16) & 0o777;
    const local = zip.readUInt32LE(p + 42);
    const path = zip.toString('utf8', p + 46, p + 46 + nameLen);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataAt, dataAt + size);
    const data = method === 8 ? inflateRawSync(raw) : method === 0 ? raw : null;
    if (!data) throw new Error(`zip: ${path}: unsupported compression ${method}`);
    out.push({ path, data, mode });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
