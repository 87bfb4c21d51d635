// The .proto text of KiCad's board packages (kiapi.board, kiapi.board.types, kiapi.board.commands), the
// subset this client uses, as KiCad 10.0.7 has it with the board design rules of 11 added; what 9.0.8
// and 10.0.7 lack is listed in since.ts. Tracks, arcs, vias and their padstacks are complete, because
// updating an item sends it whole; elsewhere fields we do not read are left out (the decoder skips them).

export const BOARD_PROTO = `
syntax = "proto3";
package kiapi.board;
enum BoardStackupLayerType {
  BSLT_UNKNOWN = 0; BSLT_COPPER = 1; BSLT_DIELECTRIC = 2; BSLT_SILKSCREEN = 3; BSLT_SOLDERMASK = 4;
  BSLT_SOLDERPASTE = 5; BSLT_UNDEFINED = 7;
}
message BoardStackupDielectricProperties {
  double epsilon_r = 1; double loss_tangent = 2; string material_name = 3; kiapi.common.types.Distance thickness = 4;
}
message BoardStackupDielectricLayer { repeated BoardStackupDielectricProperties layer = 1; }
message BoardStackupLayer {
  kiapi.common.types.Distance thickness = 1;
  kiapi.board.types.BoardLayer layer = 2;
  bool enabled = 3;
  BoardStackupLayerType type = 4;
  // KiCad 10 puts this in a oneof beside its new soldermask and silkscreen details: the same bytes.
  oneof details { BoardStackupDielectricLayer dielectric = 5; }
  kiapi.common.types.Color color = 6;
  string material_name = 7;
  string user_name = 8;
}
message BoardStackup { repeated BoardStackupLayer layers = 4; }
// The board's design rules. 9 and 10 declare BoardDesignRules empty and no command uses it; 11 fills it
// (in its board_rules.proto, same package) and reads it with GetBoardDesignRules. Its solder mask,
// teardrop, via protection, severity and exclusion parts are left out (the decoder skips them).
message MinimumConstraints {
  kiapi.common.types.Distance min_clearance = 1; kiapi.common.types.Distance min_groove_width = 2;
  kiapi.common.types.Distance min_connection_width = 3; kiapi.common.types.Distance min_track_width = 4;
  kiapi.common.types.Distance min_via_annular_width = 5; kiapi.common.types.Distance min_via_size = 6;
  kiapi.common.types.Distance min_through_drill = 7; kiapi.common.types.Distance min_microvia_size = 8;
  kiapi.common.types.Distance min_microvia_drill = 9; kiapi.common.types.Distance copper_edge_clearance = 10;
  kiapi.common.types.Distance hole_clearance = 11; kiapi.common.types.Distance hole_to_hole_min = 12;
  kiapi.common.types.Distance silk_clearance = 13; int32 min_resolved_spokes = 14;
  kiapi.common.types.Distance min_silk_text_height = 15; kiapi.common.types.Distance min_silk_text_thickness = 16;
}
message PresetTrackWidth { kiapi.common.types.Distance width = 1; }
message PresetViaDimension { kiapi.common.types.Distance diameter = 1; kiapi.common.types.Distance drill = 2; }
message PresetDiffPairDimension {
  kiapi.common.types.Distance width = 1; kiapi.common.types.Distance gap = 2; kiapi.common.types.Distance via_gap = 3;
}
message PredefinedSizes {
  repeated PresetTrackWidth tracks = 1; repeated PresetViaDimension vias = 2; repeated PresetDiffPairDimension diff_pairs = 3;
}
message BoardDesignRules { MinimumConstraints constraints = 1; PredefinedSizes predefined_sizes = 2; }
`;

export const BOARD_TYPES_PROTO = `
syntax = "proto3";
package kiapi.board.types;
enum BoardLayer {
  BL_UNKNOWN = 0; BL_UNDEFINED = 1; BL_UNSELECTED = 2; BL_F_Cu = 3;
  BL_In1_Cu = 4; BL_In2_Cu = 5; BL_In3_Cu = 6; BL_In4_Cu = 7; BL_In5_Cu = 8; BL_In6_Cu = 9; BL_In7_Cu = 10;
  BL_In8_Cu = 11; BL_In9_Cu = 12; BL_In10_Cu = 13; BL_In11_Cu = 14; BL_In12_Cu = 15; BL_In13_Cu = 16;
  BL_In14_Cu = 17; BL_In15_Cu = 18; BL_In16_Cu = 19; BL_In17_Cu = 20; BL_In18_Cu = 21; BL_In19_Cu = 22;
  BL_In20_Cu = 23; BL_In21_Cu = 24; BL_In22_Cu = 25; BL_In23_Cu = 26; BL_In24_Cu = 27; BL_In25_Cu = 28;
  BL_In26_Cu = 29; BL_In27_Cu = 30; BL_In28_Cu = 31; BL_In29_Cu = 32; BL_In30_Cu = 33; BL_B_Cu = 34;
  BL_B_Adhes = 35; BL_F_Adhes = 36; BL_B_Paste = 37; BL_F_Paste = 38; BL_B_SilkS = 39; BL_F_SilkS = 40;
  BL_B_Mask = 41; BL_F_Mask = 42; BL_Dwgs_User = 43; BL_Cmts_User = 44; BL_Eco1_User = 45; BL_Eco2_User = 46;
  BL_Edge_Cuts = 47; BL_Margin = 48; BL_B_CrtYd = 49; BL_F_CrtYd = 50; BL_B_Fab = 51; BL_F_Fab = 52;
  BL_User_1 = 53; BL_User_2 = 54; BL_User_3 = 55; BL_User_4 = 56; BL_User_5 = 57; BL_User_6 = 58;
  BL_User_7 = 59; BL_User_8 = 60; BL_User_9 = 61; BL_Rescue = 62;
  BL_User_10 = 63; BL_User_11 = 64; BL_User_12 = 65; BL_User_13 = 66; BL_User_14 = 67; BL_User_15 = 68;
  BL_User_16 = 69; BL_User_17 = 70; BL_User_18 = 71; BL_User_19 = 72; BL_User_20 = 73; BL_User_21 = 74;
  BL_User_22 = 75; BL_User_23 = 76; BL_User_24 = 77; BL_User_25 = 78; BL_User_26 = 79; BL_User_27 = 80;
  BL_User_28 = 81; BL_User_29 = 82; BL_User_30 = 83; BL_User_31 = 84; BL_User_32 = 85; BL_User_33 = 86;
  BL_User_34 = 87; BL_User_35 = 88; BL_User_36 = 89; BL_User_37 = 90; BL_User_38 = 91; BL_User_39 = 92;
  BL_User_40 = 93; BL_User_41 = 94; BL_User_42 = 95; BL_User_43 = 96; BL_User_44 = 97; BL_User_45 = 98;
}
enum PadStackType { PST_UNKNOWN = 0; PST_NORMAL = 1; PST_FRONT_INNER_BACK = 2; PST_CUSTOM = 3; }
enum UnconnectedLayerRemoval { ULR_UNKNOWN = 0; ULR_KEEP = 1; ULR_REMOVE = 2; ULR_REMOVE_EXCEPT_START_AND_END = 3; }
enum PadStackShape {
  PSS_UNKNOWN = 0; PSS_CIRCLE = 1; PSS_RECTANGLE = 2; PSS_OVAL = 3; PSS_TRAPEZOID = 4; PSS_ROUNDRECT = 5;
  PSS_CHAMFEREDRECT = 6; PSS_CUSTOM = 7;
}
enum ZoneConnectionStyle { ZCS_UNKNOWN = 0; ZCS_INHERITED = 1; ZCS_NONE = 2; ZCS_THERMAL = 3; ZCS_FULL = 4; ZCS_PTH_THERMAL = 5; }
enum SolderMaskMode { SMM_UNKNOWN = 0; SMM_MASKED = 1; SMM_UNMASKED = 2; SMM_FROM_DESIGN_RULES = 3; }
enum SolderPasteMode { SPM_UNKNOWN = 0; SPM_PASTE = 1; SPM_NO_PASTE = 2; SPM_FROM_DESIGN_RULES = 3; }
enum DrillShape { DS_UNKNOWN = 0; DS_CIRCLE = 1; DS_OBLONG = 2; DS_UNDEFINED = 3; }
// KiCad 9 has one value for blind and buried vias; KiCad 10 tells them apart (and takes 2 as blind,
// whatever layers the via drills: seen live on 10.0.7).
enum ViaType { VT_UNKNOWN = 0; VT_THROUGH = 1; VT_BLIND_BURIED = 2; VT_MICRO = 3; VT_BLIND = 4; VT_BURIED = 5; }
enum ViaPluggingMode { VPM_UNKNOWN = 0; VPM_PLUGGED = 1; VPM_UNPLUGGED = 2; VPM_FROM_DESIGN_RULES = 3; }
enum ViaCoveringMode { VCM_UNKNOWN = 0; VCM_COVERED = 1; VCM_UNCOVERED = 2; VCM_FROM_DESIGN_RULES = 3; }
enum ViaDrillCappingMode { VDCM_UNKNOWN = 0; VDCM_CAPPED = 1; VDCM_UNCAPPED = 2; VDCM_FROM_DESIGN_RULES = 3; }
enum ViaDrillFillingMode { VDFM_UNKNOWN = 0; VDFM_FILLED = 1; VDFM_UNFILLED = 2; VDFM_FROM_DESIGN_RULES = 3; }
enum ViaDrillPostMachiningMode { VDPM_UNKNOWN = 0; VDPM_NOT_POST_MACHINED = 1; VDPM_COUNTERBORE = 2; VDPM_COUNTERSINK = 3; }
enum PadTeardropMode { PTM_UNKNOWN = 0; PTM_DISABLED = 1; PTM_ENABLED = 2; }
enum ZoneLayerOverride { ZLO_UNKNOWN = 0; ZLO_NONE = 1; ZLO_FORCE_FLASHED = 2; ZLO_FORCE_NO_ZONE_CONNECTION = 3; }
enum PadType { PT_UNKNOWN = 0; PT_PTH = 1; PT_SMD = 2; PT_EDGE_CONNECTOR = 3; PT_NPTH = 4; }
enum ZoneType { ZT_UNKNOWN = 0; ZT_COPPER = 1; ZT_GRAPHICAL = 2; ZT_RULE_AREA = 3; ZT_TEARDROP = 4; }

message NetCode { int32 value = 1; }
message Net { NetCode code = 1; string name = 2; }
message SolderMaskOverrides { kiapi.common.types.Distance solder_mask_margin = 1; bool expose_copper = 2; }
message Track {
  kiapi.common.types.KIID id = 1; kiapi.common.types.Vector2 start = 2; kiapi.common.types.Vector2 end = 3;
  kiapi.common.types.Distance width = 4; kiapi.common.types.LockedState locked = 5; BoardLayer layer = 6; Net net = 7;
  kiapi.common.types.KIID parent = 8; SolderMaskOverrides solder_mask = 9;
}
message Arc {
  kiapi.common.types.KIID id = 1; kiapi.common.types.Vector2 start = 2; kiapi.common.types.Vector2 mid = 3;
  kiapi.common.types.Vector2 end = 4; kiapi.common.types.Distance width = 5; kiapi.common.types.LockedState locked = 6;
  BoardLayer layer = 7; Net net = 8; kiapi.common.types.KIID parent = 9; SolderMaskOverrides solder_mask = 10;
}
message ChamferedRectCorners { bool top_left = 1; bool top_right = 2; bool bottom_left = 3; bool bottom_right = 4; }
message ThermalSpokeSettings {
  kiapi.common.types.Distance width = 1; kiapi.common.types.Angle angle = 2; kiapi.common.types.Distance gap = 3;
}
message ZoneConnectionSettings { ZoneConnectionStyle zone_connection = 1; ThermalSpokeSettings thermal_spokes = 2; }
message SolderPasteOverrides {
  kiapi.common.types.Distance solder_paste_margin = 1; kiapi.common.types.Ratio solder_paste_margin_ratio = 2;
}
message PadStackLayer {
  BoardLayer layer = 1; PadStackShape shape = 2; kiapi.common.types.Vector2 size = 3;
  double corner_rounding_ratio = 4; double chamfer_ratio = 5; ChamferedRectCorners chamfered_corners = 6;
  repeated BoardGraphicShape custom_shapes = 7; PadStackShape custom_anchor_shape = 8;
  ZoneConnectionSettings zone_settings = 9; kiapi.common.types.Vector2 trapezoid_delta = 10;
  kiapi.common.types.Vector2 offset = 11;
}
message PadStackOuterLayer {
  SolderMaskMode solder_mask_mode = 1; SolderPasteMode solder_paste_mode = 2;
  SolderMaskOverrides solder_mask_settings = 3; SolderPasteOverrides solder_paste_settings = 4;
  ViaPluggingMode plugging_mode = 5; ViaCoveringMode covering_mode = 6;
}
message DrillProperties {
  BoardLayer start_layer = 1; BoardLayer end_layer = 2; kiapi.common.types.Vector2 diameter = 3; DrillShape shape = 4;
  ViaDrillCappingMode capped = 5; ViaDrillFillingMode filled = 6;
}
message PostMachiningProperties { ViaDrillPostMachiningMode mode = 1; int32 size = 2; int32 depth = 3; int32 angle = 4; }
message PadStack {
  PadStackType type = 1; repeated BoardLayer layers = 2; DrillProperties drill = 3;
  UnconnectedLayerRemoval unconnected_layer_removal = 4; repeated PadStackLayer copper_layers = 5;
  kiapi.common.types.Angle angle = 6; PadStackOuterLayer front_outer_layers = 7;
  PadStackOuterLayer back_outer_layers = 8; ZoneConnectionSettings zone_settings = 9;
  DrillProperties secondary_drill = 10; DrillProperties tertiary_drill = 11;
  PostMachiningProperties front_post_machining = 12; PostMachiningProperties back_post_machining = 13;
}
message PadTeardropSettings {
  PadTeardropMode mode = 1; bool curved_edges = 2; bool allow_multiple_track_segments = 3; bool prefer_zone_connection = 4;
  kiapi.common.types.Distance max_length = 5; kiapi.common.types.Distance max_width = 6;
  double best_length_ratio = 7; double best_width_ratio = 8; double max_track_width_ratio = 9;
}
message ZoneLayerOverrideEntry { BoardLayer layer = 1; ZoneLayerOverride override = 2; }
message Via {
  kiapi.common.types.KIID id = 1; kiapi.common.types.Vector2 position = 2; PadStack pad_stack = 3;
  kiapi.common.types.LockedState locked = 4; Net net = 5; ViaType type = 6;
  kiapi.common.types.KIID parent = 7; PadTeardropSettings teardrop = 8;
  repeated ZoneLayerOverrideEntry zone_layer_overrides = 9; bool is_free = 10;
}
message BoardGraphicShape {
  kiapi.common.types.GraphicShape shape = 1; BoardLayer layer = 2; Net net = 3;
  kiapi.common.types.KIID id = 4; kiapi.common.types.LockedState locked = 5;
  kiapi.common.types.KIID parent = 6; SolderMaskOverrides solder_mask = 7;
}
message BoardText {
  kiapi.common.types.KIID id = 1; kiapi.common.types.Text text = 2; BoardLayer layer = 3;
  bool knockout = 4; kiapi.common.types.LockedState locked = 5; kiapi.common.types.KIID parent = 6;
}
message BoardTextBox {
  kiapi.common.types.KIID id = 1; kiapi.common.types.TextBox textbox = 2; BoardLayer layer = 3;
  kiapi.common.types.LockedState locked = 4; kiapi.common.types.KIID parent = 5; bool knockout = 6;
}
message Pad {
  kiapi.common.types.KIID id = 1; kiapi.common.types.LockedState locked = 2; string number = 3; Net net = 4;
  PadType type = 5; PadStack pad_stack = 6; kiapi.common.types.Vector2 position = 7;
  kiapi.common.types.Distance copper_clearance_override = 8; kiapi.common.types.Distance pad_to_die_length = 9;
}
message CopperZoneSettings {
  kiapi.common.types.Distance clearance = 2; kiapi.common.types.Distance min_thickness = 3; Net net = 8;
}
message RuleAreaSettings {
  bool keepout_copper = 1; bool keepout_vias = 2; bool keepout_tracks = 3; bool keepout_pads = 4;
  bool keepout_footprints = 5;
}
message ZoneFilledPolygons { BoardLayer layer = 1; kiapi.common.types.PolySet shapes = 2; }
message Zone {
  kiapi.common.types.KIID id = 1; ZoneType type = 2; repeated BoardLayer layers = 3;
  kiapi.common.types.PolySet outline = 4; string name = 5;
  oneof settings { CopperZoneSettings copper_settings = 6; RuleAreaSettings rule_area_settings = 7; }
  uint32 priority = 8; bool filled = 9; repeated ZoneFilledPolygons filled_polygons = 10;
  kiapi.common.types.LockedState locked = 12;
}
message FieldId { int32 id = 1; }
message Field { FieldId id = 1; string name = 2; BoardText text = 3; bool visible = 4; }
message Footprint {
  kiapi.common.types.LibraryIdentifier id = 1; kiapi.common.types.Vector2 anchor = 2;
  repeated google.protobuf.Any items = 11;
}
message FootprintInstance {
  kiapi.common.types.KIID id = 1; kiapi.common.types.Vector2 position = 2; kiapi.common.types.Angle orientation = 3;
  BoardLayer layer = 4; kiapi.common.types.LockedState locked = 5; Footprint definition = 6;
  Field reference_field = 7; Field value_field = 8; Field datasheet_field = 9; Field description_field = 10;
}
`;

export const BOARD_COMMANDS_PROTO = `
syntax = "proto3";
package kiapi.board.commands;
message GetBoardStackup { kiapi.common.types.DocumentSpecifier board = 1; }
message BoardStackupResponse { kiapi.board.BoardStackup stackup = 1; }
message GetBoardEnabledLayers { kiapi.common.types.DocumentSpecifier board = 1; }
message BoardEnabledLayersResponse { uint32 copper_layer_count = 1; repeated kiapi.board.types.BoardLayer layers = 2; }
message GetNets { kiapi.common.types.DocumentSpecifier board = 1; repeated string netclass_filter = 2; }
message NetsResponse { repeated kiapi.board.types.Net nets = 1; }
message GetNetClassForNets { repeated kiapi.board.types.Net net = 1; }
message NetClassForNetsResponse { map<string, kiapi.common.project.NetClass> classes = 1; }
message RefillZones { kiapi.common.types.DocumentSpecifier board = 1; repeated kiapi.common.types.KIID zones = 2; }
// KiCad 11 reads the board's design rules; whether custom rules (.kicad_dru) are present and parse.
enum CustomRulesStatus { CRS_UNKNOWN = 0; CRS_NONE = 1; CRS_VALID = 2; CRS_INVALID = 3; }
message GetBoardDesignRules { kiapi.common.types.DocumentSpecifier board = 1; }
message BoardDesignRulesResponse { kiapi.board.BoardDesignRules rules = 1; CustomRulesStatus custom_rules_status = 2; }
// KiCad 9 has the message with net codes (field 3) but no handler; KiCad 10 takes nets by name.
message GetItemsByNet {
  kiapi.common.types.ItemHeader header = 1; repeated kiapi.common.types.KiCadObjectType types = 2;
  repeated kiapi.board.types.Net nets = 4;
}
`;
