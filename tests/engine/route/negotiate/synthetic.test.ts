// The router on small synthetic worlds, through the RouterHost seam only: a straight route, a
// detour round another net's pad, typed stuck reasons (boxed in, unreachable, budget).
import { describe, expect, it } from 'vitest';
import { collides, rect, segment } from '../../../../engine/geom/index.ts';
import type { HostPad, RouterHost } from '../../../../engine/route/index.ts';
import { DEFAULT_WORK, DEFAULT_WORK_CAP, WORK_PER_CONNECTION, defaultWork, routeHost } from '../../../../engine/route/index.ts';
import { chooseStep } from '../../../../engine/route/plan/grid-step.ts';
import { TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;

const pad = (index: number, net: number, x: number, y: number, ref?: string) => testPad(index, net, x, y, { ref });

function world(pads: HostPad[], extra: Partial<RouterHost> = {}): RouterHost {
  const W = 20 * MM;
  const H = 20 * MM;
  const edges = Float64Array.of(0, 0, W, 0, W, 0, W, H, W, H, 0, H, 0, H, 0, 0);
  return {
    layerCount: 2,
    layerName: (i) => (i === 0 ? 'F.Cu' : 'B.Cu'),
    netNames: ['', 'A', 'B', 'C'],
    pads,
    obstacles: [],
    holes: [],
    outline: [segment(0, 0, W, 0, 0), segment(W, 0, W, H, 0), segment(W, H, 0, H, 0), segment(0, H, 0, 0, 0)],
    outlineEdges: edges,
    rules: TEST_RULES,
    ...extra,
  };
}

/** Net B's tracks on both layers round the square (6..10 mm)²: a pad inside is boxed in. */
function ringOfB() {
  return [
    segment(6 * MM, 6 * MM, 10 * MM, 6 * MM, 500_000),
    segment(10 * MM, 6 * MM, 10 * MM, 10 * MM, 500_000),
    segment(10 * MM, 10 * MM, 6 * MM, 10 * MM, 500_000),
    segment(6 * MM, 10 * MM, 6 * MM, 6 * MM, 500_000),
  ].flatMap((s) => [0, 1].map((l) => ({ kind: 'track' as const, shape: s, layers: 1 << l, net: 2, clearance: 0 })));
}

describe('router on synthetic worlds', () => {
  it('joins two pads with octilinear segments', () => {
    const r = routeHost(world([pad(0, 1, 3 * MM, 3 * MM), pad(1, 1, 15 * MM, 11 * MM)]), {}, 0);
    expect(r.summary.open).toBe(0);
    expect(r.summary.routed).toBe(1);
    for (const t of r.tracks) {
      const dx = Math.abs(t.end.x - t.start.x);
      const dy = Math.abs(t.end.y - t.start.y);
      expect(dx === 0 || dy === 0 || dx === dy).toBe(true);
    }
  });

  it('kept to a window round its pads, pays for the window only and routes inside it', () => {
    const h = world([pad(0, 1, 3 * MM, 3 * MM), pad(1, 1, 6 * MM, 5 * MM), pad(2, 2, 4 * MM, 4 * MM), pad(3, 2, 17 * MM, 17 * MM)]);
    const whole = routeHost(h, { nets: [1] }, 0);
    const window = { minX: 1 * MM, minY: 1 * MM, maxX: 8 * MM, maxY: 7 * MM };
    const boxed = routeHost(h, { nets: [1], window }, 0);
    expect(boxed.open).toEqual([]);
    expect(whole.open).toEqual([]);
    // The grid and its maps cover 7 × 6 mm of the board's 20 × 20.
    expect(boxed.setup).toBeLessThan(whole.setup / 5);
    for (const t of boxed.tracks)
      for (const p of [t.start, t.end]) expect(p.x >= window.minX && p.x <= window.maxX && p.y >= window.minY && p.y <= window.maxY).toBe(true);
  });

  it('goes round another net’s pad instead of through it', () => {
    const big = { ...pad(2, 2, 10 * MM, 10 * MM), shape: rect(9 * MM, 4 * MM, 11 * MM, 16 * MM) };
    const r = routeHost(world([pad(0, 1, 4 * MM, 10 * MM), pad(1, 1, 16 * MM, 10 * MM), big, pad(3, 2, 10 * MM, 18 * MM)]), { nets: [1] }, 0);
    expect(r.summary.open).toBe(0);
    for (const t of r.tracks) {
      if (t.layer !== 0) continue;
      expect(collides(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), big.shape, 200_000)).toBe(false);
    }
  });

  it('says boxed_in, with the fencing net, for a pad ringed by other copper', () => {
    const ring = ringOfB();
    const inner = pad(0, 1, 8 * MM, 8 * MM, 'U1');
    const h = world([inner, pad(1, 1, 16 * MM, 16 * MM, 'J1'), pad(2, 2, 2 * MM, 2 * MM), pad(3, 2, 2 * MM, 18 * MM)], { obstacles: ring });
    const r = routeHost(h, { nets: [1] }, 0);
    expect(r.open.length).toBe(1);
    const s = r.open[0].stuck!;
    expect(s.reason).toBe('boxed_in');
    expect(s.tried).toBe(true);
    expect(s.blockers[0].name).toBe('B');
    expect(s.why).toContain('U1.1');
  });

  it('gives up on a boxed-in far end after a flood of its inside, not of the whole board', () => {
    const ring = ringOfB();
    const inner = pad(1, 1, 8 * MM, 8 * MM, 'U1');
    const outer = pad(0, 1, 16 * MM, 16 * MM, 'J1');
    const others = [pad(2, 2, 2 * MM, 2 * MM), pad(3, 2, 2 * MM, 18 * MM)];
    // The same stuck connection, once with the boxed-in pad as the tree the search grows from
    // (its flood dies out at once) and once as the far end, which the probe finds fenced in.
    const near = routeHost(world([inner, outer, ...others], { obstacles: ring }), { nets: [1] }, 0);
    const far = routeHost(world([outer, inner, ...others], { obstacles: ring }), { nets: [1] }, 0);
    expect(near.open.map((c) => c.stuck?.reason)).toEqual(['boxed_in']);
    expect(far.open.map((c) => c.stuck?.reason)).toEqual(['boxed_in']);
    // The far case pays a small first try from the tree and the probe, not a flood of the whole
    // board from the tree in every phase (without the probe it costs about three times the near
    // case here: 136.7 k against 46.1 k).
    expect(far.work).toBeLessThan(2 * near.work);
  });

  it('sizes its default budget by the connections it is asked to make', () => {
    expect(defaultWork(0)).toBe(DEFAULT_WORK);
    expect(defaultWork(800)).toBe(DEFAULT_WORK + 800 * WORK_PER_CONNECTION);
    expect(defaultWork(1e6)).toBe(DEFAULT_WORK_CAP);
  });

  it('says unreachable for a pad off the board', () => {
    const r = routeHost(world([pad(0, 1, 5 * MM, 5 * MM), pad(1, 1, 25 * MM, 5 * MM)]), {}, 0);
    expect(r.open.map((c) => c.stuck?.reason)).toEqual(['unreachable']);
  });

  it('stops on its work budget and still returns a typed result', () => {
    const r = routeHost(
      world([pad(0, 1, 3 * MM, 3 * MM), pad(1, 1, 15 * MM, 11 * MM), pad(2, 3, 3 * MM, 15 * MM), pad(3, 3, 15 * MM, 17 * MM)]),
      { work: 10 },
      0,
    );
    expect(r.stopped).toBe('budget');
    expect(r.open.length).toBe(2);
    for (const c of r.open) {
      expect(c.stuck?.reason).toBe('budget');
      expect(c.stuck?.tried).toBe(false);
    }
  });

  it('avoids a keep-out area', () => {
    const keep = { kind: 'keepout' as const, shape: rect(8 * MM, 0, 12 * MM, 17 * MM), layers: 3, net: 0, keepTracks: true, keepVias: true, clearance: 0 };
    const r = routeHost(world([pad(0, 1, 4 * MM, 5 * MM), pad(1, 1, 16 * MM, 5 * MM)], { obstacles: [keep] }), {}, 0);
    expect(r.summary.open).toBe(0);
    for (const t of r.tracks)
      expect(Math.max(t.start.y, t.end.y) > 17 * MM || Math.max(t.start.x, t.end.x) < 8 * MM || Math.min(t.start.x, t.end.x) > 12 * MM).toBe(true);
  });

  it('drops what the final design-rule check flags and reports the connection open', () => {
    const h = world([pad(0, 1, 3 * MM, 3 * MM), pad(1, 1, 15 * MM, 11 * MM), pad(2, 2, 3 * MM, 17 * MM), pad(3, 2, 15 * MM, 17 * MM)]);
    const clean = routeHost(h, {}, 0);
    expect(clean.summary.open).toBe(0);
    // A judge that flags every track of net A (code 1) and nothing else.
    const r = routeHost(h, {}, 0, (tracks) => {
      const flagged = new Set<number>();
      const why = new Map<string, string>();
      tracks.forEach((t, i) => {
        if (t.net !== 1) return;
        flagged.add(i);
        why.set(`t${i}`, 'Clearance violation');
      });
      return { tracks: flagged, vias: new Set(), why };
    });
    expect(r.tracks.every((t) => t.net === 2)).toBe(true);
    expect(r.vias.every((v) => v.net === 2)).toBe(true);
    expect(r.open.map((c) => c.netName)).toEqual(['A']);
    expect(r.open[0].stuck?.why).toContain('design-rule check');
    expect(r.summary.routed).toBe(1);
  });

  it('chooses a grid step that divides half the commonest pad pitch', () => {
    const prof = { key: 'Default', net: 1, width: [304_800, 304_800], viaDiameter: 600_000, viaDrill: 400_000, clearance: 200_000 };
    expect(chooseStep([prof])).toBe(168_000);
    const pads = [pad(0, 1, 0, 0, 'R1'), pad(1, 2, 0, 1_778_000, 'R1'), pad(2, 3, 5 * MM, 0, 'R2'), pad(3, 4, 5 * MM, 1_778_000, 'R2')];
    const step = chooseStep([prof], pads);
    expect(step).toBeLessThanOrEqual(168_000);
    const k = Math.round(889_000 / step);
    expect(Math.abs(k * step - 889_000)).toBeLessThanOrEqual(k);
  });
  it('necks down into a pad whose neighbours leave no room for the full width', () => {
    // A row of 0.2 mm pads at 0.4 mm pitch, long along y: a 0.25 mm track on the middle pad's
    // axis would pass 0.175 mm from its neighbours (clearance 0.2 mm); a 0.2 mm neck passes 0.2.
    const fine = (index: number, net: number, x: number): HostPad => ({
      ...pad(index, net, x, 10 * MM),
      shape: rect(x - 0.1 * MM, 9.4 * MM, x + 0.1 * MM, 10.6 * MM),
      minSize: 0.2 * MM,
    });
    const x = 10 * MM;
    const pads = [fine(0, 2, x - 0.4 * MM), fine(1, 1, x), fine(2, 3, x + 0.4 * MM), pad(3, 1, 10 * MM, 3 * MM)];
    const r = routeHost(world(pads), { nets: [1] }, 0);
    expect(r.summary.open).toBe(0);
    // The track on the pad's axis with an end on the pad, whichever way it was laid.
    const onPad = r.tracks.filter((t) => t.start.x === x && t.end.x === x && [t.start.y, t.end.y].some((y) => Math.abs(y - 10 * MM) <= 0.6 * MM));
    expect(onPad.length).toBeGreaterThan(0);
    expect(onPad.every((t) => t.width === 200_000)).toBe(true);
    // The neck clears both neighbours by the clearance, and the rest keeps the class width.
    for (const t of onPad)
      for (const n of [pads[0], pads[2]]) expect(collides(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), n.shape, 200_000)).toBe(false);
    expect(r.tracks.some((t) => t.width === 250_000)).toBe(true);
  });

  it('necks a track down between another net’s tracks over the stretch where the class width does not fit', () => {
    // Net B's pads at ±0.425 mm beside A's pad, each with a track running 3 mm up and down: the
    // gap between them is 0.6 mm, too narrow for a 0.25 mm track with 0.2 mm either side (0.65)
    // but room for the 0.15 mm minimum (0.55). A via fits nowhere near either.
    const x = 10 * MM;
    const y = 10 * MM;
    const fine = (index: number, net: number, px: number): HostPad => ({
      ...pad(index, net, px, y),
      shape: rect(px - 0.1 * MM, y - 0.5 * MM, px + 0.1 * MM, y + 0.5 * MM),
      minSize: 0.2 * MM,
    });
    const pitch = 425_000;
    const fence = [x - pitch, x + pitch].flatMap((px) =>
      [0, 1].map((l) => ({ kind: 'track' as const, shape: segment(px, y - 3 * MM, px, y + 3 * MM, 250_000), layers: 1 << l, net: 2, clearance: 0 })),
    );
    const pads = [fine(0, 1, x), fine(1, 2, x - pitch), fine(2, 2, x + pitch), pad(3, 1, x, 18 * MM)];
    const r = routeHost(world(pads, { obstacles: fence }), { nets: [1] }, 0);
    expect(r.summary.open).toBe(0);
    const narrow = r.tracks.filter((t) => t.width === 150_000);
    const wide = r.tracks.filter((t) => t.width === 250_000);
    expect(narrow.length).toBeGreaterThan(0);
    expect(wide.length).toBeGreaterThan(0);
    // Narrow only between B's tracks (and a little past their ends), the class width beyond.
    for (const t of narrow) for (const p of [t.start, t.end]) expect(Math.abs(p.y - y)).toBeLessThanOrEqual(3.8 * MM);
    expect(wide.some((t) => Math.max(t.start.y, t.end.y) > y + 3.8 * MM)).toBe(true);
    for (const t of r.tracks)
      for (const f of fence)
        if (f.layers === 1 << t.layer) expect(collides(segment(t.start.x, t.start.y, t.end.x, t.end.y, t.width), f.shape, 200_000)).toBe(false);
  });

  describe('vias that drill only some layers', () => {
    // Four layers; net B walls off F.Cu down the middle, edge to edge, and a keep-out bars vias
    // from B.Cu over the whole board, so a through via fits nowhere: only a via stopping short of
    // B.Cu crosses.
    const four = (rules: Partial<RouterHost['rules']>) =>
      world([pad(0, 1, 4 * MM, 10 * MM), pad(1, 1, 16 * MM, 10 * MM), pad(2, 2, 10 * MM, 1 * MM), pad(3, 2, 10 * MM, 19 * MM)], {
        layerCount: 4,
        layerName: (i) => ['F.Cu', 'In1.Cu', 'In2.Cu', 'B.Cu'][i],
        obstacles: [
          { kind: 'track', shape: segment(10 * MM, -1 * MM, 10 * MM, 21 * MM, 500_000), layers: 1, net: 2, clearance: 0 },
          { kind: 'keepout', shape: rect(0, 0, 20 * MM, 20 * MM), layers: 1 << 3, net: 0, keepTracks: false, keepVias: true, clearance: 0 },
        ],
        rules: { ...TEST_RULES, ...rules },
      });

    it('leaves the pads fenced in when the project allows through vias only', () => {
      const r = routeHost(four({}), { nets: [1] }, 0);
      expect(r.vias).toEqual([]);
      expect(r.open.map((c) => [c.stuck?.reason, c.stuck?.blockers[0]?.name])).toEqual([['boxed_in', 'B']]);
    });

    it('crosses with blind vias where the project allows them', () => {
      const r = routeHost(four({ blindBuried: true }), { nets: [1] }, 0);
      expect(r.open).toEqual([]);
      expect(r.vias.length).toBeGreaterThan(0);
      for (const v of r.vias) {
        expect(v.type).toBe('blind');
        expect([v.layerFrom, v.size, v.drill]).toEqual([0, 600_000, 300_000]);
        expect(v.layerTo).toBeLessThan(3);
        // The via's far layer carries the route on.
        expect(
          r.tracks.some((t) => t.layer === v.layerTo && ((t.start.x === v.at.x && t.start.y === v.at.y) || (t.end.x === v.at.x && t.end.y === v.at.y))),
        ).toBe(true);
      }
    });

    it('uses the class’s micro-via between an outer layer and its neighbour', () => {
      const r = routeHost(four({ microVia: () => ({ diameter: 300_000, drill: 100_000 }) }), { nets: [1] }, 0);
      expect(r.open).toEqual([]);
      expect(r.vias.length).toBeGreaterThan(0);
      for (const v of r.vias) expect([v.type, v.layerFrom, v.layerTo, v.size, v.drill]).toEqual(['micro', 0, 1, 300_000, 100_000]);
    });
  });
});
