// Translation between KiCad's protobuf items and the client's plain objects (types.ts): nm as numbers,
// enums as short lower-case names, layers as file names. Only this file and messages.ts see wire shapes.
import { KicadProtocolError } from './errors.ts';
import { anyTypeName, enumName, enumValue, enumValueOrUndefined, int64, packAny, unpackAny, type Wire } from './messages.ts';
import type {
  Arc,
  BoardDesignRules,
  BoardItem,
  BoardShape,
  EditableItem,
  Footprint,
  GlyphShape,
  LayerName,
  NetClass,
  NewItem,
  Pad,
  PadLayerShape,
  PolyNode,
  Polygon,
  ShapeGeometry,
  StackupLayer,
  TextShapes,
  Track,
  Vec2,
  Via,
  ViaType,
  OtherItem,
  Zone,
} from './types.ts';
import { apiFeatures, type ApiGeneration } from './version.ts';

const BOARD_LAYER = 'kiapi.board.types.BoardLayer';
const T = 'kiapi.board.types.';

/** KiCad's API layer number → file name ("BL_In1_Cu" → "In1.Cu"); null for the no-layer values. */
export function layerName(value: number): LayerName | null {
  const member = enumName(BOARD_LAYER, value);
  if (!member || value <= 2) return null;
  return member.slice(3).replace('_', '.');
}

/** File layer name → KiCad's API layer number. The API numbers differ from the file's, so map by name. */
export function layerValue(name: LayerName): number {
  const value = enumValueOrUndefined(BOARD_LAYER, `BL_${name.replace('.', '_')}`);
  // The round trip refuses spellings that only look right after the substitution, such as "F_Cu".
  if (value === undefined || layerName(value) !== name) throw new TypeError(`unknown layer name ${JSON.stringify(name)}`);
  return value;
}

function requiredLayer(value: number | undefined, what: string): LayerName {
  const name = layerName(value ?? 0);
  if (name === null) throw new KicadProtocolError(`${what} has no layer (${value ?? 0})`);
  return name;
}

export function vec(w: Wire | null | undefined): Vec2 {
  return { x: int64(w?.x_nm), y: int64(w?.y_nm) };
}

function vecWire(v: Vec2): Wire {
  return { x_nm: checkedNm(v.x), y_nm: checkedNm(v.y) };
}

function checkedNm(n: number): number {
  if (!Number.isSafeInteger(n)) throw new TypeError(`a length must be an integer number of nm, got ${n}`);
  return n;
}

function distance(w: Wire | null | undefined): number {
  return int64(w?.value_nm);
}

function optionalDistance(w: Wire | null | undefined): number | null {
  return w ? int64(w.value_nm) : null;
}

function lower(enumFull: string, value: number | undefined, prefix: string): string {
  const member = enumName(enumFull, value ?? 0);
  return member ? member.slice(prefix.length).toLowerCase() : 'unknown';
}

function netName(w: Wire | null | undefined): string {
  return w?.name ?? '';
}

function isLocked(value: number | undefined): boolean {
  return value === enumValue('kiapi.common.types.LockedState', 'LS_LOCKED');
}

function polyNodes(line: Wire | null | undefined): PolyNode[] {
  return (line?.nodes ?? []).map((n: Wire): PolyNode =>
    n.arc ? { arc: { start: vec(n.arc.start), mid: vec(n.arc.mid), end: vec(n.arc.end) } } : { point: vec(n.point) },
  );
}

export function polygons(set: Wire | null | undefined): Polygon[] {
  return (set?.polygons ?? []).map((p: Wire) => ({
    outline: polyNodes(p.outline),
    holes: (p.holes ?? []).map(polyNodes),
  }));
}

function track(w: Wire): Track {
  return {
    kind: 'track',
    id: w.id?.value ?? '',
    locked: isLocked(w.locked),
    start: vec(w.start),
    end: vec(w.end),
    width: distance(w.width),
    layer: requiredLayer(w.layer, 'track'),
    net: netName(w.net),
  };
}

function arc(w: Wire): Arc {
  return {
    kind: 'arc',
    id: w.id?.value ?? '',
    locked: isLocked(w.locked),
    start: vec(w.start),
    mid: vec(w.mid),
    end: vec(w.end),
    width: distance(w.width),
    layer: requiredLayer(w.layer, 'arc'),
    net: netName(w.net),
  };
}

const OUTER = new Set<LayerName>(['F.Cu', 'B.Cu']);

/** Blind or buried by the drill's ends: blind reaches an outer copper layer, buried does not. */
function blindOrBuried(start: LayerName, end: LayerName): 'blind' | 'buried' {
  return OUTER.has(start) || OUTER.has(end) ? 'blind' : 'buried';
}

function via(w: Wire): Via {
  const stack = w.pad_stack ?? {};
  const startLayer = layerName(stack.drill?.start_layer ?? 0) ?? 'F.Cu';
  const endLayer = layerName(stack.drill?.end_layer ?? 0) ?? 'B.Cu';
  const wire = lower(`${T}ViaType`, w.type, 'VT_');
  // KiCad 9's one blind_buried type is split by the layers the via drills.
  const type: ViaType =
    wire === 'through' || wire === 'micro' || wire === 'blind' || wire === 'buried'
      ? wire
      : wire === 'blind_buried'
        ? blindOrBuried(startLayer, endLayer)
        : 'through';
  return {
    kind: 'via',
    id: w.id?.value ?? '',
    locked: isLocked(w.locked),
    position: vec(w.position),
    type,
    diameter: int64(stack.copper_layers?.[0]?.size?.x_nm),
    drill: int64(stack.drill?.diameter?.x_nm),
    startLayer,
    endLayer,
    net: netName(w.net),
  };
}

function pad(w: Wire, footprint: string): Pad {
  const stack = w.pad_stack ?? {};
  const shapes: PadLayerShape[] = (stack.copper_layers ?? []).map((l: Wire) => ({
    layer: requiredLayer(l.layer, 'pad shape'),
    shape: lower(`${T}PadStackShape`, l.shape, 'PSS_') as PadLayerShape['shape'],
    size: vec(l.size),
    offset: vec(l.offset),
    cornerRoundingRatio: l.corner_rounding_ratio ?? 0,
    chamferRatio: l.chamfer_ratio ?? 0,
  }));
  const drillShape = lower(`${T}DrillShape`, stack.drill?.shape, 'DS_');
  return {
    kind: 'pad',
    id: w.id?.value ?? '',
    locked: isLocked(w.locked),
    number: w.number ?? '',
    net: netName(w.net),
    type: lower(`${T}PadType`, w.type, 'PT_') as Pad['type'],
    position: vec(w.position),
    angle: stack.angle?.value_degrees ?? 0,
    padstack: lower(`${T}PadStackType`, stack.type, 'PST_') as Pad['padstack'],
    layers: (stack.layers ?? []).map((l: number) => layerName(l)).filter((l: LayerName | null) => l !== null),
    shapes,
    drill: vec(stack.drill?.diameter),
    drillShape: drillShape === 'circle' || drillShape === 'oblong' ? drillShape : 'none',
    clearanceOverride: optionalDistance(w.copper_clearance_override),
    footprint,
  };
}

function fieldText(field: Wire | null | undefined): string {
  return field?.text?.text?.text ?? '';
}

function footprint(w: Wire): Footprint {
  const reference = fieldText(w.reference_field);
  const pads: Pad[] = [];
  for (const any of w.definition?.items ?? []) {
    if (anyTypeName(any) === `${T}Pad`) pads.push(pad(unpackAny(any), reference));
  }
  const lib = w.definition?.id;
  return {
    kind: 'footprint',
    id: w.id?.value ?? '',
    locked: isLocked(w.locked),
    reference,
    value: fieldText(w.value_field),
    libraryId: lib ? `${lib.library_nickname ?? ''}:${lib.entry_name ?? ''}` : '',
    position: vec(w.position),
    orientation: w.orientation?.value_degrees ?? 0,
    layer: requiredLayer(w.layer, 'footprint'),
    pads,
  };
}

function zone(w: Wire): Zone {
  const copper = w.copper_settings;
  const rule = w.rule_area_settings;
  return {
    kind: 'zone',
    id: w.id?.value ?? '',
    locked: isLocked(w.locked),
    type: lower(`${T}ZoneType`, w.type, 'ZT_') as Zone['type'],
    name: w.name ?? '',
    layers: (w.layers ?? []).map((l: number) => requiredLayer(l, 'zone')),
    outline: polygons(w.outline),
    net: netName(copper?.net),
    priority: w.priority ?? 0,
    filled: !!w.filled,
    clearance: optionalDistance(copper?.clearance),
    minThickness: optionalDistance(copper?.min_thickness),
    keepout: rule
      ? {
          copper: !!rule.keepout_copper,
          vias: !!rule.keepout_vias,
          tracks: !!rule.keepout_tracks,
          pads: !!rule.keepout_pads,
          footprints: !!rule.keepout_footprints,
        }
      : null,
    filledPolygons: (w.filled_polygons ?? []).map((f: Wire) => ({
      layer: requiredLayer(f.layer, 'zone fill'),
      polygons: polygons(f.shapes),
    })),
  };
}

/**
 * Whether a shape is filled: any fill KiCad names, KiCad 11's coloured and hatched ones and a value newer
 * than this client included (a copper shape then counts whole, never less copper than there is).
 */
function isFilled(fill: number | undefined): boolean {
  return (fill ?? 0) !== 0 && fill !== enumValue('kiapi.common.types.GraphicFillType', 'GFT_UNFILLED');
}

/** A GraphicShape's geometry; null for one the client does not model (KiCad 11's ellipses). */
function geometry(s: Wire): ShapeGeometry | null {
  if (s.segment) return { type: 'segment', start: vec(s.segment.start), end: vec(s.segment.end) };
  if (s.rectangle) return { type: 'rectangle', topLeft: vec(s.rectangle.top_left), bottomRight: vec(s.rectangle.bottom_right) };
  if (s.arc) return { type: 'arc', start: vec(s.arc.start), mid: vec(s.arc.mid), end: vec(s.arc.end) };
  if (s.circle) return { type: 'circle', center: vec(s.circle.center), radiusPoint: vec(s.circle.radius_point) };
  if (s.polygon) return { type: 'polygon', polygons: polygons(s.polygon) };
  if (s.bezier) {
    const b = s.bezier;
    return { type: 'bezier', start: vec(b.start), control1: vec(b.control1), control2: vec(b.control2), end: vec(b.end) };
  }
  if (s.ellipse || s.ellipse_arc) return null;
  throw new KicadProtocolError('board shape without geometry');
}

/** A shape of GetTextAsShapes' compound (a GraphicShape), as a glyph. */
export function glyphShape(s: Wire): GlyphShape {
  const attrs = s.attributes;
  const g = geometry(s);
  // Glyphs are strokes and outlines; an ellipse among them would be copper the client cannot place.
  if (!g) throw new KicadProtocolError('a text glyph is an ellipse, which this client does not model');
  return {
    geometry: g,
    width: distance(attrs?.stroke?.width),
    filled: isFilled(attrs?.fill?.fill_type),
  };
}

/** A board graphic; one whose geometry the client does not model (an ellipse, from 11 on) is an 'other' item. */
function boardShape(w: Wire): BoardShape | OtherItem {
  const attrs = w.shape?.attributes;
  const g = geometry(w.shape ?? {});
  if (!g) return { kind: 'other', type: `${T}BoardGraphicShape` };
  return {
    kind: 'shape',
    id: w.id?.value ?? '',
    locked: isLocked(w.locked),
    layer: requiredLayer(w.layer, 'shape'),
    net: netName(w.net),
    strokeWidth: distance(attrs?.stroke?.width),
    filled: isFilled(attrs?.fill?.fill_type),
    geometry: g,
  };
}

/** A text to render: its Text message as KiCad gave it (the angle KiCad draws it at) and what it is. */
export interface TextToRender {
  text: Wire;
  meta: Omit<TextShapes, 'shapes'>;
}

// KiCad draws a footprint's text kept upright at an angle in (-90°, 90°] (its draw rotation), while
// the Text message carries the text's own angle, which GetTextAsShapes would use as it stands.
function uprightAngle(text: Wire): Wire {
  const attrs = text.attributes;
  if (!attrs?.keep_upright) return text;
  let a: number = attrs.angle?.value_degrees ?? 0;
  while (a > 90) a -= 180;
  while (a <= -90) a += 180;
  return { ...text, attributes: { ...attrs, angle: { value_degrees: a } } };
}

function boardTextToRender(w: Wire, kind: 'text' | 'field', footprint: string, layers: ReadonlySet<LayerName>): TextToRender | null {
  const layer = layerName(w.layer ?? 0);
  const text = w.text;
  if (!layer || !layers.has(layer) || !text || text.attributes?.visible === false) return null;
  return {
    text: footprint ? uprightAngle(text) : text,
    meta: { id: w.id?.value ?? '', kind, footprint, text: text.text ?? '', layer, knockout: !!w.knockout },
  };
}

/**
 * The visible texts and fields on `layers` among GetItems' Anys (board texts, and footprints with their
 * texts and fields), in KiCad's order. Text boxes are left out (see TextShapes).
 */
export function textsToRender(anys: Wire[], layers: ReadonlySet<LayerName>): TextToRender[] {
  const out: TextToRender[] = [];
  const take = (t: TextToRender | null) => t && out.push(t);
  for (const any of anys) {
    const type = anyTypeName(any);
    if (type === `${T}BoardText`) take(boardTextToRender(unpackAny(any), 'text', '', layers));
    if (type !== `${T}FootprintInstance`) continue;
    const fp = unpackAny(any);
    const id: string = fp.id?.value ?? '';
    for (const f of [fp.reference_field, fp.value_field, fp.datasheet_field, fp.description_field]) {
      if (f?.text && f.visible !== false) take(boardTextToRender(f.text, 'field', id, layers));
    }
    for (const inner of fp.definition?.items ?? []) {
      const t = anyTypeName(inner);
      if (t === `${T}BoardText`) take(boardTextToRender(unpackAny(inner), 'text', id, layers));
      else if (t === `${T}Field`) {
        const f = unpackAny(inner);
        if (f.text && f.visible !== false) take(boardTextToRender(f.text, 'field', id, layers));
      }
    }
  }
  return out;
}

/** A plain item from an Any of GetItems, GetSelection or CreateItems. */
export function itemFromAny(any: Wire): BoardItem {
  const type = anyTypeName(any);
  switch (type) {
    case `${T}Track`:
      return track(unpackAny(any));
    case `${T}Arc`:
      return arc(unpackAny(any));
    case `${T}Via`:
      return via(unpackAny(any));
    case `${T}Pad`:
      return pad(unpackAny(any), '');
    case `${T}FootprintInstance`:
      return footprint(unpackAny(any));
    case `${T}Zone`:
      return zone(unpackAny(any));
    case `${T}BoardGraphicShape`:
      return boardShape(unpackAny(any));
    default:
      return { kind: 'other', type };
  }
}

function lockedWire(locked: boolean | undefined): string {
  return locked ? 'LS_LOCKED' : 'LS_UNLOCKED';
}

/**
 * The ViaType a KiCad of this API generation takes for a via: 10 and later have blind and buried apart,
 * 9 one value for both. A type that does not fit the via's layers is a caller's mistake, refused here.
 */
function viaTypeWire(type: ViaType, start: LayerName, end: LayerName, generation: ApiGeneration): string {
  if (type === 'blind' || type === 'buried') {
    if (blindOrBuried(start, end) !== type) {
      throw new TypeError(`a ${type} via cannot span ${start}–${end} (blind reaches F.Cu or B.Cu, buried only inner layers)`);
    }
    return apiFeatures(generation).blindAndBuriedApart ? `VT_${type.toUpperCase()}` : 'VT_BLIND_BURIED';
  }
  return `VT_${type.toUpperCase()}`;
}

/**
 * A new or edited copper item as an Any for CreateItems/UpdateItems; `id` is '' for a new item.
 * `generation` is the API generation of the KiCad it goes to (version.ts; it decides the wire type of a
 * blind or buried via).
 */
export function copperToAny(item: NewItem | EditableItem, generation: ApiGeneration): Wire {
  const id = 'id' in item && item.id ? { value: item.id } : undefined;
  const net = { name: item.net };
  switch (item.kind) {
    case 'track':
      return packAny(`${T}Track`, {
        id,
        start: vecWire(item.start),
        end: vecWire(item.end),
        width: { value_nm: checkedNm(item.width) },
        locked: lockedWire(item.locked),
        layer: layerValue(item.layer),
        net,
      });
    case 'arc':
      return packAny(`${T}Arc`, {
        id,
        start: vecWire(item.start),
        mid: vecWire(item.mid),
        end: vecWire(item.end),
        width: { value_nm: checkedNm(item.width) },
        locked: lockedWire(item.locked),
        layer: layerValue(item.layer),
        net,
      });
    case 'via': {
      const start = layerValue(item.startLayer ?? 'F.Cu');
      const end = layerValue(item.endLayer ?? 'B.Cu');
      const d = checkedNm(item.diameter);
      const drill = checkedNm(item.drill);
      return packAny(`${T}Via`, {
        id,
        position: vecWire(item.position),
        locked: lockedWire(item.locked),
        net,
        type: viaTypeWire(item.type ?? 'through', item.startLayer ?? 'F.Cu', item.endLayer ?? 'B.Cu', generation),
        pad_stack: {
          type: 'PST_NORMAL',
          layers: [start, end],
          drill: { start_layer: start, end_layer: end, diameter: { x_nm: drill, y_nm: drill }, shape: 'DS_CIRCLE' },
          // A normal padstack's single entry on F.Cu stands for every copper layer.
          copper_layers: [{ layer: layerValue('F.Cu'), shape: 'PSS_CIRCLE', size: { x_nm: d, y_nm: d } }],
        },
      });
    }
  }
}

export function netClass(w: Wire): NetClass {
  const board = w.board ?? {};
  const viaStack = board.via_stack;
  const microStack = board.microvia_stack;
  const type = lower('kiapi.common.project.NetClassType', w.type, 'NCT_');
  return {
    name: w.name ?? '',
    priority: w.priority ?? null,
    clearance: optionalDistance(board.clearance),
    trackWidth: optionalDistance(board.track_width),
    diffPairTrackWidth: optionalDistance(board.diff_pair_track_width),
    diffPairGap: optionalDistance(board.diff_pair_gap),
    viaDiameter: viaStack?.copper_layers?.[0]?.size ? int64(viaStack.copper_layers[0].size.x_nm) : null,
    viaDrill: viaStack?.drill?.diameter ? int64(viaStack.drill.diameter.x_nm) : null,
    microviaDiameter: microStack?.copper_layers?.[0]?.size ? int64(microStack.copper_layers[0].size.x_nm) : null,
    microviaDrill: microStack?.drill?.diameter ? int64(microStack.drill.diameter.x_nm) : null,
    type: type === 'explicit' || type === 'implicit' ? type : 'unknown',
    constituents: w.constituents ?? [],
  };
}

export function stackupLayer(w: Wire): StackupLayer {
  return {
    layer: layerName(w.layer ?? 0),
    type: lower('kiapi.board.BoardStackupLayerType', w.type, 'BSLT_') as StackupLayer['type'],
    enabled: !!w.enabled,
    thickness: distance(w.thickness),
    materialName: w.material_name ?? '',
    userName: w.user_name ?? '',
    dielectric: (w.dielectric?.layer ?? []).map((d: Wire) => ({
      epsilonR: d.epsilon_r ?? 0,
      lossTangent: d.loss_tangent ?? 0,
      materialName: d.material_name ?? '',
      thickness: distance(d.thickness),
    })),
  };
}

const CUSTOM_RULES: Record<string, BoardDesignRules['customRules']> = { CRS_NONE: 'none', CRS_VALID: 'valid', CRS_INVALID: 'invalid' };

/** KiCad 11's BoardDesignRulesResponse as plain rules (nm). */
export function boardDesignRules(w: Wire): BoardDesignRules {
  const m = w.rules?.constraints ?? {};
  const sizes = w.rules?.predefined_sizes ?? {};
  const status = enumName('kiapi.board.commands.CustomRulesStatus', w.custom_rules_status ?? 0) ?? 'CRS_UNKNOWN';
  return {
    minimums: {
      clearance: distance(m.min_clearance),
      grooveWidth: distance(m.min_groove_width),
      connectionWidth: distance(m.min_connection_width),
      trackWidth: distance(m.min_track_width),
      viaAnnularWidth: distance(m.min_via_annular_width),
      viaDiameter: distance(m.min_via_size),
      throughDrill: distance(m.min_through_drill),
      microviaDiameter: distance(m.min_microvia_size),
      microviaDrill: distance(m.min_microvia_drill),
      copperEdgeClearance: distance(m.copper_edge_clearance),
      holeClearance: distance(m.hole_clearance),
      holeToHole: distance(m.hole_to_hole_min),
      silkClearance: distance(m.silk_clearance),
      resolvedSpokes: m.min_resolved_spokes ?? 0,
      silkTextHeight: distance(m.min_silk_text_height),
      silkTextThickness: distance(m.min_silk_text_thickness),
    },
    trackWidths: (sizes.tracks ?? []).map((t: Wire) => distance(t.width)),
    vias: (sizes.vias ?? []).map((v: Wire) => ({ diameter: distance(v.diameter), drill: distance(v.drill) })),
    diffPairs: (sizes.diff_pairs ?? []).map((d: Wire) => ({ width: distance(d.width), gap: distance(d.gap), viaGap: distance(d.via_gap) })),
    customRules: CUSTOM_RULES[status] ?? 'unknown',
  };
}
