// Stubs taken off a net's pieced-together copper (engine/route/dangling.ts): an end that touches
// nothing is cut back to where the net's other copper meets the track, or the track goes; and
// whether copper joins all of a net's pads.
import { describe, expect, it } from 'vitest';
import type { NewTrack, NewVia } from '../../../../engine/board/added-copper.ts';
import { rect } from '../../../../engine/geom/shapes.ts';
import { joinsAll, pruneDangling, type NetPad } from '../../../../engine/route/finish/dangling.ts';

const MM = 1_000_000;
const W = 200_000;
const track = (x1: number, y1: number, x2: number, y2: number, layer = 0): NewTrack => ({
  start: { x: x1 * MM, y: y1 * MM },
  end: { x: x2 * MM, y: y2 * MM },
  width: W,
  layer,
  net: 1,
});
const pad = (x: number, y: number): NetPad => ({ shape: rect((x - 0.5) * MM, (y - 0.5) * MM, (x + 0.5) * MM, (y + 0.5) * MM), layers: 1 });
const via = (x: number, y: number): NewVia => ({ at: { x: x * MM, y: y * MM }, size: 600_000, drill: 300_000, layerFrom: 0, layerTo: 1, net: 1 });

describe('pruneDangling', () => {
  it('cuts a track that runs on past a joining track back to the join', () => {
    // Pad A at 0,0; a track along y = 0 to x = 10; a join from pad B at 6,5 lands on it at x = 6.
    const out = pruneDangling([track(0, 0, 10, 0), track(6, 5, 6, 0)], [], [pad(0, 0), pad(6, 5)]);
    expect(out).toEqual([track(0, 0, 6, 0), track(6, 5, 6, 0)]);
  });

  it('takes away a track that nothing touches, and cuts a branch to nowhere back to its pad', () => {
    expect(pruneDangling([track(1, 2, 5, 2)], [], [pad(0, 0)])).toEqual([]);
    // Pad, then two tracks leading nowhere: the far one goes, the near one is cut back onto the
    // pad (where its cap first lies on it).
    const out = pruneDangling([track(0, 0, 5, 0), track(5, 0, 5, 3)], [], [pad(0, 0)]);
    expect(out).toHaveLength(1);
    expect(out[0].start).toEqual({ x: 0, y: 0 });
    expect(out[0].end.x).toBeLessThanOrEqual(0.5 * MM + W / 2);
  });

  it('keeps a track that ends on a via, and cuts one that runs past its pad back to the pad', () => {
    const kept = pruneDangling([track(0, 0, 4, 0)], [via(4, 0)], [pad(0, 0)]);
    expect(kept).toEqual([track(0, 0, 4, 0)]);
    // From a via on to a pad at x = 4 and 2 mm beyond it: cut where it first lies on the pad
    // coming back from the loose end (its near edge at x = 4.5, the track's cap reaching in).
    const cut = pruneDangling([track(0, 0, 6.5, 0)], [via(0, 0)], [pad(4, 0)]);
    expect(cut).toHaveLength(1);
    expect(cut[0].start).toEqual({ x: 0, y: 0 });
    expect(cut[0].end.x).toBeGreaterThan(4.5 * MM);
    expect(cut[0].end.x).toBeLessThanOrEqual(4.5 * MM + W / 2);
  });
});

describe('joinsAll', () => {
  it('says whether the copper joins every pad into one piece', () => {
    expect(joinsAll([track(0, 0, 6, 0), track(6, 5, 6, 0)], [], [pad(0, 0), pad(6, 5)])).toBe(true);
    expect(joinsAll([track(0, 0, 6, 0), track(6, 5, 6, 1)], [], [pad(0, 0), pad(6, 5)])).toBe(false);
    // Through a via onto the other layer.
    expect(joinsAll([track(0, 0, 6, 0), track(6, 0, 6, 5, 1)], [via(6, 0)], [pad(0, 0), { ...pad(6, 5), layers: 2 }])).toBe(true);
    expect(joinsAll([track(0, 0, 6, 0), track(6, 0, 6, 5, 1)], [], [pad(0, 0), { ...pad(6, 5), layers: 2 }])).toBe(false);
  });
});
