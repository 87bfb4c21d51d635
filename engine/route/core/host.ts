// The narrow seam between the router and a board: the fixed copper as exact shapes, the pads
// the router connects, the outline, and the rules it must keep. The router reads a board only
// through RouterHost, so tests can hand it small synthetic worlds (see design/host-from-design.ts
// for the adapter over the board model). All lengths in integer nm; layers by stack index. The
// core of the router imports only geom and this file; the two board types it names come through here.

import type { Shape } from '../../geom/index.ts';
import type { PadType, Pt, ViaType } from '../../board/model.ts';

export type { PadType, Pt, ViaType };

/** An item as a custom rule's condition asks of it (`A.Type`, `A.Pad_Type`, `A.isPlated()`):
 *  a fab's clearance for pads or vias need not hold between two tracks. */
export interface HostItemKind {
  kind: 'track' | 'via' | 'pad' | 'zone';
  padType?: PadType;
}

export const TRACK_ITEM: HostItemKind = { kind: 'track' };
export const VIA_ITEM: HostItemKind = { kind: 'via' };

/** A pad the router may connect to (and must keep clear of when it is another net's). */
export interface HostPad {
  index: number;
  ref: string;
  number: string;
  net: number;
  at: Pt;
  /** Orientation, degrees (KiCad's sense), for pad entry along the pad's axes. */
  rotation: number;
  /** Copper layers (bit i = layer i). */
  layers: number;
  /** Copper outline, the same on every layer of the pad. */
  shape: Shape;
  /** Extra clearance the pad asks for (pad or footprint override), nm; 0 when none. */
  clearance: number;
  /** Where the pad joins its net's zone by thermal spokes: the layers of those fills, and the
   *  clearance other nets keep from the pad there so the refill has room for the spokes (nm). */
  spokes?: { layers: number; clearance: number };
  /** Smallest copper dimension, nm (to judge fine pitch and tiny pads). */
  minSize: number;
  /** Through-hole pads (plated or not) span every layer. */
  throughHole: boolean;
  /** Its attribute, for rules conditioned on it; unknown (rules raised as for any pad) when absent. */
  padType?: PadType;
}

/** A pad as a rule's condition asks of it. */
export function padItem(pad: HostPad): HostItemKind {
  return pad.padType ? { kind: 'pad', padType: pad.padType } : { kind: 'pad' };
}

/** Fixed copper as a rule's condition asks of it; undefined (any kind) for the rest: a copper
 *  graphic may be KiCad's "Text" or "Graphic", and the host does not tell them apart. */
export function obstacleItem(o: HostObstacle): HostItemKind | undefined {
  return o.kind === 'track' || o.kind === 'via' || o.kind === 'zone' ? { kind: o.kind } : undefined;
}

/** The clearance (nm) a pad asks of other nets' copper on `layer`: its own, or on the layers its
 *  thermal spokes join a zone, the room they need if more. */
export function padClearance(pad: HostPad, layer: number): number {
  const s = pad.spokes;
  return s && (s.layers >>> layer) & 1 ? Math.max(pad.clearance, s.clearance) : pad.clearance;
}

/** The most clearance (nm) a pad asks on any layer. */
export function widestPadClearance(pad: HostPad): number {
  return Math.max(pad.clearance, pad.spokes?.clearance ?? 0);
}

/** 'mask': a solder mask opening; copper of nets other than `net` (of every net when -1) keeps
 *  exactly `clearance` from it, not the copper clearance (KiCad's solder_mask_bridge). */
export type ObstacleKind = 'track' | 'via' | 'zone' | 'graphic' | 'keepout' | 'hole' | 'mask';

/** Fixed copper, keep-outs and holes that are not pads. */
export interface HostObstacle {
  kind: ObstacleKind;
  shape: Shape;
  layers: number;
  /** Net code; 0 for unconnected copper, keep-outs and non-plated holes. */
  net: number;
  /** For keep-outs: what they keep out. */
  keepTracks?: boolean;
  keepVias?: boolean;
  /** Zone clearance or graphic clearance override, nm (0 when none). */
  clearance: number;
  /** For zone fills that join their net's pads by thermal reliefs: the relief's gap (nm), and
   *  whether only through-hole pads get reliefs (SMD pads joining solid). */
  thermal?: { gap: number; thtOnly: boolean };
  /** For zone fills that join no pads (pad connection "none"). */
  noPads?: boolean;
  /** For zone fills: the zone's minimum width, nm; KiCad's refill drops fill thinner than it. */
  minWidth?: number;
}

/** A drilled hole (pad or via), for hole clearance and hole-to-hole. */
export interface HostHole {
  shape: Shape;
  net: number;
  plated: boolean;
}

export interface HostRules {
  /** The clearance (nm) between copper of two nets on a layer: between items of kinds `a` and `b`
   *  where given, else the most any two of their items may need. */
  clearance(netA: number, netB: number, layer: number, a?: HostItemKind, b?: HostItemKind): number;
  trackWidth(net: number, layer: number): number;
  /** Narrowest track the rules allow a net on a layer (for a neck into a crowded pad). */
  minTrackWidth(net: number, layer: number): number;
  via(net: number): { diameter: number; drill: number };
  /** The smallest through via the rules allow a net (the least drill with the least annular
   *  ring round it, never under the least diameter), for neck-down, fan-out and proofs that no
   *  route exists; the class's via when absent. */
  minVia?(net: number): { diameter: number; drill: number };
  /** Whether the project allows blind and buried vias (a via drilled through some layers only). */
  blindBuried?: boolean;
  /** The micro-via of a net's class where the project allows micro-vias; undefined otherwise. */
  microVia?(net: number): { diameter: number; drill: number } | undefined;
  edgeClearance(net: number, layer: number): number;
  holeClearance(netA: number, netB: number): number;
  holeToHole: number;
  /** The least number of spokes a thermal relief must keep to its zone (`min_resolved_spokes`). */
  minSpokes: number;
  /** Name of the net class of a net: nets of one class share obstacle maps. */
  className(net: number): string;
  /** Custom rules with constraints the router does not model that may govern a net (KiCad
   *  constraint keywords): the router leaves such a net unrouted. None when absent. */
  unmodelled?(net: number): readonly { rule: string; file: string; constraints: readonly string[]; unreadCondition: boolean }[];
}

export interface RouterHost {
  layerCount: number;
  layerName(layer: number): string;
  /** Net names by code (index 0 = no net). */
  netNames: string[];
  pads: HostPad[];
  obstacles: HostObstacle[];
  holes: HostHole[];
  /** Board edges the rules keep copper from: Edge.Cuts primitives as zero-width shapes
   *  (segments, arcs, circles) and non-plated slots (milled, so edge as well as hole). */
  outline: Shape[];
  /** Outline edges with arcs flattened, flat x1,y1,x2,y2 quadruples (nm): the even-odd
   *  inside test needs only the closed loops' edges, not their order. */
  outlineEdges: Float64Array;
  rules: HostRules;
}
