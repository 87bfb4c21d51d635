// A loaded design: the board, the rules that govern it (project, custom rules, overrides) and
// what reading them warned of. engine/kicad builds it from files; everything else takes it.

import type { Board, Diagnostic } from './model.ts';
import type { RuleResolver } from './rules.ts';

export interface Design {
  board: Board;
  rules: RuleResolver;
  warnings: Diagnostic[];
}
