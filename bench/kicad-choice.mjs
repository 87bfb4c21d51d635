// Which KiCad a benchmark judges with: `--kicad 9|10` or TRACEMAKER_KICAD (default 9). KiCad 9 is
// the system's; KiCad 10 runs from the root scripts/install-kicad10.sh makes, on the bench's KiCad 10
// copy (scripts/kicad10-corpus.mjs), so a KiCad 10 user's own files are what is routed and judged.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
export const SHARED = resolve(process.env.TRACEMAKER_SHARED ?? join(ROOT, '..', 'shared'));

/** { major, version, cli, python, boards, env } for the KiCad the arguments name. */
export function kicadChoice(args) {
  const i = args.indexOf('--kicad');
  const want = i >= 0 ? args[i + 1] : (process.env.TRACEMAKER_KICAD ?? '9');
  if (want !== '9' && want !== '10') {
    console.error(`--kicad (or TRACEMAKER_KICAD) is "${want}": expected 9 or 10`);
    process.exit(2);
  }
  const major = Number(want);
  const wrappers = join(ROOT, 'scripts', 'kicad10');
  const cli = major === 10 ? join(wrappers, 'kicad-cli') : (process.env.KICAD_CLI ?? 'kicad-cli');
  const python = major === 10 ? join(wrappers, 'python3') : (process.env.PCBNEW_PYTHON ?? '/usr/bin/python3');
  const boards =
    major === 10 ? resolve(process.env.TRACEMAKER_KICAD10_BENCH ?? join(ROOT, '.tmp', 'kicad10-bench', 'boards')) : join(SHARED, 'bench', 'boards');
  const v = spawnSync(cli, ['version'], { encoding: 'utf8' });
  const version = v.status === 0 ? v.stdout.trim().split('\n').pop().trim() : '';
  if (!version.startsWith(`${major}.`)) {
    console.error(
      `KiCad ${major} not found (${cli} version said "${version || v.stderr?.trim() || 'nothing'}"): run ${major === 10 ? 'scripts/install-kicad10.sh' : 'scripts/install-system.sh'}`,
    );
    process.exit(2);
  }
  if (major === 10) {
    const made = spawnSync(process.execPath, [join(ROOT, 'scripts', 'kicad10-corpus.mjs')], { stdio: 'inherit' });
    if (made.status !== 0 || !existsSync(boards)) process.exit(2);
  }
  // judge.py and its helpers take KiCad's programs from these.
  const env = { ...process.env, KICAD_CLI: cli, PCBNEW_PYTHON: python };
  return { major, version, cli, python, boards, env };
}
