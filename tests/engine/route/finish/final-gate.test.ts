// The final gate takes out what the judge flags with what hangs on it: a join that starts on a
// cut join's copper would dangle and goes too; a join between two pads stays when the gate may
// leave a forest, and goes when what stays must be one tree around the first piece.
import { describe, expect, it } from 'vitest';
import { gate, type Verify } from '../../../../engine/route/finish/final-gate.ts';
import type { Profile } from '../../../../engine/route/core/profile.ts';
import type { Join } from '../../../../engine/route/negotiate/router.ts';

const profile: Profile = { key: 'Default', net: 1, width: [250_000, 250_000], viaDiameter: 600_000, viaDrill: 300_000, clearance: 200_000 };

/** A straight join on layer 0 from x0 to x1 at height y. */
function join(to: number, fromJoin: number, fromPiece: number, x0: number, x1: number, y: number): Join {
  return {
    to,
    path: Int32Array.of(),
    fromJoin,
    fromPiece,
    copper: {
      legs: [
        {
          layer: 0,
          pts: [
            { x: x0, y },
            { x: x1, y },
          ],
        },
      ],
      vias: [],
    },
  };
}

/** Pieces 0–1 joined first (the join the judge refuses), then 1–2 from piece 1, then 3 from the
 *  middle of the 1–2 join's track, then 2–4 from piece 2. */
function net(): Join[] {
  return [
    join(1, -1, 0, 0, 1_000_000, 0),
    join(2, -1, 1, 1_000_000, 2_000_000, 0),
    join(3, 1, -1, 1_500_000, 1_500_000 + 1_000, 0),
    join(4, -1, 2, 2_000_000, 3_000_000, 0),
  ];
}

/** Flags the track that starts at x = 0 (the first join's). */
const refuseFirst: Verify = (tracks) => {
  const flagged = new Set<number>();
  tracks.forEach((t, i) => t.start.x === 0 && flagged.add(i));
  return { tracks: flagged, vias: new Set(), why: new Map([...flagged].map((i) => [`t${i}`, 'refused'])) };
};

describe('final gate', () => {
  it('keeps every join that still holds when a forest may stay', () => {
    const kept = new Map([[7, net()]]);
    const cut = gate(kept, [{ net: 7, profile }], 2, refuseFirst, true);
    expect(cut.get(7)).toBe('refused');
    expect(kept.get(7)!.map((j) => j.to)).toEqual([2, 3, 4]);
  });

  it('keeps one tree around the first piece otherwise', () => {
    const kept = new Map([[7, net()]]);
    gate(kept, [{ net: 7, profile }], 2, refuseFirst);
    expect(kept.get(7)).toEqual([]);
  });

  it('takes out a join that starts on a cut join’s copper', () => {
    const joins = net();
    const kept = new Map([[7, joins]]);
    const refuseSecond: Verify = (tracks) => {
      const flagged = new Set<number>();
      tracks.forEach((t, i) => t.start.x === 1_000_000 && flagged.add(i));
      return { tracks: flagged, vias: new Set(), why: new Map() };
    };
    gate(kept, [{ net: 7, profile }], 2, refuseSecond, true);
    // 1–2 is refused; 3 hung on its track and goes; 2–4 starts on piece 2, a pad, and stays.
    expect(kept.get(7)!.map((j) => j.to)).toEqual([1, 4]);
  });

  it('renumbers what a kept join hangs on, so a later pass cuts the right joins', () => {
    // Three joins from piece 0, and the join to 4 hangs on the second. Pass one refuses the first,
    // so the second now stands first; pass two refuses it, and the join to 4 must go with it.
    const joins = [
      join(1, -1, 0, 0, 500_000, 0),
      join(2, -1, 0, 1_000_000, 1_500_000, 0),
      join(3, -1, 0, 2_000_000, 2_500_000, 0),
      join(4, 1, -1, 1_200_000, 1_201_000, 0),
    ];
    const kept = new Map([[7, joins]]);
    let pass = 0;
    const refuseInTurn: Verify = (tracks) => {
      const x = pass++ === 0 ? 0 : 1_000_000;
      const flagged = new Set<number>();
      tracks.forEach((t, i) => t.start.x === x && flagged.add(i));
      return { tracks: flagged, vias: new Set(), why: new Map() };
    };
    gate(kept, [{ net: 7, profile }], 2, refuseInTurn, true);
    expect(kept.get(7)!.map((j) => j.to)).toEqual([3]);
  });
});
