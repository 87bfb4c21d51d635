// The router's connectivity joins copper as KiCad does: items of a net on a common layer that
// overlap by more than a touch.
import { describe, expect, it } from 'vitest';
import { circle, segment } from '../../../../engine/geom/index.ts';
import { connectedPieces, type ConnItem } from '../../../../engine/route/negotiate/connectivity.ts';

const MM = 1_000_000;
const pad = (x: number, layers = 1): ConnItem => ({ net: 1, layers, shape: circle(x, 0, 0.5 * MM), pad: 0 });

describe('router connectivity', () => {
  it('joins pads a track runs into, on a common layer only', () => {
    const track: ConnItem = { net: 1, layers: 1, shape: segment(0, 0, 3 * MM, 0, 250_000), pad: -1 };
    // Pads first, then other copper, each left to right.
    expect(connectedPieces([pad(0), pad(3 * MM), track]).get(1)).toEqual([[0, 1, 2]]);
    expect(connectedPieces([pad(0, 2), pad(3 * MM, 2), track]).get(1)).toEqual([[0], [1], [2]]);
  });

  it('orders pieces and their items by place, not by the order they are listed in', () => {
    const track: ConnItem = { net: 1, layers: 1, shape: segment(0, 0, 3 * MM, 0, 250_000), pad: -1 };
    expect(connectedPieces([pad(3 * MM), track, pad(0)]).get(1)).toEqual([[2, 0, 1]]);
    expect(connectedPieces([pad(6 * MM), pad(3 * MM), pad(0)]).get(1)).toEqual([[2], [1], [0]]);
    // A pad goes before other copper with the same box.
    const disc: ConnItem = { net: 1, layers: 1, shape: circle(0, 0, 0.5 * MM), pad: -1 };
    expect(connectedPieces([disc, pad(0)]).get(1)).toEqual([[1, 0]]);
  });

  it('keeps round copper that only touches apart', () => {
    expect(connectedPieces([pad(0), pad(MM)]).get(1)).toEqual([[0], [1]]);
    expect(connectedPieces([pad(0), pad(MM - 1000)]).get(1)).toEqual([[0, 1]]);
  });
});
