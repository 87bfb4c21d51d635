// Fan-out of area arrays (fan-out.ts): which parts are BGAs, which of their balls cannot leave on
// their own layer, and the dogbone each gets at a diagonal half a pitch away, exactly clear of
// everything and of each other; then glasgow's BGA nets, stripped from the person's routing and
// routed back whole.
import { describe, expect, it } from 'vitest';
import { circle, segment } from '../../../../engine/geom/index.ts';
import type { RouterHost } from '../../../../engine/route/core/host.ts';
import { routeDesign } from '../../../../engine/route/plan/variants.ts';
import { areaArrays, fanOut, innerBalls, withFans } from '../../../../engine/route/escape/fan-out.ts';
import type { RouteResult } from '../../../../engine/route/types.ts';
import { errorsAdded, strippedBench } from '../../../support/stripped-board.ts';
import { squareHost, TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;
const PITCH = 800_000;
/** Glasgow's: 0.15 mm clearance and track, 0.4 mm vias. */
const RULES = { ...TEST_RULES, clearance: () => 150_000, minTrackWidth: () => 150_000, via: () => ({ diameter: 400_000, drill: 200_000 }) };

/** A 7 × 7 BGA U at 0.8 mm pitch (0.4 mm balls, centre 10, 10 mm), each ball its own net, and a
 *  QFP-like row Q of 5 pads at 0.8 mm (one row: not an area array). The rules (0.15 mm clearance
 *  and least track) leave no track room between two balls. */
function bga(extra: Partial<RouterHost> = {}): RouterHost {
  const balls = [];
  for (let r = 0; r < 7; r++)
    for (let c = 0; c < 7; c++) {
      const k = r * 7 + c;
      const [x, y] = [10 * MM + (c - 3) * PITCH, 10 * MM + (r - 3) * PITCH];
      balls.push({ ...testPad(k, k + 1, x, y, { ref: 'U', half: 200_000 }), number: `${'ABCDEFG'[r]}${c + 1}`, shape: circle(x, y, 200_000) });
    }
  const row = Array.from({ length: 5 }, (_, k) => testPad(49 + k, 60 + k, 3 * MM + k * PITCH, 3 * MM, { ref: 'Q', half: 200_000 }));
  return squareHost(20 * MM, {
    netNames: Array.from({ length: 70 }, (_, i) => (i === 0 ? '' : `N${i}`)),
    pads: [...balls, ...row],
    obstacles: [],
    rules: RULES,
    ...extra,
  });
}

const sizes = { vias: () => [{ diameter: 400_000, drill: 200_000 }], widths: () => [150_000] };
const ball = (h: RouterHost, name: string) => h.pads.find((p) => p.ref === 'U' && p.number === name)!.index;

describe('area arrays and their fan-out', () => {
  it('finds the BGA by its lattice, not a single row of pads at the same pitch', () => {
    expect([...areaArrays(bga()).entries()]).toEqual([['U', { pitch: PITCH, cx: 10 * MM, cy: 10 * MM }]]);
  });

  it('fans out the balls inside the outer ring where no track passes between two balls, and only those', () => {
    const h = bga();
    const inner = innerBalls(h);
    // 7 × 7 less the outer ring of 24.
    expect(inner).toHaveLength(25);
    expect(inner).toContain(ball(h, 'B2'));
    expect(inner).not.toContain(ball(h, 'A4'));
    // With room for one track between balls, the second ring leaves on the surface too.
    const roomy = bga({ rules: { ...RULES, clearance: () => 100_000, minTrackWidth: () => 100_000 } });
    expect(innerBalls(roomy)).toHaveLength(9);
    // Only the nets asked for; a ball its net's copper already reaches is left alone.
    const c4 = ball(h, 'D4');
    expect(innerBalls(h, new Set([h.pads[c4].net]))).toEqual([c4]);
    const joined = bga({ obstacles: [{ kind: 'via', shape: circle(10 * MM, 10 * MM, 200_000), layers: 3, net: h.pads[c4].net, clearance: 0 }] });
    expect(innerBalls(joined)).not.toContain(c4);
  });

  it('puts each dogbone at a diagonal half a pitch out, outward first, no two on one site', () => {
    const h = bga();
    const fans = fanOut(h, innerBalls(h), sizes, true);
    expect(fans).toHaveLength(25);
    const sites = new Set(fans.map((f) => `${f.vias[0].at.x},${f.vias[0].at.y}`));
    expect(sites.size).toBe(25);
    for (const f of fans) {
      const p = h.pads.find((q) => q.index === f.pad)!;
      expect([Math.abs(f.vias[0].at.x - p.at.x), Math.abs(f.vias[0].at.y - p.at.y)]).toEqual([PITCH / 2, PITCH / 2]);
      expect(f.tracks).toEqual([{ start: p.at, end: f.vias[0].at, width: 150_000, layer: 0, net: p.net }]);
    }
    // B2 lies up and left of the centre: its via goes further up and left.
    const b2 = fans.find((f) => f.pad === ball(h, 'B2'))!;
    expect(b2.vias[0].at).toEqual({ x: 10 * MM - 2.5 * PITCH, y: 10 * MM - 2.5 * PITCH });
  });

  it('takes another diagonal where one is blocked, and none where all are', () => {
    const h = bga();
    const d4 = h.pads[ball(h, 'D4')];
    // D4 is the centre ball: every diagonal points out alike, so the first in order is taken;
    // block it (another net's track across it) and the next is used.
    const first = fanOut(h, [d4.index], sizes, true)[0].vias[0].at;
    const wall = segment(first.x - 50_000, first.y, first.x + 50_000, first.y, 100_000);
    const blocked = bga({ obstacles: [{ kind: 'track', shape: wall, layers: 2, net: 69, clearance: 0 }] });
    const next = fanOut(blocked, [d4.index], sizes, true)[0].vias[0].at;
    expect(next).not.toEqual(first);
    const walls = [-1, 1].flatMap((sx) =>
      [-1, 1].map((sy) => segment(d4.at.x + (sx * PITCH) / 2, d4.at.y + (sy * PITCH) / 2, d4.at.x + (sx * PITCH) / 2 + 1, d4.at.y + (sy * PITCH) / 2, 100_000)),
    );
    const boxed = bga({ obstacles: walls.map((shape) => ({ kind: 'track' as const, shape, layers: 2, net: 69, clearance: 0 })) });
    expect(fanOut(boxed, [d4.index], sizes, true)).toEqual([]);
  });

  it('keeps a fan-out with its net only where the route joined it', () => {
    const h = bga();
    const [fan] = fanOut(h, [ball(h, 'C3')], sizes, true);
    const net = fan.tracks[0].net;
    const via = fan.vias[0].at;
    const from = { x: via.x, y: via.y };
    const track = { start: from, end: { x: 2 * MM, y: via.y }, width: 150_000, layer: 1, net };
    const result = (tracks: RouteResult['tracks']): RouteResult => ({
      tracks,
      vias: [],
      nets: [{ net, name: `N${net}`, routed: 1, open: 0, tracks, vias: [], length: 0 }],
      connections: [],
      open: [],
      ripped: { tracks: [], vias: [] },
      work: 0,
      budget: 0,
      setup: 0,
      stopped: 'done',
      variant: 0,
      seed: 1,
      summary: { routed: 1, open: 0, tracks: tracks.length, vias: 0, length: 0 },
    });
    const kept = withFans(result([track]), [fan]);
    expect(kept.vias).toEqual(fan.vias);
    expect(kept.tracks).toEqual([...fan.tracks, track]);
    expect(kept.summary).toMatchObject({ tracks: 2, vias: 1, length: Math.round(Math.hypot(PITCH / 2, PITCH / 2)) });
    // A route that never touches the dogbone leaves it out.
    const apart = { ...track, start: { x: 15 * MM, y: 15 * MM }, end: { x: 16 * MM, y: 15 * MM } };
    expect(withFans(result([apart]), [fan]).vias).toEqual([]);
  });

  it('routes every one of glasgow’s stripped BGA connections back, through dogbones between the balls, clean by the engine’s DRC', () => {
    const { design, nets } = strippedBench('kitspace_glasgow');
    const r = routeDesign(design, { nets, variants: 2 });
    // Before fan-out, R20.1–U30.G8 stayed open: its ball's dogbone site held another net's via.
    expect(r.open).toEqual([]);
    const u30 = design.board.pads.filter((p) => design.board.footprints[p.footprint]?.reference === 'U30');
    const dogbones = r.vias.filter((v) =>
      u30.some((p) => p.net === v.net && Math.abs(v.at.x - p.at.x) === PITCH / 2 && Math.abs(v.at.y - p.at.y) === PITCH / 2),
    );
    expect(dogbones.length).toBeGreaterThan(0);
    expect(errorsAdded(design, r)).toEqual([]);
  }, 180_000);
});
