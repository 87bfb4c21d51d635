// The Plugin and Content Manager package: metadata.json at the top, the plugin folder (plugin.json, the
// Python entrypoints KiCad's python runtime runs, an empty requirements.txt, the bundled tracemaker.js,
// icons) under plugins/, the package icon under resources/. Also the layout KiCad 9.0.8's "Install from
// file" produces from it (dots of the identifier become underscores, exec bits dropped), for tests.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readZip, writeZip, type ZipEntry } from './zip.ts';

export interface PackageSources {
  /** The repository root (metadata.json, package.json, plugin/manifest/, assets/icons/). */
  root: string;
  /** The bundled CLI (dist/tracemaker.js). */
  bundle: string;
}

export class PackageError extends Error {
  override name = 'PackageError';
}

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
 * Unpacks a package the way KiCad 9.0.8's PCM does into a 3rd-party folder: plugins/* into
 * plugins/<identifier with '.' → '_'>/, resources/* likewise, every file 0644 (PCM drops exec bits).
 * Returns the plugin folder.
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
