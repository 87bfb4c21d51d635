// Where the shared benchmark boards are, and a list of them for tests and benchmarks; each KiCad
// version under test has its own copy of the bench (KiCad 9's is the shared one) and its own demos.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Kicad } from './kicad.ts';

export const SHARED = resolve(process.env.TRACEMAKER_SHARED ?? join(import.meta.dirname, '..', '..', '..', 'shared'));
export const BENCH = join(SHARED, 'bench', 'boards');

export interface BenchBoard {
  tier: string;
  name: string;
  dir: string;
  /** The bare board (routing removed). */
  bare: string;
  /** The reference routing. */
  ref: string;
  pro: string;
}

/** The bench in KiCad 10's format, made by scripts/kicad10-corpus.mjs (git-ignored). */
export const KICAD10_BENCH = resolve(process.env.TRACEMAKER_KICAD10_BENCH ?? join(import.meta.dirname, '..', '..', '.tmp', 'kicad10-bench', 'boards'));

/** The bench boards, from `root` (the shared bench, or its KiCad 10 copy at KICAD10_BENCH). */
export function benchBoards(root = BENCH): BenchBoard[] {
  if (!existsSync(root)) {
    throw new Error(
      root === BENCH
        ? `benchmark boards not found at ${BENCH} (set TRACEMAKER_SHARED)`
        : `benchmark boards not found at ${root} (run node scripts/kicad10-corpus.mjs)`,
    );
  }
  const out: BenchBoard[] = [];
  for (const tier of readdirSync(root).sort()) {
    for (const name of readdirSync(join(root, tier)).sort()) {
      const dir = join(root, tier, name);
      out.push({
        tier,
        name,
        dir,
        bare: join(dir, `${name}.kicad_pcb`),
        ref: join(dir, `${name}.ref.kicad_pcb`),
        pro: join(dir, `${name}.kicad_pro`),
      });
    }
  }
  return out;
}

/** The bench in `kicad`'s own file format: the shared boards for KiCad 9, their KiCad 10 copy for 10. */
export function benchOf(kicad: Kicad): string {
  return kicad.major >= 10 ? KICAD10_BENCH : BENCH;
}

/** Python with KiCad's pcbnew module (Debian's KiCad package installs it for the system python). */
export const PCBNEW_PYTHON = process.env.PCBNEW_PYTHON ?? '/usr/bin/python3';

/** KiCad's own demo boards (Debian's kicad-demos package, installed by scripts/install-system.sh). */
export const KICAD_DEMOS = process.env.KICAD_DEMOS ?? '/usr/share/kicad/demos';

/** Every .kicad_pcb under `root` (KiCad 9's demos by default; a Kicad's own are at `kicad.demos`). */
export function demoBoards(root = KICAD_DEMOS): string[] {
  if (!existsSync(root)) throw new Error(`KiCad demos not found at ${root}: run scripts/install-system.sh (or scripts/install-kicad10.sh)`);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, name.name);
      if (name.isDirectory()) walk(p);
      else if (name.name.endsWith('.kicad_pcb')) out.push(p);
    }
  };
  walk(root);
  return out;
}
