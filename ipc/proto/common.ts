// The .proto text of KiCad's envelope and common types (packages google.protobuf, kiapi.common,
// kiapi.common.types, kiapi.common.project), the subset this client uses; what 9.0.8 or 10.0.7 lack is
// listed in since.ts. Names and numbers equal KiCad's; tests/live/proto-schema.test.ts checks them
// against the descriptors inside each version's libkiapi, tests/ipc/kicad-master-schema.test.ts against
// KiCad's master.

export const GOOGLE_PROTO = `
syntax = "proto3";
package google.protobuf;
message Any { string type_url = 1; bytes value = 2; }
message Empty {}
message FieldMask { repeated string paths = 1; }
`;

export const ENVELOPE_PROTO = `
syntax = "proto3";
package kiapi.common;
enum ApiStatusCode {
  AS_UNKNOWN = 0; AS_OK = 1; AS_TIMEOUT = 2; AS_BAD_REQUEST = 3; AS_NOT_READY = 4;
  AS_UNHANDLED = 5; AS_TOKEN_MISMATCH = 6; AS_BUSY = 7; AS_UNIMPLEMENTED = 8;
}
message ApiRequestHeader { string kicad_token = 1; string client_name = 2; }
message ApiRequest { ApiRequestHeader header = 1; google.protobuf.Any message = 2; }
message ApiResponseHeader { string kicad_token = 1; }
message ApiResponseStatus { ApiStatusCode status = 1; string error_message = 2; }
message ApiResponse { ApiResponseHeader header = 1; ApiResponseStatus status = 2; google.protobuf.Any message = 3; }
`;

export const COMMON_TYPES_PROTO = `
syntax = "proto3";
package kiapi.common.types;
enum DocumentType {
  DOCTYPE_UNKNOWN = 0; DOCTYPE_SCHEMATIC = 1; DOCTYPE_SYMBOL = 2; DOCTYPE_PCB = 3;
  DOCTYPE_FOOTPRINT = 4; DOCTYPE_DRAWING_SHEET = 5; DOCTYPE_PROJECT = 6;
}
enum ItemRequestStatus { IRS_UNKNOWN = 0; IRS_OK = 1; IRS_DOCUMENT_NOT_FOUND = 2; IRS_FIELD_MASK_INVALID = 3; }
enum LockedState { LS_UNKNOWN = 0; LS_UNLOCKED = 1; LS_LOCKED = 2; }
// KiCad 11 adds coloured and hatched fills (3 to 7).
enum GraphicFillType {
  GFT_UNKNOWN = 0; GFT_UNFILLED = 1; GFT_FILLED = 2; GFT_FILLED_WITH_COLOR = 3; GFT_FILLED_WITH_BACKGROUND_BODY_COLOR = 4;
  GFT_HATCH = 5; GFT_REVERSE_HATCH = 6; GFT_CROSS_HATCH = 7;
}
enum StrokeLineStyle {
  SLS_UNKNOWN = 0; SLS_DEFAULT = 1; SLS_SOLID = 2; SLS_DASH = 3; SLS_DOT = 4; SLS_DASHDOT = 5; SLS_DASHDOTDOT = 6;
}
enum HorizontalAlignment { HA_UNKNOWN = 0; HA_LEFT = 1; HA_CENTER = 2; HA_RIGHT = 3; HA_INDETERMINATE = 4; }
enum VerticalAlignment { VA_UNKNOWN = 0; VA_TOP = 1; VA_CENTER = 2; VA_BOTTOM = 3; VA_INDETERMINATE = 4; }
enum ElectricalPinType {
  EPT_UNKNOWN = 0; EPT_INPUT = 1; EPT_OUTPUT = 2; EPT_BIDIRECTIONAL = 3; EPT_TRISTATE = 4; EPT_PASSIVE = 5;
  EPT_FREE = 6; EPT_UNSPECIFIED = 7; EPT_POWER_INPUT = 8; EPT_POWER_OUTPUT = 9; EPT_OPEN_COLLECTOR = 10;
  EPT_OPEN_EMITTER = 11; EPT_NO_CONNECT = 12;
}
enum KiCadObjectType {
  KOT_UNKNOWN = 0; KOT_PCB_FOOTPRINT = 1; KOT_PCB_PAD = 2; KOT_PCB_SHAPE = 3; KOT_PCB_REFERENCE_IMAGE = 4;
  KOT_PCB_FIELD = 5; KOT_PCB_GENERATOR = 6; KOT_PCB_TEXT = 7; KOT_PCB_TEXTBOX = 8; KOT_PCB_TABLE = 9;
  KOT_PCB_TABLECELL = 10; KOT_PCB_TRACE = 11; KOT_PCB_VIA = 12; KOT_PCB_ARC = 13; KOT_PCB_MARKER = 14;
  KOT_PCB_DIMENSION = 15; KOT_PCB_ZONE = 16; KOT_PCB_GROUP = 17;
}
message KiCadVersion { uint32 major = 1; uint32 minor = 2; uint32 patch = 3; string full_version = 4; }
message KIID { string value = 1; }
message LibraryIdentifier { string library_nickname = 1; string entry_name = 2; }
message SheetPath { repeated KIID path = 1; string path_human_readable = 2; }
message ProjectSpecifier { string name = 1; string path = 2; }
message DocumentSpecifier {
  DocumentType type = 1;
  oneof identifier { LibraryIdentifier lib_id = 2; SheetPath sheet_path = 3; string board_filename = 4; }
  ProjectSpecifier project = 5;
}
message ItemHeader { DocumentSpecifier document = 1; KIID container = 2; google.protobuf.FieldMask field_mask = 3; }
message Vector2 { int64 x_nm = 1; int64 y_nm = 2; }
message Box2 { Vector2 position = 1; Vector2 size = 2; }
message Distance { int64 value_nm = 1; }
message Angle { double value_degrees = 1; }
message Ratio { double value = 1; }
message Color { double r = 1; double g = 2; double b = 3; double a = 4; }
message ArcStartMidEnd { Vector2 start = 1; Vector2 mid = 2; Vector2 end = 3; }
message PolyLineNode { oneof geometry { Vector2 point = 1; ArcStartMidEnd arc = 2; } }
message PolyLine { repeated PolyLineNode nodes = 1; bool closed = 2; }
message PolygonWithHoles { PolyLine outline = 1; repeated PolyLine holes = 2; }
message PolySet { repeated PolygonWithHoles polygons = 1; }
message TextAttributes {
  string font_name = 1; HorizontalAlignment horizontal_alignment = 2; VerticalAlignment vertical_alignment = 3;
  Angle angle = 4; double line_spacing = 5; Distance stroke_width = 6; bool italic = 7; bool bold = 8;
  bool underlined = 9; bool visible = 10; bool mirrored = 11; bool multiline = 12; bool keep_upright = 13;
  Vector2 size = 14;
}
message Text { Vector2 position = 2; TextAttributes attributes = 3; string text = 5; string hyperlink = 6; }
message TextBox {
  Vector2 top_left = 2; Vector2 bottom_right = 3; TextAttributes attributes = 4; string text = 6;
  bool border_enabled = 8; Distance margin_left = 9; Distance margin_top = 10; Distance margin_right = 11;
  Distance margin_bottom = 12;
}
message StrokeAttributes { Distance width = 1; StrokeLineStyle style = 2; Color color = 3; }
message GraphicFillAttributes { GraphicFillType fill_type = 1; Color color = 2; }
message GraphicAttributes { StrokeAttributes stroke = 1; GraphicFillAttributes fill = 2; }
message GraphicSegmentAttributes { Vector2 start = 1; Vector2 end = 2; }
message GraphicRectangleAttributes { Vector2 top_left = 1; Vector2 bottom_right = 2; }
message GraphicArcAttributes { Vector2 start = 1; Vector2 mid = 2; Vector2 end = 3; }
message GraphicCircleAttributes { Vector2 center = 1; Vector2 radius_point = 2; }
message GraphicBezierAttributes { Vector2 start = 1; Vector2 control1 = 2; Vector2 control2 = 3; Vector2 end = 4; }
// Ellipses and elliptical arcs are new in KiCad 11. The client reads that a shape is one (its geometry
// is not modelled), so that an ellipse on a KiCad 11 board is not taken for a shape without geometry.
message GraphicEllipseAttributes { Vector2 center = 1; Distance major_radius = 2; Distance minor_radius = 3; Angle rotation = 4; }
message GraphicEllipseArcAttributes {
  Vector2 center = 1; Distance major_radius = 2; Distance minor_radius = 3; Angle rotation = 4;
  Angle start_angle = 5; Angle end_angle = 6;
}
message GraphicShape {
  GraphicAttributes attributes = 3;
  oneof geometry {
    GraphicSegmentAttributes segment = 4; GraphicRectangleAttributes rectangle = 5; GraphicArcAttributes arc = 6;
    GraphicCircleAttributes circle = 7; PolySet polygon = 8; GraphicBezierAttributes bezier = 9;
    GraphicEllipseAttributes ellipse = 10; GraphicEllipseArcAttributes ellipse_arc = 11;
  }
}
message CompoundShape { repeated GraphicShape shapes = 1; }
`;

export const PROJECT_PROTO = `
syntax = "proto3";
package kiapi.common.project;
enum NetClassType { NCT_UNKNOWN = 0; NCT_EXPLICIT = 1; NCT_IMPLICIT = 2; }
message NetClassBoardSettings {
  optional kiapi.common.types.Distance clearance = 1;
  optional kiapi.common.types.Distance track_width = 2;
  optional kiapi.common.types.Distance diff_pair_track_width = 3;
  optional kiapi.common.types.Distance diff_pair_gap = 4;
  optional kiapi.common.types.Distance diff_pair_via_gap = 5;
  optional kiapi.board.types.PadStack via_stack = 6;
  optional kiapi.board.types.PadStack microvia_stack = 7;
  optional kiapi.common.types.Color color = 8;
}
message NetClass {
  string name = 1;
  optional int32 priority = 2;
  optional NetClassBoardSettings board = 3;
  NetClassType type = 5;
  repeated string constituents = 6;
}
`;
