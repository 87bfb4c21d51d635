// The board model: what a KiCad board holds that routing and DRC care about, in integer
// nanometres and absolute coordinates (footprint placement already applied). It is plain data:
// readers fill it, algorithms elsewhere (drc/, route/) read it. Names are kept exactly as written.

/** A point in nm, KiCad's axes (x right, y down). */
export interface Pt {
  x: number;
  y: number;
}

/** Copper layers are numbered by stack position: 0 = F.Cu, 1 = In1.Cu, …, count-1 = B.Cu. */
export type LayerMask = number; // bit i set = copper layer i; at most 32 copper layers

export interface CopperLayer {
  index: number;
  /** Canonical name: F.Cu, In1.Cu … B.Cu. */
  name: string;
  /** The user's name from the layer table, if any. */
  userName?: string;
  /** Numeric id in the file's (layers …) table. */
  fileId: number;
  type: string; // signal | power | mixed | jumper
}

export interface Net {
  code: number;
  name: string;
}

export type PadType = 'thru_hole' | 'smd' | 'connect' | 'np_thru_hole';
export type PadShapeKind = 'circle' | 'rect' | 'oval' | 'roundrect' | 'trapezoid' | 'custom' | 'chamfered_rect';

/** A graphic primitive, used for custom pad shapes, copper graphics and the board outline. */
export type Primitive =
  | { kind: 'line'; a: Pt; b: Pt; width: number }
  | { kind: 'arc'; start: Pt; mid: Pt; end: Pt; width: number }
  | { kind: 'circle'; center: Pt; radius: number; width: number; filled: boolean }
  | { kind: 'rect'; a: Pt; b: Pt; width: number; filled: boolean }
  | { kind: 'poly'; pts: Pt[]; width: number; filled: boolean }
  | { kind: 'curve'; pts: Pt[]; width: number };

export interface Drill {
  shape: 'circle' | 'oval';
  /** Hole size in nm; for a circle w === h. */
  w: number;
  h: number;
}

export interface Pad {
  /** Index in Board.pads. */
  index: number;
  footprint: number;
  /** Pad "number" as written (may be empty, or any text). */
  number: string;
  net: number;
  type: PadType;
  shape: PadShapeKind;
  /** Absolute position of the pad anchor (the hole centre), nm. */
  at: Pt;
  /** Absolute orientation in degrees, as KiCad writes it (counter-clockwise on screen). */
  rotation: number;
  /** Pad size along its own axes, nm. */
  size: { w: number; h: number };
  /** Copper offset from the hole, in the pad's own axes (unrotated), nm. */
  offset: Pt;
  drill: Drill | null;
  /** Copper layers the pad has copper on (before unused-layer removal). */
  layers: LayerMask;
  /** KiCad may remove a through pad's copper on layers where nothing connects. */
  removeUnusedLayers: boolean;
  keepEndLayers: boolean;
  roundrectRatio: number;
  chamferRatio: number;
  /** Chamfered corners: bit 0 top_left, 1 top_right, 2 bottom_left, 3 bottom_right. */
  chamferCorners: number;
  /** Trapezoid delta (rect_delta), nm. */
  delta: { x: number; y: number };
  /** Custom pads: the anchor shape and primitives in pad-local nm coordinates (unrotated). */
  anchor?: 'circle' | 'rect';
  primitives?: Primitive[];
  /** Clearance override on the pad, nm (else the footprint's, else rules). */
  clearance?: number;
  /** Solder mask sides the pad opens (F.Mask, B.Mask or `*.Mask` in its layers); none if absent. */
  maskSides?: MaskSides;
  /** Solder mask expansion written on the pad (`solder_mask_margin`), nm; else the footprint's,
   *  else the board's `pad_to_mask_clearance`. */
  maskMargin?: number;
  /** Pin type from the schematic (`pintype`), as written. */
  pinType?: string;
  /** Offset of the pad's s-expression in the source text. */
  src: number;
}

export interface Footprint {
  index: number;
  reference: string;
  value: string;
  libId: string;
  at: Pt;
  rotation: number;
  side: 'front' | 'back';
  locked: boolean;
  clearance?: number;
  /** Solder mask expansion for the footprint's pads (`solder_mask_margin`), nm. */
  maskMargin?: number;
  /** `(attr … allow_soldermask_bridges)`: mask apertures in it may bridge nets. */
  allowMaskBridges?: boolean;
  /** Net-tie groups: pad numbers that may short to each other. */
  netTiePadGroups: string[][];
  pads: number[];
  uuid: string;
  src: number;
}

export interface Track {
  index: number;
  kind: 'segment' | 'arc';
  start: Pt;
  end: Pt;
  /** Only for arcs. */
  mid?: Pt;
  width: number;
  layer: number;
  net: number;
  locked: boolean;
  uuid: string;
  src: number;
}

export type ViaType = 'through' | 'blind' | 'micro';

export interface Via {
  index: number;
  at: Pt;
  size: number;
  drill: number;
  /** Span of copper layers, top to bottom (start ≤ end). */
  layerFrom: number;
  layerTo: number;
  type: ViaType;
  /** A blind via KiCad 10 calls buried (`(via buried …)`): it names its type apart. */
  buried?: boolean;
  net: number;
  locked: boolean;
  removeUnusedLayers: boolean;
  keepEndLayers: boolean;
  /** The via's own tenting, per side, where it overrides the board's (absent: the board's). */
  tenting?: { front?: boolean; back?: boolean };
  uuid: string;
  src: number;
}

/** Solder mask sides: bit 0 F.Mask, bit 1 B.Mask. */
export type MaskSides = number;

/** A board or footprint graphic on F.Mask or B.Mask: an opening in the solder mask. */
export interface MaskGraphic {
  index: number;
  /** 0 = F.Mask, 1 = B.Mask. */
  side: 0 | 1;
  shape: Primitive;
  /** Footprint index, or -1 for a board graphic. */
  footprint: number;
  /** Text: `shape` is then its box, since glyphs are not modelled (the DRC leaves it out). */
  text?: boolean;
  src: number;
}

/** The board setup's solder mask settings (`.kicad_pcb` setup), nm. */
export interface MaskSetup {
  /** `pad_to_mask_clearance`: the default solder mask expansion. */
  padToMask: number;
  /** `solder_mask_min_width`: the narrowest web of mask between two openings. */
  minWidth: number;
  /** `allow_soldermask_bridges_in_footprints`. */
  allowBridgesInFootprints: boolean;
  /** `tenting`: vias are covered by mask on that side unless a via says otherwise. */
  tentFront: boolean;
  tentBack: boolean;
}

/** A track or via on a copper layer the board does not enable. KiCad loads such items and its
 *  DRC reports them (`item_on_disabled_layer`); they are kept apart from tracks and vias so the
 *  router and the other checks never take them for copper on a real layer. */
export interface OffLayerItem {
  kind: 'track' | 'via';
  /** The disabled layer as written (for a via, the first of its span not enabled). */
  layerName: string;
  /** Track start or via centre, nm (KiCad's marker position). */
  at: Pt;
  /** Tracks only: the other end and the width, nm. */
  end?: Pt;
  width?: number;
  net: number;
  /** Offset of the item's s-expression in the source text. */
  src: number;
}

/** A closed polygon with holes; points in nm, outline first. */
export interface PolygonWithHoles {
  outline: Pt[];
  holes: Pt[][];
}

export interface KeepoutFlags {
  tracks: boolean;
  vias: boolean;
  pads: boolean;
  copperpour: boolean;
  footprints: boolean;
}

export interface Zone {
  index: number;
  net: number;
  name: string;
  layers: LayerMask;
  priority: number;
  outline: PolygonWithHoles[];
  /** Filled copper per copper layer index (empty when unfilled). */
  fills: Map<number, PolygonWithHoles[]>;
  /** Present for rule areas (keep-outs). */
  keepout?: KeepoutFlags;
  /** A teardrop (`(attr (teardrop …))`): copper KiCad grows where a track meets a pad or via,
   *  made and removed with the track. */
  teardrop?: boolean;
  clearance: number;
  minThickness: number;
  /** Pad connection: thermal, solid (yes), none (no), thru_hole_only. */
  padConnection: 'thermal' | 'solid' | 'none' | 'thru_hole_only';
  thermalGap: number;
  thermalBridgeWidth: number;
  /** Footprint that owns it (footprint zones), or -1. */
  footprint: number;
  src: number;
}

/** Copper that is not a track: board graphics and footprint graphics on copper layers, and text. */
export interface CopperGraphic {
  index: number;
  layer: number;
  net: number;
  shape: Primitive;
  /**
   * For text (then `shape` is a filled polygon holding every glyph): the text, that polygon's bounding
   * box (nm), the text's uuid, and the glyphs KiCad draws when known (from the running KiCad, or a
   * TrueType text's render cache), absolute nm. Knockout text (copper around the glyphs) has none.
   */
  text?: {
    value: string;
    box: { minX: number; minY: number; maxX: number; maxY: number };
    uuid?: string;
    knockout?: boolean;
    /** A footprint field (`property`): copper the router keeps clear of, which KiCad's DRC does not check. */
    field?: boolean;
    glyphs?: Primitive[];
    /** A stroke-font text's box per line that draws anything (corners, nm): what a mask text opens. */
    lines?: Pt[][];
  };
  footprint: number;
  src: number;
}

/** Edge.Cuts (and footprint edge) graphics, absolute nm. */
export interface OutlineShape {
  shape: Primitive;
  footprint: number;
  src: number;
}

export interface StackupLayer {
  name: string;
  type: string;
  thickness?: number;
}

export interface Diagnostic {
  severity: 'error' | 'warning';
  message: string;
  /** Source file name and 1-based position, when known. */
  source?: string;
  line?: number;
  column?: number;
}

/**
 * How the file names nets: KiCad 6–9 by code with a net table (`(net 3)`), KiCad 10 by name
 * (`(net "SDA")`). The writer adds copper in the file's own way.
 */
export type BoardDialect = 'net-codes' | 'net-names';

export interface Board {
  version: number;
  dialect: BoardDialect;
  generator: string;
  copperLayers: CopperLayer[];
  /** Every layer of the table, by canonical name → file id (for writing and non-copper checks). */
  layerIds: Map<string, number>;
  /** Indexed by net code: nets[code]. Code 0 is the unconnected net (name ""). */
  nets: Net[];
  netByName: Map<string, number>;
  footprints: Footprint[];
  pads: Pad[];
  tracks: Track[];
  vias: Via[];
  zones: Zone[];
  graphics: CopperGraphic[];
  /** Graphics on the solder mask layers (absent when the reader did not look). */
  maskGraphics?: MaskGraphic[];
  /** Solder mask settings of the board setup (absent: KiCad's defaults). */
  mask?: MaskSetup;
  outline: OutlineShape[];
  /** Tracks and vias on copper layers the board does not enable (absent when there are none). */
  offLayerItems?: OffLayerItem[];
  stackup: StackupLayer[];
  /** Board thickness, nm. */
  thickness: number;
  warnings: Diagnostic[];
  /** The source text, kept so the writer can splice added copper into it. */
  text: string;
  source: string;
}
