// The KiCad installs the suites run against: KiCad 9 as Debian installs it on this system, and
// KiCad 10 in the root scripts/install-kicad10.sh makes (run through scripts/kicad10/, which makes
// host paths mean the same inside). Every KiCad-backed suite runs once per version under test.
//   TRACEMAKER_KICAD=9 | 10 | all (default all): which versions; a missing one is an error, never a skip.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface Kicad {
  /** 9 or 10. */
  major: number;
  /** What `kicad-cli version` printed, e.g. "10.0.7". */
  version: string;
  /** Executables; each takes host paths. */
  cli: string;
  python: string;
  pcbnew: string;
  /** The config folder's name under ~/.config/kicad ("9.0", "10.0"). */
  configDir: string;
  /** KiCad's own demo boards for this version. */
  demos: string;
  /** Whether pcbnew runs inside the KiCad 10 root (its plugin runtime then sees only that root's programs). */
  rooted: boolean;
}

const WRAPPERS = join(import.meta.dirname, '..', '..', 'scripts', 'kicad10');
export const KICAD10_ROOT = process.env.TRACEMAKER_KICAD10_ROOT ?? '/opt/tracemaker-kicad10';

function versionOf(cli: string): string {
  const r = spawnSync(cli, ['version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split('\n').pop()!.trim() : '';
}

function kicad9(): Kicad | string {
  const cli = process.env.KICAD_CLI ?? 'kicad-cli';
  const version = versionOf(cli);
  if (!version.startsWith('9.')) return `KiCad 9 not found (kicad-cli version said "${version || 'nothing'}"): run scripts/install-system.sh`;
  return {
    major: 9,
    version,
    cli,
    python: process.env.PCBNEW_PYTHON ?? '/usr/bin/python3',
    pcbnew: 'pcbnew',
    configDir: '9.0',
    demos: process.env.KICAD_DEMOS ?? '/usr/share/kicad/demos',
    rooted: false,
  };
}

function kicad10(): Kicad | string {
  const cli = join(WRAPPERS, 'kicad-cli');
  const version = existsSync(join(KICAD10_ROOT, 'usr', 'bin', 'kicad-cli')) ? versionOf(cli) : '';
  if (!version.startsWith('10.')) return `KiCad 10 not found in ${KICAD10_ROOT}: run scripts/install-kicad10.sh (or set TRACEMAKER_KICAD10_ROOT)`;
  return {
    major: 10,
    version,
    cli,
    python: join(WRAPPERS, 'python3'),
    pcbnew: join(WRAPPERS, 'pcbnew'),
    configDir: '10.0',
    demos: join(KICAD10_ROOT, 'usr', 'share', 'kicad', 'demos'),
    rooted: true,
  };
}

let found: Kicad[] | null = null;

/** The KiCad versions under test (TRACEMAKER_KICAD), each checked present; throws naming what is missing. */
export function kicads(): Kicad[] {
  if (found) return found;
  const want = (process.env.TRACEMAKER_KICAD ?? 'all').trim();
  const majors = want === 'all' ? [9, 10] : want.split(',').map((s) => Number(s.trim()));
  if (majors.some((m) => m !== 9 && m !== 10)) throw new Error(`TRACEMAKER_KICAD is "${want}": expected 9, 10 or all`);
  const out: Kicad[] = [];
  for (const m of majors) {
    const k = m === 9 ? kicad9() : kicad10();
    if (typeof k === 'string') throw new Error(`${k} — or set TRACEMAKER_KICAD to the versions you have`);
    out.push(k);
  }
  found = out;
  return out;
}

/** One KiCad by major version, for a suite that is about that version alone. */
export function kicadMajor(major: number): Kicad | undefined {
  return kicads().find((k) => k.major === major);
}
