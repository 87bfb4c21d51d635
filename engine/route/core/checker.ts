// The exact gate every new segment and via passes before it is kept: clearance to other nets'
// copper (fixed and newly routed), hole clearance, hole-to-hole, board edge and keep-outs, by
// geom's exact collides. Fixed items sit in a static spatial index; routed copper goes into its
// overlay and can be taken out again when a net is ripped.

import { bbox, circle, collides, overlaps, segment, SpatialIndex, type Shape } from '../../geom/index.ts';
import { obstacleItem, padItem, TRACK_ITEM, VIA_ITEM, type HostItemKind, type RouterHost } from './host.ts';
import { spanMask, type ViaSpan } from './via-span.ts';

/** The length of a piece of a long track checked on its own, in reaches of a query: shorter
 *  pieces cost more queries than their smaller boxes save. */
const PIECE = 4;

type Kind = 'pad' | 'copper' | 'zone' | 'keepout' | 'hole' | 'edge' | 'mask';

interface Item {
  kind: Kind;
  shape: Shape;
  layers: number;
  net: number;
  clearance: number;
  plated: boolean;
  keepTracks: boolean;
  keepVias: boolean;
  /** What a rule's condition asks of it; undefined: any kind (the rules' most). */
  rule?: HostItemKind;
}

/** What a checked shape would hit: the first item closer than the rules allow. */
export interface CheckerHit {
  /** Net of the item hit (0 for edge, keep-out, unconnected copper). */
  net: number;
  kind: Kind;
}

export class Checker {
  readonly #items: Item[] = [];
  readonly #index: SpatialIndex;
  readonly #added = new Map<number, Item>();
  /** Ids of added items per net, for ripping. */
  readonly #byNet = new Map<number, number[]>();
  #nextId: number;
  readonly #all: number;

  /** `reach`: how far (nm) past the largest clearance the rules ask a check looks for items;
   *  a caller that knows its host holds no rule wider may look no further. */
  constructor(
    readonly host: RouterHost,
    readonly softZones: boolean,
    readonly reach = 2_000_000,
  ) {
    const push = (it: Item) => this.#items.push(it);
    this.#all = host.layerCount >= 32 ? 0xffffffff >>> 0 : ((1 << host.layerCount) - 1) >>> 0;
    for (const p of host.pads) {
      const rule = padItem(p);
      push({ kind: 'pad', shape: p.shape, layers: p.layers, net: p.net, clearance: p.clearance, plated: true, keepTracks: false, keepVias: false, rule });
      // On the layers its thermal spokes join a zone the pad asks more: the same pad again there.
      const s = p.spokes;
      if (s && s.layers & p.layers && s.clearance > p.clearance)
        push({
          kind: 'pad',
          shape: p.shape,
          layers: s.layers & p.layers,
          net: p.net,
          clearance: s.clearance,
          plated: true,
          keepTracks: false,
          keepVias: false,
          rule,
        });
    }
    for (const o of host.obstacles) {
      const kind: Kind = o.kind === 'keepout' ? 'keepout' : o.kind === 'zone' ? 'zone' : o.kind === 'mask' ? 'mask' : 'copper';
      const rule = obstacleItem(o);
      push({
        kind,
        shape: o.shape,
        layers: o.layers,
        net: o.net,
        clearance: o.clearance,
        plated: true,
        keepTracks: !!o.keepTracks,
        keepVias: !!o.keepVias,
        rule,
      });
    }
    for (const h of host.holes)
      push({ kind: 'hole', shape: h.shape, layers: this.#all, net: h.net, clearance: 0, plated: h.plated, keepTracks: false, keepVias: false });
    for (const e of host.outline) push({ kind: 'edge', shape: e, layers: this.#all, net: 0, clearance: 0, plated: false, keepTracks: false, keepVias: false });
    this.#index = new SpatialIndex(
      this.#items.map((it) => bbox(it.shape)),
      0,
    );
    this.#nextId = this.#items.length;
  }

  #get(id: number): Item {
    return id < this.#items.length ? this.#items[id] : this.#added.get(id)!;
  }

  #near(s: Shape, reach: number): number[] {
    const b = bbox(s);
    return this.#index.query({ minX: b.minX - reach, minY: b.minY - reach, maxX: b.maxX + reach, maxY: b.maxY + reach });
  }

  /** Largest clearance the rules may ask around this net, nm (for the query reach). */
  #reach(net: number): number {
    const r = this.host.rules;
    let m = r.holeToHole + r.holeClearance(net, 0);
    for (let l = 0; l < this.host.layerCount; l++) m = Math.max(m, r.clearance(net, 0, l) * 2, r.edgeClearance(net, l));
    return m + this.reach;
  }

  /** First violation of a copper shape of `net` on `layer`, or undefined when it is clean. */
  #copper(net: number, layer: number, s: Shape, isVia: boolean, reach: number): CheckerHit | undefined {
    const r = this.host.rules;
    const bit = 1 << layer;
    const mine = isVia ? VIA_ITEM : TRACK_ITEM;
    for (const id of this.#near(s, reach)) {
      const it = this.#get(id);
      if ((it.layers & bit) === 0) continue;
      switch (it.kind) {
        case 'edge':
          if (collides(s, it.shape, Math.max(r.edgeClearance(net, layer), 1))) return { net: 0, kind: 'edge' };
          break;
        case 'keepout':
          if ((isVia ? it.keepVias : it.keepTracks) && (overlaps(s, it.shape) || collides(s, it.shape, 1))) return { net: 0, kind: 'keepout' };
          break;
        case 'hole':
          if (it.plated && it.net === net && it.net > 0) break;
          // A zero hole clearance still keeps copper off the hole itself (KiCad reports it).
          if (collides(s, it.shape, Math.max(r.holeClearance(net, it.net), 1))) return { net: it.net, kind: 'hole' };
          break;
        case 'mask':
          // A solder mask opening: only its own net's copper may show in it.
          if (it.net === net && net > 0) break;
          if (overlaps(s, it.shape) || collides(s, it.shape, it.clearance)) return { net: Math.max(it.net, 0), kind: 'mask' };
          break;
        case 'zone':
          if (this.softZones || it.net === net) break;
          if (
            it.net === 0
              ? overlaps(s, it.shape) || collides(s, it.shape, r.clearance(net, 0, layer, mine, it.rule))
              : collides(s, it.shape, Math.max(r.clearance(net, it.net, layer, mine, it.rule), it.clearance))
          )
            return { net: it.net, kind: 'zone' };
          break;
        default:
          if (it.net === net && net > 0) break;
          if (overlaps(s, it.shape) || collides(s, it.shape, Math.max(r.clearance(net, it.net, layer, mine, it.rule), it.clearance)))
            return { net: it.net, kind: it.kind };
      }
    }
    return undefined;
  }

  /** Checks a track segment (nm) of `net` on `layer`. */
  track(net: number, layer: number, ax: number, ay: number, bx: number, by: number, width: number): CheckerHit | undefined {
    return this.#copper(net, layer, segment(ax, ay, bx, by, width), false, this.#reach(net));
  }

  /** Whether a track segment (nm) of `net` on `layer` is clean, looked at in pieces a few reaches
   *  of a query long: the box of a long line at a slant holds far more than the copper near it,
   *  a piece's box little else. Together the pieces' outlines are the segment's, their ends on
   *  the line to the nm. */
  trackClear(net: number, layer: number, ax: number, ay: number, bx: number, by: number, width: number): boolean {
    const reach = this.#reach(net);
    const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / (PIECE * reach)));
    let px = ax;
    let py = ay;
    for (let k = 1; k <= n; k++) {
      const qx = k === n ? bx : Math.round(ax + ((bx - ax) * k) / n);
      const qy = k === n ? by : Math.round(ay + ((by - ay) * k) / n);
      if (this.#copper(net, layer, segment(px, py, qx, qy, width), false, reach)) return false;
      px = qx;
      py = qy;
    }
    return true;
  }

  /** Checks a via (nm) of `net` at (x, y), as via-span.ts makes it. */
  via(net: number, x: number, y: number, v: ViaSpan): CheckerHit | undefined {
    const r = this.host.rules;
    const reach = this.#reach(net);
    const cu = circle(x, y, v.diameter / 2);
    for (let l = v.from; l <= v.to; l++) {
      const v = this.#copper(net, l, cu, true, reach);
      if (v) return v;
    }
    const hole = circle(x, y, v.drill / 2);
    for (const id of this.#near(hole, reach)) {
      const it = this.#get(id);
      if (it.kind === 'hole' && collides(hole, it.shape, Math.max(r.holeToHole, 1))) return { net: it.net, kind: 'hole' };
      if ((it.kind === 'pad' || it.kind === 'copper') && it.net !== net && collides(hole, it.shape, r.holeClearance(net, it.net)))
        return { net: it.net, kind: it.kind };
    }
    return undefined;
  }

  /** Adds routed copper of a net so later checks see it. */
  addTrack(net: number, layer: number, ax: number, ay: number, bx: number, by: number, width: number): void {
    this.#add(net, {
      kind: 'copper',
      shape: segment(ax, ay, bx, by, width),
      layers: 1 << layer,
      net,
      clearance: 0,
      plated: true,
      keepTracks: false,
      keepVias: false,
      rule: TRACK_ITEM,
    });
  }

  addVia(net: number, x: number, y: number, v: ViaSpan): void {
    this.#add(net, {
      kind: 'copper',
      shape: circle(x, y, v.diameter / 2),
      layers: spanMask(v.from, v.to),
      net,
      clearance: 0,
      plated: true,
      keepTracks: false,
      keepVias: false,
      rule: VIA_ITEM,
    });
    this.#add(net, { kind: 'hole', shape: circle(x, y, v.drill / 2), layers: this.#all, net, clearance: 0, plated: true, keepTracks: false, keepVias: false });
  }

  #add(net: number, it: Item): void {
    const id = this.#nextId++;
    this.#added.set(id, it);
    this.#index.add(id, bbox(it.shape));
    let l = this.#byNet.get(net);
    if (!l) this.#byNet.set(net, (l = []));
    l.push(id);
  }

  /** Takes a net's routed copper out again. */
  removeNet(net: number): void {
    for (const id of this.#byNet.get(net) ?? []) {
      this.#index.remove(id);
      this.#added.delete(id);
    }
    this.#byNet.delete(net);
  }
}
