// Where our .proto subset (written as KiCad 10.0.7 has it, with what 11 adds) differs from a KiCad:
// what 9.0.8 does not have at all and the value names 9 spells differently, what 10.0.7 does not have,
// and what KiCad master did not have when it was read. The client sends a name listed here only to a
// KiCad that has it (it asks GetVersion first, version.ts); tests/live/proto-schema.test.ts checks the
// lists against the descriptors compiled into each version's libkiapi and
// tests/ipc/kicad-master-schema.test.ts against master's schema, so they cannot drift.

/** Full names (no leading dot) of messages, enums, fields ("Message.field") and enum values ("Enum.VALUE"). */
export const SINCE_KICAD_10: ReadonlySet<string> = new Set([
  // Blind and buried vias become two types.
  'kiapi.board.types.ViaType.VT_BLIND',
  'kiapi.board.types.ViaType.VT_BURIED',
  // Reading items by id and by net name (KiCad 9 reads everything and filters).
  'kiapi.common.commands.GetItemsById',
  'kiapi.board.commands.GetItemsByNet.nets',
  // A commit may name its document.
  'kiapi.common.commands.BeginCommit.header',
  'kiapi.common.commands.EndCommit.header',
  // New fields of the items the client sends whole, and their types.
  'kiapi.board.types.Track.parent',
  'kiapi.board.types.Track.solder_mask',
  'kiapi.board.types.Arc.parent',
  'kiapi.board.types.Arc.solder_mask',
  'kiapi.board.types.BoardGraphicShape.parent',
  'kiapi.board.types.BoardGraphicShape.solder_mask',
  'kiapi.board.types.SolderMaskOverrides.expose_copper',
  'kiapi.board.types.Via.parent',
  'kiapi.board.types.Via.teardrop',
  'kiapi.board.types.Via.zone_layer_overrides',
  'kiapi.board.types.Via.is_free',
  'kiapi.board.types.PadStack.secondary_drill',
  'kiapi.board.types.PadStack.tertiary_drill',
  'kiapi.board.types.PadStack.front_post_machining',
  'kiapi.board.types.PadStack.back_post_machining',
  'kiapi.board.types.PadStackOuterLayer.plugging_mode',
  'kiapi.board.types.PadStackOuterLayer.covering_mode',
  'kiapi.board.types.DrillProperties.capped',
  'kiapi.board.types.DrillProperties.filled',
  'kiapi.board.types.PostMachiningProperties',
  'kiapi.board.types.PadTeardropSettings',
  'kiapi.board.types.ZoneLayerOverrideEntry',
  'kiapi.board.types.ViaPluggingMode',
  'kiapi.board.types.ViaCoveringMode',
  'kiapi.board.types.ViaDrillCappingMode',
  'kiapi.board.types.ViaDrillFillingMode',
  'kiapi.board.types.ViaDrillPostMachiningMode',
  'kiapi.board.types.PadTeardropMode',
  'kiapi.board.types.ZoneLayerOverride',
  // Text boxes gain a border flag and margins (GetTextAsShapes then draws the border too); texts a parent.
  'kiapi.common.types.TextBox.border_enabled',
  'kiapi.common.types.TextBox.margin_left',
  'kiapi.common.types.TextBox.margin_top',
  'kiapi.common.types.TextBox.margin_right',
  'kiapi.common.types.TextBox.margin_bottom',
  'kiapi.board.types.BoardText.parent',
  'kiapi.board.types.BoardTextBox.parent',
  'kiapi.board.types.BoardTextBox.knockout',
]);

/**
 * What neither 9.0.8 nor 10.0.7 has: read from KiCad's master (KiCad 11), pinned by
 * tests/ipc/kicad-master-schema.test.ts. The client asks for these only of an 11 (version.ts).
 */
export const SINCE_KICAD_11: ReadonlySet<string> = new Set([
  // Ellipses and elliptical arcs among the graphic shapes.
  'kiapi.common.types.GraphicEllipseAttributes',
  'kiapi.common.types.GraphicEllipseArcAttributes',
  'kiapi.common.types.GraphicShape.ellipse',
  'kiapi.common.types.GraphicShape.ellipse_arc',
  // Coloured and hatched fills of graphic shapes.
  'kiapi.common.types.GraphicFillType.GFT_FILLED_WITH_COLOR',
  'kiapi.common.types.GraphicFillType.GFT_FILLED_WITH_BACKGROUND_BODY_COLOR',
  'kiapi.common.types.GraphicFillType.GFT_HATCH',
  'kiapi.common.types.GraphicFillType.GFT_REVERSE_HATCH',
  'kiapi.common.types.GraphicFillType.GFT_CROSS_HATCH',
  // The board's design rules, and the command that reads them.
  'kiapi.board.MinimumConstraints',
  'kiapi.board.PresetTrackWidth',
  'kiapi.board.PresetViaDimension',
  'kiapi.board.PresetDiffPairDimension',
  'kiapi.board.PredefinedSizes',
  'kiapi.board.BoardDesignRules.constraints',
  'kiapi.board.BoardDesignRules.predefined_sizes',
  'kiapi.board.commands.CustomRulesStatus',
  'kiapi.board.commands.GetBoardDesignRules',
  'kiapi.board.commands.BoardDesignRulesResponse',
  // The headless server's documents.
  'kiapi.common.commands.OpenDocument',
  'kiapi.common.commands.OpenDocumentResponse',
  'kiapi.common.commands.CloseDocument',
]);

/**
 * What KiCad 10.0.7 has and KiCad master did not have at the commits read (tests/ipc/kicad-master-schema.json):
 * fields the 10.0 branch added in 10.0.6 and 10.0.7 ("Since: 10.0.6" and "10.0.7" in its
 * board_types.proto), not yet merged into master there. Their numbers are free on master (the test
 * checks it), so the day master takes them under the same numbers nothing moves; until then an 11
 * ignores them when the client sends them, and the libkiapi test lets an 11 lack them.
 */
export const NOT_ON_MASTER: ReadonlySet<string> = new Set([
  'kiapi.board.types.Track.parent',
  'kiapi.board.types.Track.solder_mask',
  'kiapi.board.types.Arc.parent',
  'kiapi.board.types.Arc.solder_mask',
  'kiapi.board.types.BoardGraphicShape.parent',
  'kiapi.board.types.BoardGraphicShape.solder_mask',
  'kiapi.board.types.SolderMaskOverrides.expose_copper',
  'kiapi.board.types.Via.parent',
  'kiapi.board.types.Via.teardrop',
  'kiapi.board.types.Via.zone_layer_overrides',
  'kiapi.board.types.Via.is_free',
  'kiapi.board.types.BoardText.parent',
  'kiapi.board.types.BoardTextBox.parent',
  'kiapi.board.types.BoardTextBox.knockout',
  'kiapi.board.types.PadTeardropSettings',
  'kiapi.board.types.PadTeardropMode',
  'kiapi.board.types.ZoneLayerOverrideEntry',
  'kiapi.board.types.ZoneLayerOverride',
  // 10.0.7's text box border and margins.
  'kiapi.common.types.TextBox.border_enabled',
  'kiapi.common.types.TextBox.margin_left',
  'kiapi.common.types.TextBox.margin_top',
  'kiapi.common.types.TextBox.margin_right',
  'kiapi.common.types.TextBox.margin_bottom',
]);

/** Fields KiCad 10 moved into a oneof; on the wire a oneof member is an ordinary field, so 9 reads them the same. */
export const KICAD_9_OUTSIDE_ONEOF: ReadonlySet<string> = new Set(['kiapi.board.BoardStackupLayer.dielectric']);

/** Enum values KiCad 9 spells differently (same number; KiCad 10 fixed the typo). */
export const KICAD_9_NAMES: ReadonlyMap<string, string> = new Map([
  ['kiapi.board.types.SolderMaskMode.SMM_UNKNOWN', 'SMM_UNKOWN'],
  ['kiapi.board.types.SolderPasteMode.SPM_UNKNOWN', 'SPM_UNKOWN'],
]);
