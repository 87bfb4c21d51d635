// One call from file texts to a routable design: the board, its rules resolved from the
// `.kicad_pro` and `.kicad_dru` beside it, and every warning the readers raised, in file order.

import type { Design } from '../board/design.ts';
import { RuleResolver } from '../board/rules.ts';
import { parseBoard } from './read-board.ts';
import { parseDru } from './read-dru.ts';
import { parseProject } from './read-project.ts';
import { attachGlyphs, type TextGlyphs } from './read-text.ts';

export interface DesignFiles {
  board: string;
  boardName?: string;
  /** `.kicad_pro` text; undefined when the file is absent. */
  project?: string;
  projectName?: string;
  /** `.kicad_dru` text; undefined when absent (the usual case). */
  dru?: string;
  druName?: string;
  /** Glyphs of the board's copper texts from the running KiCad (else texts stand as their boxes). */
  textGlyphs?: readonly TextGlyphs[];
}

export function loadDesign(files: DesignFiles): Design {
  const project = parseProject(files.project, files.projectName ?? 'board.kicad_pro');
  const board = parseBoard(files.board, { source: files.boardName ?? 'board.kicad_pcb', maxError: project.minimums.maxError });
  if (files.textGlyphs) attachGlyphs(board, files.textGlyphs);
  const dru = files.dru !== undefined ? parseDru(files.dru, files.druName ?? 'board.kicad_dru') : { rules: [], warnings: [] };
  const rules = new RuleResolver(board, project, dru.rules);
  return { board, rules, warnings: [...board.warnings, ...project.warnings, ...dru.warnings] };
}
