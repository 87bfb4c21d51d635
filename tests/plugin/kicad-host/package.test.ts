// The Plugin and Content Manager zip: its layout, metadata.json and plugin.json valid against the
// schemas each KiCad under test ships (9.0.8: pcm.v1; 10.0.7: pcm.v1 and pcm.v2, and each one's
// api.v1), entrypoints and icons present, and the folder PCM unpacks it into (no exec bits).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_PLATFORMS, installLikePcm, listFiles, packageEntries, packageZip, readZip, writeZip } from '../../../plugin/kicad-host/pcm-package.ts';
import { KICAD10_ROOT, kicads, type Kicad } from '../../support/kicad.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** Where a KiCad install keeps its JSON schemas (KICAD_SCHEMAS overrides KiCad 9's). */
function schemaDir(kicad: Kicad): string {
  if (kicad.rooted) return join(KICAD10_ROOT, 'usr', 'share', 'kicad', 'schemas');
  return process.env.KICAD_SCHEMAS ?? '/usr/share/kicad/schemas';
}
const tmp = mkdtempSync(join(tmpdir(), 'tmk-pkg-'));
const bundle = join(tmp, 'tracemaker.js');
writeFileSync(bundle, '// bundle\n');
const entries = packageEntries({ root: ROOT, bundle });
// A platform package's layout, with small stand-ins for the Node binaries (the real ones run in the
// Windows smoke test and the bundled-runtime live test).
const windows = packageZip({
  root: ROOT,
  bundle,
  runtimes: {
    platforms: ['windows'],
    license: Buffer.from('Node.js is licensed…\n'),
    files: [{ dir: 'win32-x64', exe: 'node.exe', data: Buffer.alloc(3000, 7) }],
  },
});
const windowsMeta = JSON.parse(Buffer.from(readZip(windows.zip)[0].data).toString('utf8'));
const byPath = new Map(entries.map((e) => [e.path, e.data]));
const json = (p: string) => JSON.parse(Buffer.from(byPath.get(p)!).toString('utf8'));

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function validator(dir: string, schema: string) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(JSON.parse(readFileSync(join(dir, schema), 'utf8')));
}

function pngSize(data: Uint8Array): [number, number] {
  const b = Buffer.from(data);
  expect(b.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

for (const kicad of kicads()) {
  describe(`PCM package against KiCad ${kicad.version}'s schemas`, () => {
    const dir = schemaDir(kicad);
    // KiCad 9 ships only pcm.v1; 10 adds pcm.v2 (free-form type, category and licence patterns).
    const pcm = kicad.major >= 10 ? ['pcm.v1.schema.json', 'pcm.v2.schema.json'] : ['pcm.v1.schema.json'];

    it(`has metadata.json valid against ${pcm.map((f) => f.replace('.schema.json', '')).join(' and ')}`, () => {
      const meta = json('metadata.json');
      for (const file of pcm) {
        expect(existsSync(join(dir, file)), `${join(dir, file)} is missing`).toBe(true);
        const validate = validator(dir, file);
        expect(validate(meta), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
      // The package says which KiCad it needs at least, and no upper bound that would hide it from a newer one.
      expect(meta.versions[0].kicad_version).toBe('9.0');
      expect(meta.versions[0].kicad_version_max).toBeUndefined();
    });

    it("has a platform package's metadata.json valid too", () => {
      for (const file of pcm) {
        const validate = validator(dir, file);
        expect(validate(windowsMeta), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    });

    it('has plugin.json valid against its api.v1', () => {
      const validate = validator(dir, 'api.v1.schema.json');
      expect(validate(json('plugins/plugin.json')), JSON.stringify(validate.errors)).toBe(true);
    });
  });
}

describe('PCM package', () => {
  it("has one version with an IPC runtime and the package's version and size", () => {
    const meta = json('metadata.json');
    expect(meta.versions).toHaveLength(1);
    expect(meta.versions[0]).toMatchObject({ runtime: 'ipc', version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version });
    expect(meta.versions[0].install_size).toBeGreaterThan(0);
  });

  it('has plugin.json with a reverse-DNS id, three pcb buttons on the python runtime', () => {
    const plugin = json('plugins/plugin.json');
    expect(plugin.identifier.split('.').length).toBeGreaterThanOrEqual(3);
    expect(plugin.identifier).toBe(json('metadata.json').identifier);
    expect(plugin.runtime.type).toBe('python');
    expect(plugin.actions.map((a: { name: string }) => a.name)).toEqual(['Route selected nets', 'Check before commit', 'Open panel']);
    for (const a of plugin.actions) {
      expect(a['show-button']).toBe(true);
      expect(a.scopes).toEqual(['pcb']);
      expect(byPath.has(`plugins/${a.entrypoint}`)).toBe(true);
      for (const icons of [a['icons-light'], a['icons-dark']]) {
        expect(icons.map((p: string) => pngSize(byPath.get(`plugins/${p}`)!))).toEqual([
          [24, 24],
          [48, 48],
        ]);
      }
    }
  });

  it('ships the launcher, the bundle and a requirements.txt that asks pip for nothing', () => {
    for (const f of ['tracemaker_launch.py', 'tracemaker.js', 'requirements.txt']) expect(byPath.has(`plugins/${f}`)).toBe(true);
    const reqs = Buffer.from(byPath.get('plugins/requirements.txt')!).toString('utf8');
    expect(reqs.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))).toEqual([]);
    expect(pngSize(byPath.get('resources/icon.png')!)).toEqual([64, 64]);
  });

  it("round-trips through the zip and unpacks as KiCad's PCM does, without exec bits", () => {
    const zip = writeZip(entries);
    expect(writeZip(entries).equals(zip)).toBe(true);
    const back = readZip(zip);
    expect(back.map((e) => e.path)).toEqual(entries.map((e) => e.path));
    back.forEach((e, i) => expect(Buffer.from(e.data).equals(Buffer.from(entries[i].data))).toBe(true));
    const third = join(tmp, '3rdparty');
    const dir = installLikePcm(zip, third);
    expect(dir).toBe(join(third, 'plugins', 'org_tracemaker_kicad'));
    expect(listFiles(dir)).toContain('route_selected.py');
    expect(listFiles(join(third, 'resources', 'org_tracemaker_kicad'))).toEqual(['icon.png']);
    for (const f of listFiles(dir)) expect(statSync(join(dir, f)).mode & 0o111).toBe(0);
  });

  it('runs on every platform without a runtime (Node from the PATH), and says its sizes', () => {
    const { zip } = packageZip({ root: ROOT, bundle });
    const meta = JSON.parse(Buffer.from(readZip(zip)[0].data).toString('utf8'));
    expect(meta.versions[0].platforms).toEqual(ALL_PLATFORMS);
    expect(meta.versions[0].download_size).toBe(zip.length);
  });

  it("carries its Node per platform, executable in the zip, with Node's licence, and says its sizes", () => {
    const back = readZip(windows.zip);
    const exe = back.find((e) => e.path === 'plugins/runtime/win32-x64/node.exe')!;
    expect(exe.data.length).toBe(3000);
    expect(exe.mode).toBe(0o755);
    expect(back.some((e) => e.path === 'plugins/runtime/NODE-LICENSE')).toBe(true);
    expect(windowsMeta.versions[0].platforms).toEqual(['windows']);
    expect(windowsMeta.versions[0].download_size).toBe(windows.zip.length);
    expect(windowsMeta.versions[0].install_size).toBe(back.slice(1).reduce((n, e) => n + e.data.length, 0));
    // PCM drops exec bits; the launcher sets them again before it runs the runtime.
    const third = join(tmp, '3rdparty-win');
    const dir = installLikePcm(windows.zip, third);
    expect(statSync(join(dir, 'runtime', 'win32-x64', 'node.exe')).mode & 0o111).toBe(0);
  });

  it('refuses bad zip entries', () => {
    expect(() => writeZip([{ path: '../x', data: new Uint8Array() }])).toThrow(/bad entry path/);
    expect(() =>
      writeZip([
        { path: 'a', data: new Uint8Array() },
        { path: 'a', data: new Uint8Array() },
      ]),
    ).toThrow(/duplicate/);
  });
});
