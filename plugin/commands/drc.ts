// `tracemaker drc BOARD [--json] [--all]`: the engine's design-rule check of a board with the rules
// beside it — error-level findings by type with positions, and the unconnected count (KiCad's
// ratsnest). `--all` adds warnings. Exit 0 whenever the board was judged, 2 on usage errors.

import { runDrc } from '../../engine/drc/drc.ts';
import type { Violation } from '../../engine/drc/violation.ts';
import { DEFAULT_RULES, loadDesignFile, noRulesNote } from '../design-files.ts';
import { nmToMm } from '../../engine/geom/units.ts';
import type { Command } from './command.ts';

function item(v: Violation) {
  return { type: v.type, severity: v.severity, description: v.description, nets: v.nets, pos: { x: nmToMm(v.pos.x), y: nmToMm(v.pos.y) } };
}

export const drc: Command = {
  name: 'drc',
  summary: 'design-rule check (counts agree with kicad-cli pcb drc) and unconnected count',
  usage: 'tracemaker drc BOARD [--json] [--all]',
  flags: { json: 'boolean', all: 'boolean' },
  run(args, out) {
    const file = args.positional[0];
    const design = loadDesignFile(file);
    const note = noRulesNote(file);
    const report = runDrc(design);
    const errors = report.violations.filter((v) => v.severity === 'error');
    const warnings = report.violations.filter((v) => v.severity === 'warning');
    const shown = args.flags.all ? report.violations : errors;
    const byType: Record<string, number> = {};
    for (const v of errors) byType[v.type] = (byType[v.type] ?? 0) + 1;
    if (args.flags.json) {
      const data = {
        ...(note ? { rules: DEFAULT_RULES } : {}),
        violations: byType,
        unconnected_items: report.unconnected,
        items: errors.map(item),
        warnings: args.flags.all ? warnings.map(item) : [],
      };
      out.stdout(JSON.stringify(data, null, 2) + '\n');
      return 0;
    }
    const lines = [
      ...(note ? [note] : []),
      `${file}`,
      `  ${errors.length} error(s), ${report.unconnected} unconnected item(s)${args.flags.all ? `, ${warnings.length} warning(s)` : ''}`,
    ];
    for (const [t, n] of Object.entries(byType)) lines.push(`  ${t}: ${n}`);
    for (const v of shown) {
      const nets = v.nets.length ? ` [${v.nets.join(', ')}]` : '';
      lines.push(`    ${v.severity} ${v.type} at (${nmToMm(v.pos.x)}, ${nmToMm(v.pos.y)}) mm: ${v.description}${nets}`);
    }
    out.stdout(lines.join('\n') + '\n');
    return 0;
  },
};
