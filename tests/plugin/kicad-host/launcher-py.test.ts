// The Python launcher's per-platform logic, run by a real Python: which runtime folder fits this OS and
// processor, where per-user state goes, that the package's own Node is found (and made executable: the
// package manager drops the bit) before any Node on the PATH, and that a missing Node reaches the user.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const MANIFEST = join(import.meta.dirname, '..', '..', '..', 'plugin', 'manifest');
const tmp = mkdtempSync(join(tmpdir(), 'tmk-launch-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs Python code with the launcher imported as `L`; returns what it printed as JSON. */
function py(code: string, env: Record<string, string> = {}): any {
  const r = spawnSync('python3', ['-c', `import json, sys\nsys.path.insert(0, ${JSON.stringify(MANIFEST)})\nimport tracemaker_launch as L\n${code}`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: tmp, TRACEMAKER_NO_WINDOW: '1', PYTHONDONTWRITEBYTECODE: '1', ...env },
  });
  if (r.status !== 0) throw new Error(`python failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe('the Python launcher', () => {
  it('names the runtime folder as Node names platforms', () => {
    expect(
      py(`print(json.dumps([L.runtime_key("win32", "AMD64"), L.runtime_key("darwin", "arm64"), L.runtime_key("darwin", "x86_64"),
      L.runtime_key("linux", "x86_64"), L.runtime_key("linux", "aarch64")]))`),
    ).toEqual(['win32-x64', 'darwin-arm64', 'darwin-x64', 'linux-x64', 'linux-arm64']);
  });

  it('keeps per-user state where each OS does, the same folder the Node side uses', () => {
    const got = py(`print(json.dumps([
      L.runtime_dir({"LOCALAPPDATA": "C:\\\\Users\\\\ana\\\\AppData\\\\Local"}, "win32"),
      L.runtime_dir({"XDG_RUNTIME_DIR": "/run/user/7"}, "linux"),
      L.runtime_dir({"TRACEMAKER_RUNTIME_DIR": "/x"}, "win32")]))`);
    expect(got[0].replace(/\//g, '\\')).toBe('C:\\Users\\ana\\AppData\\Local\\tracemaker');
    expect(got.slice(1)).toEqual(['/run/user/7/tracemaker', '/x']);
  });

  it("finds the package's own Node first and makes it executable", () => {
    const here = join(tmp, 'plugin');
    const dir = join(here, 'runtime', 'linux-x64');
    mkdirSync(dir, { recursive: true });
    const node = join(dir, 'node');
    writeFileSync(node, '#!/bin/sh\necho v22.23.2\n');
    chmodSync(node, 0o644);
    const got = py(`L.HERE = ${JSON.stringify(here)}
print(json.dumps({"candidates": L.node_candidates({"TRACEMAKER_NODE": "/opt/n/node"}, "linux", ${JSON.stringify(here)}, "/home/a", lambda _n: "/usr/bin/node")[:3],
  "bundled": L.bundled_node(${JSON.stringify(here)}, "linux", "x86_64"), "version": L.node_version(${JSON.stringify(node)})}))`);
    expect(got.candidates).toEqual(['/opt/n/node', node, '/usr/bin/node']);
    expect(got.bundled).toBe(node);
    expect(statSync(node).mode & 0o111).not.toBe(0);
    expect(got.version).toBe(22);
  });

  it('takes the x64 build on an Apple-silicon Mac when that is all there is, and node.exe on Windows', () => {
    const here = join(tmp, 'plugin2');
    mkdirSync(join(here, 'runtime', 'darwin-x64'), { recursive: true });
    mkdirSync(join(here, 'runtime', 'win32-x64'), { recursive: true });
    writeFileSync(join(here, 'runtime', 'darwin-x64', 'node'), '');
    writeFileSync(join(here, 'runtime', 'win32-x64', 'node.exe'), '');
    const got = py(`print(json.dumps([L.bundled_node(${JSON.stringify(here)}, "darwin", "arm64"), L.bundled_node(${JSON.stringify(here)}, "win32", "AMD64"),
      L.bundled_node(${JSON.stringify(here)}, "linux", "x86_64")]))`);
    expect(got[0]).toBe(join(here, 'runtime', 'darwin-x64', 'node'));
    expect(got[1].replace(/\\/g, '/')).toBe(join(here, 'runtime', 'win32-x64', 'node.exe'));
    expect(got[2]).toBeNull();
  });

  it('says what to install when no Node is found, in the log the README names', () => {
    const rt = join(tmp, 'rt');
    const got = py('L.node_candidates = lambda: []\nprint(json.dumps(L.main("check")))', { TRACEMAKER_RUNTIME_DIR: rt });
    expect(got).toBe(1);
    const log = readFileSync(join(rt, 'launcher.log'), 'utf8');
    expect(log).toContain('Reinstall the TraceMaker package for your system');
    expect(log).toContain('Node.js 20 or later');
  });

  it('keeps a message longer than one short line until it is closed, and keeps every result readable in results.log', () => {
    const rt = join(tmp, 'rt3');
    const got = py(
      `L.record("TraceMaker: routed", "Routed 3 nets: 8 tracks, 0 vias\\nOne Ctrl+Z takes it back.")
print(json.dumps([L.lasting("Routed 3 nets: 8 tracks, 0 vias"), L.lasting("Routed 3 nets\\nOne Ctrl+Z takes it back."), L.lasting("x" * 101), L.results_log()]))`,
      { TRACEMAKER_RUNTIME_DIR: rt },
    );
    expect(got).toEqual([8, 0, 0, join(rt, 'results.log')]);
    expect(readFileSync(join(rt, 'results.log'), 'utf8')).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}TraceMaker: routed\nRouted 3 nets: 8 tracks, 0 vias\nOne Ctrl\+Z takes it back\.\n\n$/,
    );
  });

  it('reports an unexpected failure instead of dying silently', () => {
    const rt = join(tmp, 'rt2');
    const got = py('def boom():\n    raise RuntimeError("disk on fire")\nL.find_node = boom\nprint(json.dumps(L.main("check")))', {
      TRACEMAKER_RUNTIME_DIR: rt,
    });
    expect(got).toBe(1);
    expect(readFileSync(join(rt, 'launcher.log'), 'utf8')).toContain('RuntimeError: disk on fire');
  });
});
