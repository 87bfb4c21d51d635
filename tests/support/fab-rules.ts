// A rule file of the kind fab templates are (written for these tests, not taken from one): rules
// conditioned on the item's type, its pad type and isPlated(), with annular_width, hole_to_hole,
// hole_size, clearance and edge minimums, and one on silkscreen the router does not model.

export const FAB_DRU = `(version 1)
(rule "Outer copper: tracks"
\t(layer outer)
\t(condition "A.Type == 'track'")
\t(constraint track_width (min 0.15mm))
\t(constraint clearance (min 0.15mm)))
(rule "Copper ring of plated holes"
\t(condition "A.isPlated()")
\t(constraint annular_width (min 0.15mm)))
(rule "Smallest via drill"
\t(condition "A.Type == 'Via'")
\t(constraint hole_size (min 0.3mm)))
(rule "Drill to drill"
\t(constraint hole_to_hole (min 0.55mm)))
(rule "Pads from tracks"
\t(condition "A.Type == 'Pad' && B.Type == 'Track'")
\t(constraint clearance (min 0.22mm)))
(rule "Silkscreen off pads"
\t(layer "F.SilkS")
\t(constraint silk_clearance (min 0.15mm)))
(rule "Copper from the edge"
\t(constraint edge_clearance (min 0.35mm)))
(rule "Mounting holes"
\t(condition "A.Pad_Type == 'NPTH, mechanical'")
\t(constraint hole_size (min 0.6mm)))
`;
