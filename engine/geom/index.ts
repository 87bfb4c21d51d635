// Public API of engine/geom, integer-nanometre geometry for the DRC and the router.
// Modules: units (mm↔nm, KiROUND, RotatePoint, range guard) · predicates (exact orientation,
// segment intersection, distance-vs-threshold signs) · box (bounding boxes) · shapes (circle,
// segment, arc, rect, polygon, compound; bbox, inflate) · collide (exact collides/overlaps/
// compareDistance) · distance (distance and nearest points, doubles) · arc (arc circle data,
// polyline approximation) · polygon (point-in-polygon, area, orientation, hull, polygon
// distances) · pad-shape (KiCad pad → Shape) · spatial-index (Flatbush + overlay).
// Internal: nearest (point/segment nearest pairs), edge-index (edge trees of large polygons).

export {
  MAX_COORD_NM,
  CoordinateRangeError,
  kiRound,
  mmToNm,
  lengthToNm,
  nmToMm,
  mmText,
  assertCoord,
  isCoord,
  degToRad,
  radToDeg,
  normalizeDegrees,
  rotatePoint,
  type XY,
} from './units.ts';
export {
  orient2d,
  dotSign,
  segmentsIntersect,
  segmentsCrossProperly,
  comparePointPoint,
  comparePointSegment,
  compareSegmentSegment,
  compareSquaredLengths,
  pointPointWithin,
  pointSegmentWithin,
  segmentSegmentWithin,
  type Sign,
} from './predicates.ts';
export { type Box, boxOf, boxOfPoints, inflateBox, unionBox, boxesOverlap, boxContains, boxGap } from './box.ts';
export {
  type Circle,
  type Segment,
  type Arc,
  type Rect,
  type Polygon,
  type Primitive,
  type Compound,
  type Shape,
  circle,
  segment,
  arc,
  rect,
  polygon,
  compound,
  bbox,
  inflate,
  radiusOf,
} from './shapes.ts';
export { collides, overlaps, compareDistance } from './collide.ts';
export { distance, nearest, type Nearest } from './distance.ts';
export { arcGeometry, arcToPolyline, type ArcGeometry } from './arc.ts';
export {
  type Rings,
  pointInRing,
  pointInPolygon,
  ringArea2,
  polygonArea,
  ringOrientation,
  convexHull,
  comparePolygonPoint,
  comparePolygonSegment,
  comparePolygonPolygon,
  polygonSegmentDistance,
  polygonPolygonDistance,
} from './polygon.ts';
export { padShape, type PadDescription, type PadPrimitive, type PadShapeKind, type PadShapeOptions, type ChamferCorners } from './pad-shape.ts';
export { SpatialIndex } from './spatial-index.ts';
