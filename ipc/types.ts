// The public, protobuf-free vocabulary of the client: plain objects, lengths and coordinates in integer
// nanometres (KiCad's own unit, +Y down), angles in degrees, layers by their .kicad_pcb names ("F.Cu").

/** A point or size in nm. */
export interface Vec2 {
  x: number;
  y: number;
}

/** A layer by its canonical file name, e.g. "F.Cu", "In1.Cu", "B.Cu", "Edge.Cuts", "User.1". */
export type LayerName = string;

export interface KicadVersion {
  major: number;
  minor: number;
  patch: number;
  full: string;
}

/** An open board, as KiCad names it; the client passes it back unchanged on every board call. */
export interface BoardDocument {
  /** The file name only, e.g. "demo.kicad_pcb". */
  boardFilename: string;
  projectName: string;
  /** The folder holding the board, the .kicad_pro and the .kicad_dru. */
  projectPath: string;
}

export interface Net {
  /**
   * The editor's net code (only GetNets reports codes; items name their net). KiCad 9 saves the same
   * codes in the file; KiCad 10 saves names only, so its codes are the running editor's own numbering.
   */
  code: number;
  name: string;
}

interface ItemBase {
  /** KiCad's UUID of the item. */
  id: string;
  locked: boolean;
}

export interface Track extends ItemBase {
  kind: 'track';
  start: Vec2;
  end: Vec2;
  width: number;
  layer: LayerName;
  /** Net name; '' for no net. */
  net: string;
}

export interface Arc extends ItemBase {
  kind: 'arc';
  start: Vec2;
  mid: Vec2;
  end: Vec2;
  width: number;
  layer: LayerName;
  net: string;
}

/**
 * KiCad's via types. KiCad 10 stores blind (one end on an outer layer) and buried (both ends inner)
 * apart; KiCad 9 has one type for both, so the client tells them apart by the drill's layers there.
 */
export type ViaType = 'through' | 'blind' | 'buried' | 'micro';

export interface Via extends ItemBase {
  kind: 'via';
  position: Vec2;
  type: ViaType;
  /** Copper diameter in nm (of the first copper layer entry; a normal via has one for all layers). */
  diameter: number;
  drill: number;
  /** The outermost copper layers it spans. */
  startLayer: LayerName;
  endLayer: LayerName;
  net: string;
}

export type PadShape = 'circle' | 'rectangle' | 'oval' | 'trapezoid' | 'roundrect' | 'chamferedrect' | 'custom';

export interface PadLayerShape {
  /** For a normal padstack a single entry "F.Cu" stands for all copper layers. */
  layer: LayerName;
  shape: PadShape;
  size: Vec2;
  offset: Vec2;
  cornerRoundingRatio: number;
  chamferRatio: number;
}

export interface Pad extends ItemBase {
  kind: 'pad';
  number: string;
  net: string;
  type: 'pth' | 'smd' | 'edge_connector' | 'npth';
  /** Absolute position in nm. */
  position: Vec2;
  /** Absolute rotation in degrees. */
  angle: number;
  padstack: 'normal' | 'front_inner_back' | 'custom';
  /** Every layer the pad is on (a through-hole pad lists all possible copper layers). */
  layers: LayerName[];
  shapes: PadLayerShape[];
  /** Drill size in nm ({0,0} for SMD pads); oblong drills have x ≠ y. */
  drill: Vec2;
  drillShape: 'circle' | 'oblong' | 'none';
  clearanceOverride: number | null;
  /** Reference of the footprint, when read through a footprint; '' from a flat pad query. */
  footprint: string;
}

export interface Footprint extends ItemBase {
  kind: 'footprint';
  reference: string;
  value: string;
  /** "Library:Name". */
  libraryId: string;
  position: Vec2;
  orientation: number;
  layer: LayerName;
  pads: Pad[];
}

/** A closed outline with holes; arcs in outlines come as start/mid/end triples. */
export interface Polygon {
  outline: PolyNode[];
  holes: PolyNode[][];
}

export type PolyNode = { point: Vec2 } | { arc: { start: Vec2; mid: Vec2; end: Vec2 } };

export interface Zone extends ItemBase {
  kind: 'zone';
  type: 'copper' | 'graphical' | 'rule_area' | 'teardrop';
  name: string;
  layers: LayerName[];
  outline: Polygon[];
  net: string;
  priority: number;
  filled: boolean;
  clearance: number | null;
  minThickness: number | null;
  keepout: { copper: boolean; vias: boolean; tracks: boolean; pads: boolean; footprints: boolean } | null;
  filledPolygons: { layer: LayerName; polygons: Polygon[] }[];
}

export type ShapeGeometry =
  | { type: 'segment'; start: Vec2; end: Vec2 }
  | { type: 'rectangle'; topLeft: Vec2; bottomRight: Vec2 }
  | { type: 'arc'; start: Vec2; mid: Vec2; end: Vec2 }
  | { type: 'circle'; center: Vec2; radiusPoint: Vec2 }
  | { type: 'polygon'; polygons: Polygon[] }
  | { type: 'bezier'; start: Vec2; control1: Vec2; control2: Vec2; end: Vec2 };

/** A graphic on the board (not in a footprint): outline segments on Edge.Cuts, copper shapes, drawings. */
export interface BoardShape extends ItemBase {
  kind: 'shape';
  layer: LayerName;
  net: string;
  strokeWidth: number;
  filled: boolean;
  geometry: ShapeGeometry;
}

/** One shape of a text's glyphs: a stroke (segment, arc, …) at the pen width, or a filled outline. */
export interface GlyphShape {
  geometry: ShapeGeometry;
  /** Stroke width, nm (0 for an outline glyph). */
  width: number;
  filled: boolean;
}

/**
 * A text of the board or of a footprint (a free text or a field such as the reference) with the shapes
 * KiCad draws it as (GetTextAsShapes), in absolute nm. Text boxes are not included: KiCad renders a
 * box's text at the origin rather than in the box.
 */
export interface TextShapes {
  /** KiCad's UUID of the text (for a field, of its text). */
  id: string;
  kind: 'text' | 'field';
  /** The owning footprint's id; '' for a text of the board. */
  footprint: string;
  text: string;
  layer: LayerName;
  /** Knockout text: KiCad's copper is the box around the text minus the glyphs. */
  knockout: boolean;
  shapes: GlyphShape[];
}

/** An item kind the client reads; KiCad's other kinds (texts, dimensions, …) are reported as 'other'. */
export interface OtherItem {
  kind: 'other';
  /** KiCad's message name, e.g. "kiapi.board.types.BoardText". */
  type: string;
}

export type BoardItem = Track | Arc | Via | Pad | Footprint | Zone | BoardShape | OtherItem;
export type ItemKind = Exclude<BoardItem['kind'], 'other'>;

/** New copper to create: an item without its id (KiCad assigns one). `locked` defaults to false. */
export type NewTrack = Omit<Track, 'id' | 'kind' | 'locked'> & { kind: 'track'; locked?: boolean };
export type NewArc = Omit<Arc, 'id' | 'kind' | 'locked'> & { kind: 'arc'; locked?: boolean };
export type NewVia = Omit<Via, 'id' | 'kind' | 'locked' | 'type' | 'startLayer' | 'endLayer'> & {
  kind: 'via';
  locked?: boolean;
  /** Defaults to a through via F.Cu … B.Cu; 'blind' needs an outer end layer, 'buried' two inner ones. */
  type?: ViaType;
  startLayer?: LayerName;
  endLayer?: LayerName;
};
export type NewItem = NewTrack | NewArc | NewVia;
/** Copper items the client can update in place (sent whole, with their id). */
export type EditableItem = Track | Arc | Via;

export interface NetClass {
  name: string;
  /** Lower wins; KiCad's Default class has the largest priority. */
  priority: number | null;
  clearance: number | null;
  trackWidth: number | null;
  diffPairTrackWidth: number | null;
  diffPairGap: number | null;
  viaDiameter: number | null;
  viaDrill: number | null;
  microviaDiameter: number | null;
  microviaDrill: number | null;
  type: 'explicit' | 'implicit' | 'unknown';
  /** For an implicit (combined) class, the classes it is made of. */
  constituents: string[];
}

export interface EnabledLayers {
  copperLayerCount: number;
  /** Enabled layers in KiCad's enum order. */
  layers: LayerName[];
}

export interface StackupLayer {
  layer: LayerName | null;
  type: 'copper' | 'dielectric' | 'silkscreen' | 'soldermask' | 'solderpaste' | 'undefined' | 'unknown';
  enabled: boolean;
  thickness: number;
  materialName: string;
  userName: string;
  /** For a dielectric: its sub-layers' relative permittivity and loss tangent. */
  dielectric: { epsilonR: number; lossTangent: number; materialName: string; thickness: number }[];
}

/**
 * The board's design rules as KiCad 11 reports them (Board Setup ▸ Constraints and Pre-defined Sizes,
 * unsaved edits included); nm. Before 11 the API has no such command and the project file
 * (.kicad_pro) is where they are read.
 */
export interface BoardDesignRules {
  minimums: {
    clearance: number;
    grooveWidth: number;
    connectionWidth: number;
    trackWidth: number;
    viaAnnularWidth: number;
    viaDiameter: number;
    throughDrill: number;
    microviaDiameter: number;
    microviaDrill: number;
    copperEdgeClearance: number;
    holeClearance: number;
    holeToHole: number;
    silkClearance: number;
    /** A count, not a length: the fewest thermal spokes a pad must keep. */
    resolvedSpokes: number;
    silkTextHeight: number;
    silkTextThickness: number;
  };
  /** Board Setup's pre-defined sizes, in KiCad's order. */
  trackWidths: number[];
  vias: { diameter: number; drill: number }[];
  diffPairs: { width: number; gap: number; viaGap: number }[];
  /** The custom rules (.kicad_dru): none, present and valid, present but not parsed, or not said. */
  customRules: 'none' | 'valid' | 'invalid' | 'unknown';
}
