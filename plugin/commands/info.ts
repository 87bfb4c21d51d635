// `tracemaker info BOARD [--json]`: layers, counts, net classes and rules, and the readers' warnings.

import { nmToMmText } from '../format.ts';
import { DEFAULT_RULES, loadDesignFile, noRulesNote } from '../design-files.ts';
import type { Command } from './command.ts';

export const info: Command = {
  name: 'info',
  summary: 'layers, counts, net classes, rules and warnings of a board',
  usage: 'tracemaker info BOARD [--json]',
  flags: { json: 'boolean' },
  run(args, out) {
    const file = args.positional[0];
    const { board, rules, warnings } = loadDesignFile(file);
    const m = rules.minimums;
    const classes = rules.project.classes.map((c) => ({
      name: c.name,
      clearance_mm: nmToMmText(c.clearance),
      track_width_mm: nmToMmText(c.trackWidth),
      via_diameter_mm: nmToMmText(c.viaDiameter),
      via_drill_mm: nmToMmText(c.viaDrill),
      nets: board.nets.filter((n) => n.code !== 0 && rules.netClass(n.code) === c).length,
    }));
    const note = noRulesNote(file);
    const data = {
      board: file,
      ...(note ? { rules: DEFAULT_RULES } : {}),
      version: board.version,
      // KiCad 6–9 files name nets by code with a net table; KiCad 10 files by name.
      format: board.dialect === 'net-names' ? 'KiCad 10' : 'KiCad 6-9',
      copper_layers: board.copperLayers.map((l) => l.name),
      counts: {
        footprints: board.footprints.length,
        pads: board.pads.length,
        nets: board.nets.filter((n) => n.code !== 0).length,
        tracks: board.tracks.length,
        vias: board.vias.length,
        zones: board.zones.filter((z) => !z.keepout).length,
        rule_areas: board.zones.filter((z) => z.keepout).length,
      },
      net_classes: classes,
      minimums_mm: {
        clearance: nmToMmText(m.clearance),
        track_width: nmToMmText(m.trackWidth),
        via_diameter: nmToMmText(m.viaDiameter),
        through_hole: nmToMmText(m.throughHoleDiameter),
        hole_clearance: nmToMmText(m.holeClearance),
        hole_to_hole: nmToMmText(m.holeToHole),
        copper_edge_clearance: nmToMmText(m.copperEdgeClearance),
      },
      custom_rules: rules.custom.map((r) => r.name),
      warnings: warnings.map((w) => `${w.source ?? ''}${w.line ? `:${w.line}:${w.column}` : ''}: ${w.message}`),
    };
    if (args.flags.json) {
      out.stdout(JSON.stringify(data, null, 2) + '\n');
      return 0;
    }
    const c = data.counts;
    out.stdout(
      [
        ...(note ? [note] : []),
        `${file} (${data.format} format, version ${data.version})`,
        `  copper layers: ${data.copper_layers.join(', ')}`,
        `  ${c.footprints} footprints, ${c.pads} pads, ${c.nets} nets, ${c.tracks} tracks, ${c.vias} vias, ${c.zones} zones, ${c.rule_areas} rule areas`,
        `  net classes:`,
        ...classes.map(
          (k) => `    ${k.name}: clearance ${k.clearance_mm} mm, track ${k.track_width_mm} mm, via ${k.via_diameter_mm}/${k.via_drill_mm} mm, ${k.nets} nets`,
        ),
        `  minimums: clearance ${data.minimums_mm.clearance} mm, track ${data.minimums_mm.track_width} mm, edge ${data.minimums_mm.copper_edge_clearance} mm`,
        ...(data.custom_rules.length ? [`  custom rules: ${data.custom_rules.join(', ')}`] : []),
        ...(data.warnings.length ? ['  warnings:', ...data.warnings.map((w) => `    ${w}`)] : []),
        '',
      ].join('\n'),
    );
    return 0;
  },
};
