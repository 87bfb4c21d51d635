// Ties between nets go by name, as a designer numbers them, the same on every machine.
import { describe, expect, it } from 'vitest';
import { byNetName, naturalOrder, netRanks } from '../../../../engine/route/core/net-rank.ts';

describe('nets in name order', () => {
  it('orders runs of digits by value and the rest by character code, without a locale; equal values by the text', () => {
    const names = ['D10', 'D2', 'colb_10', 'colb_9', 'D02', '+5V', 'GND', 'gnd', 'A'];
    expect([...names].sort(naturalOrder)).toEqual(['+5V', 'A', 'D02', 'D2', 'D10', 'GND', 'colb_9', 'colb_10', 'gnd']);
  });

  it('ranks codes by their names, equal names by code, and sorts codes the host does not name last', () => {
    const host = { netNames: ['', 'SDA', 'GND', 'SCL', 'GND'] };
    expect([...netRanks(host.netNames)]).toEqual([0, 4, 1, 3, 2]);
    expect([7, 1, 2, 3, 4, 0].sort(byNetName(host))).toEqual([0, 2, 4, 3, 1, 7]);
  });
});
