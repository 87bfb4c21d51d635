// The Plugin and Content Manager package: metadata.json at the top, the plugin folder (plugin.json, the
// Python entrypoints KiCad's python runtime runs, an empty requirements.txt, the bundled tracemaker.js,
// icons) under plugins/, the package icon under resources/. Also the layout KiCad's "Install from
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
}

export class PackageError extends Error {
  override name = 'PackageError';
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
  if (src.ui) for (const f of UI_FILES) plugin.push({ path: `plugins/ui/${f}`, data: need(join(src.ui, f)) });
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
  meta.versions[0].version = version;
  meta.versions[0].install_size = [...plugin, ...resources].reduce((n, e) => n + e.data.length, 0);
  const metadata: ZipEntry = { path: 'metadata.json', data: Buffer.from(JSON.stringify(meta, null, 2) + '\n') };
  return [metadata, ...plugin, ...resources].map((e) => ({ ...e, mode: 0o644 }));
}

export function buildPackage(src: PackageSources, out: string): { path: string; bytes: number; files: number } {
  const entries = packageEntries(src);
  const zip = writeZip(entries);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, zip);
  return { path: out, bytes: zip.length, files: entries.length };
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
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? listFiles(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`]).sort();
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
 *  version needed, flags (UTF-8 names), method (deflate), time, date, CRC, sizes, name length. */
function writeFileFields(buf: Buffer, at: number, f: { crc: number; packed: number; size: number; name: number }): void {
  buf.writeUInt16LE(20, at);
  buf.writeUInt16LE(0x0800, at + 2);
  buf.writeUInt16LE(8, at + 4);
  buf.writeUInt16LE(DOS_TIME, at + 6);
  buf.writeUInt16LE(DOS_DATE, at + 8);
  buf.writeUInt32LE(f.crc, at + 10);
  buf.writeUInt32LE(f.packed, at + 14);
  buf.writeUInt32LE(f.size, at + 18);
  buf.writeUInt16LE(f.name, at + 22);
}
export function writeZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const seen = new Set<string>();
  for (const e of entries) {
    if (!e.path || e.path.startsWith('/') || e.path.split('/').includes('..')) throw new Error(`zip: bad entry path ${JSON.stringify(e.path)}`);
    if (seen.has(e.path)) throw new Error(`zip: duplicate entry ${e.path}`);
    seen.add(e.path);
    const name = Buffer.from(e.path, 'utf8');
    const packed = deflateRawSync(e.data, { level: 9 });
    const crc = crc32(e.data);
    const file = { crc, packed: packed.length, size: e.data.length, name: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeFileFields(local, 4, file);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode below is read
    writeFileFields(central, 6, file);
    central.writeUInt32LE(((0o100000 | (e.mode ?? 0o644)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
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
