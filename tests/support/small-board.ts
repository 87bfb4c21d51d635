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
