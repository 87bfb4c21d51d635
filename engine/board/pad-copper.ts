// A pad's copper as an exact shape: the board model's pad described for engine/geom/pad-shape.ts,
// which follows KiCad's own construction. The one place pads become geometry, for the DRC, the
// router and the pictures alike.

import type { Pad, Pt } from './model.ts';
import { padShape as geomPadShape, type PadDescription, type PadPrimitive } from '../geom/pad-shape.ts';
import type { Shape } from '../geom/shapes.ts';
import { rotatePoint } from '../geom/units.ts';

/** The centre of a pad's copper: its anchor plus the rotated copper offset, nm. */
export function padCopperCentre(pad: Pad): Pt {
  if (pad.offset.x === 0 && pad.offset.y === 0) return pad.at;
  const [x, y] = rotatePoint(pad.offset.x, pad.offset.y, pad.rotation);
  return { x: pad.at.x + x, y: pad.at.y + y };
}

/** The pad as engine/geom/pad-shape describes it (board nm; primitives pad-local). */
export function padDescription(pad: Pad): PadDescription {
  const primitives: PadPrimitive[] = [];
  for (const p of pad.primitives ?? []) {
    switch (p.kind) {
      case 'line':
        primitives.push({ kind: 'line', sx: p.a.x, sy: p.a.y, ex: p.b.x, ey: p.b.y, width: p.width });
        break;
      case 'arc':
        primitives.push({ kind: 'arc', sx: p.start.x, sy: p.start.y, mx: p.mid.x, my: p.mid.y, ex: p.end.x, ey: p.end.y, width: p.width });
        break;
      case 'circle':
        primitives.push({ kind: 'circle', cx: p.center.x, cy: p.center.y, radius: p.radius, width: p.width, filled: p.filled });
        break;
      case 'rect':
        primitives.push({ kind: 'rect', sx: p.a.x, sy: p.a.y, ex: p.b.x, ey: p.b.y, width: p.width, filled: p.filled });
        break;
      case 'poly':
        if (p.pts.length >= 3 || (!p.filled && p.pts.length >= 2))
          primitives.push({ kind: 'poly', points: p.pts.flatMap((q) => [q.x, q.y]), width: p.width, filled: p.filled });
        break;
      case 'curve':
        // A Bézier primitive becomes its control polyline (KiCad flattens it finer).
        for (let k = 0; k + 1 < p.pts.length; k++)
          primitives.push({ kind: 'line', sx: p.pts[k].x, sy: p.pts[k].y, ex: p.pts[k + 1].x, ey: p.pts[k + 1].y, width: p.width });
        break;
    }
  }
  const c = pad.chamferCorners;
  return {
    shape: pad.shape,
    x: pad.at.x,
    y: pad.at.y,
    sizeX: pad.size.w,
    sizeY: pad.size.h,
    rotation: pad.rotation,
    offsetX: pad.offset.x,
    offsetY: pad.offset.y,
    roundrectRatio: pad.roundrectRatio,
    chamferRatio: pad.chamferRatio,
    chamfer: { topLeft: (c & 1) !== 0, topRight: (c & 2) !== 0, bottomLeft: (c & 4) !== 0, bottomRight: (c & 8) !== 0 },
    deltaX: pad.delta.x,
    deltaY: pad.delta.y,
    anchor: pad.anchor,
    primitives,
  };
}

/** A pad's copper on a layer where it is flashed (nm, board coordinates): KiCad's construction,
 *  from engine/geom/pad-shape.ts. */
export function padShape(pad: Pad): Shape {
  return geomPadShape(padDescription(pad));
}
