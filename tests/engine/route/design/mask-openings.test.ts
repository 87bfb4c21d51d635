// The router keeps copper out of solder mask openings that show another net's copper (KiCad's
// solder_mask_bridge): a straight join under a mask graphic over a pad of another net detours.
import { describe, expect, it } from 'vitest';
import { runDrc } from '../../../../engine/drc/drc.ts';
import { compareDistance, segment } from '../../../../engine/geom/index.ts';
import { circle as disc } from '../../../../engine/geom/shapes.ts';
import { routeDesign } from '../../../../engine/route/plan/variants.ts';
import { circle, fp, maskDesign, pad } from '../../drc/mask-board.ts';
import type { Design } from '../../../../engine/board/design.ts';

// Pads of net B at (4, 10) and (16, 10) mm; a mask circle r 2.5 mm at (10, 12) over a pad of net A.
const body =
  circle(10, 12, 2.5) +
  fp('U1', 10, 13.5, [pad('1', 0, 0, 0.6, 0.6, 1)]) +
  fp('J1', 4, 10, [pad('1', 0, 0, 1, 1, 2)]) +
  fp('J2', 16, 10, [pad('1', 0, 0, 1, 1, 2)]);

function withCopper(design: Design, r: ReturnType<typeof routeDesign>): Design {
  const b = design.board;
  const tracks = r.tracks.map((t, k) => ({
    kind: 'segment' as const,
    start: t.start,
    end: t.end,
    width: t.width,
    layer: t.layer,
    net: t.net,
    locked: true,
    uuid: '',
    src: -1,
    index: b.tracks.length + k,
  }));
  const vias = r.vias.map((v, k) => ({
    at: v.at,
    size: v.size,
    drill: v.drill,
    layerFrom: v.layerFrom,
    layerTo: v.layerTo,
    type: v.type ?? ('through' as const),
    net: v.net,
    locked: true,
    removeUnusedLayers: false,
    keepEndLayers: false,
    uuid: '',
    src: -1,
    index: b.vias.length + k,
  }));
  return { ...design, board: { ...b, tracks: [...b.tracks, ...tracks], vias: [...b.vias, ...vias] } };
}

describe('router and solder mask openings', () => {
  it('routes around a foreign opening, leaving no bridge', () => {
    const design = maskDesign({ body });
    const r = routeDesign(design, { nets: [2] });
    expect(r.open).toEqual([]);
    const opening = disc(10_000_000, 12_000_000, 2_500_000);
    const front = r.tracks.filter((t) => t.layer === 0);
    for (const t of front) expect(compareDistance(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), opening, 0)).toBeGreaterThan(0);
    expect(runDrc(withCopper(design, r)).errors.solder_mask_bridge).toBeUndefined();
  });

  it('goes straight through an opening that shows only its own net', () => {
    const own = body.replace('(net 1 "A")', '(net 2 "B")');
    const design = maskDesign({ body: own });
    const r = routeDesign(design, { nets: [2] });
    expect(r.open).toEqual([]);
    expect(runDrc(withCopper(design, r)).errors.solder_mask_bridge).toBeUndefined();
  });

  it('takes the straight line under a foreign opening where the project ignores mask bridges', () => {
    const design = maskDesign({ body }, 'ignore');
    const r = routeDesign(design, { nets: [2] });
    expect(r.open).toEqual([]);
    const opening = disc(10_000_000, 12_000_000, 2_500_000);
    expect(r.tracks.some((t) => t.layer === 0 && compareDistance(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), opening, 0) <= 0)).toBe(true);
    expect(runDrc(withCopper(design, r)).errors.solder_mask_bridge).toBeUndefined();
  });
});
