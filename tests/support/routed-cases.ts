// The router's own outputs as DRC agreement cases: a bench board routed with the defaults, its
// zones then refilled by the KiCad version under test (as KiCad does before manufacturing), so
// the engine and kicad-cli judge the very copper the router writes.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDesign } from '../../engine/kicad/load.ts';
import { addCopper } from '../../engine/kicad/write-board.ts';
import { routeDesign } from '../../engine/route/index.ts';
import type { Kicad } from './kicad.ts';

const REFILL = join(import.meta.dirname, '..', 'oracle', 'pcbnew_refill.py');

export interface RoutedCase {
  name: string;
  board: string;
  pro: string;
}

/** Routes `bare` (its project beside it as `pro`) with the defaults into `dir`/`name`, refilled. */
export function routedCase(kicad: Kicad, name: string, bare: string, pro: string, dir: string): RoutedCase {
  const sub = join(dir, name);
  mkdirSync(sub, { recursive: true });
  const design = loadDesign({ board: readFileSync(bare, 'utf8'), boardName: bare, project: readFileSync(pro, 'utf8'), projectName: pro });
  const result = routeDesign(design);
  const routed = join(sub, 'routed.kicad_pcb');
  writeFileSync(routed, addCopper(design.board, result.tracks, result.vias));
  return refilledCase(kicad, name, routed, pro, dir);
}

/** A routed board (written elsewhere, e.g. by the route benchmark) with its zones refilled by
 *  `kicad` under the board's project, as a case in `dir`/`name`. */
export function refilledCase(kicad: Kicad, name: string, routed: string, pro: string, dir: string): RoutedCase {
  const sub = join(dir, name);
  mkdirSync(sub, { recursive: true });
  // pcbnew reads the rules it fills by from the project beside the board it loads.
  const staged = join(sub, 'staged.kicad_pcb');
  copyFileSync(routed, staged);
  copyFileSync(pro, join(sub, 'staged.kicad_pro'));
  const board = join(sub, 'board.kicad_pcb');
  execFileSync(kicad.python, [REFILL, staged, board], { stdio: ['ignore', 'pipe', 'pipe'] });
  copyFileSync(pro, join(sub, 'board.kicad_pro'));
  return { name, board, pro: join(sub, 'board.kicad_pro') };
}
