// The opening of a small KiCad 9 board for tests that write their own: two copper layers, the
// edge layer and a net table. The caller adds items and the closing parenthesis.

/** `(kicad_pcb … (net 0 "") (net 1 "NAME") …` with `nets` numbered from 1, one item a line. */
export function smallBoardHead(nets: readonly string[]): string {
  return `(kicad_pcb
\t(version 20241229)
\t(generator "pcbnew")
\t(layers
\t\t(0 "F.Cu" signal)
\t\t(2 "B.Cu" signal)
\t\t(25 "Edge.Cuts" user)
\t)
\t(net 0 "")
${nets.map((n, i) => `\t(net ${i + 1} "${n}")\n`).join('')}`;
}

/** The board's outline: a w × h mm rectangle from the origin, four Edge.Cuts lines, each with a
 *  uuid from `uuid`. */
export function edgeRect(w: number, h: number, uuid: () => string): string {
  const corners = [
    [0, 0],
    [w, 0],
    [w, h],
    [0, h],
  ];
  return corners
    .map(([a, b], i) => {
      const [c, d] = corners[(i + 1) % 4];
      return `\t(gr_line (start ${a} ${b}) (end ${c} ${d}) (stroke (width 0.05) (type default)) (layer "Edge.Cuts") (uuid "${uuid()}"))\n`;
    })
    .join('');
}

/** A counter of uuids for the items a test writes: 00000000-0000-4000-8000-000000000001, … */
export function uuidCounter(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

/** The `.kicad_pro` of such a board: the given minimums and severities, one Default class
 *  (clearance 0.1 mm, tracks 0.2 mm, vias 0.6/0.3 mm, micro-vias 0.3/0.1 mm). */
export function smallProject(rules: Record<string, number | boolean>, severities: Record<string, string>): string {
  return JSON.stringify({
    board: { design_settings: { defaults: {}, rules, rule_severities: severities } },
    meta: { filename: 'b.kicad_pro', version: 3 },
    net_settings: {
      classes: [
        {
          name: 'Default',
          clearance: 0.1,
          track_width: 0.2,
          via_diameter: 0.6,
          via_drill: 0.3,
          microvia_diameter: 0.3,
          microvia_drill: 0.1,
          diff_pair_gap: 0.25,
          diff_pair_width: 0.2,
          priority: 2147483647,
        },
      ],
      meta: { version: 4 },
    },
  });
}
