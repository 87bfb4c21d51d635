// The cheap board-text looks the host relies on to skip a re-parse: top-level items (strings may hold
// parentheses), the digest without our items, and reading our items back in file terms.
import { describe, expect, it } from 'vitest';
import { copperUuid, readCopperBlock, readKey, splitBoard, topLevelItems } from '../../../plugin/kicad-host/board-text.ts';

const SEG = `(segment\n\t\t(start 10.5 20)\n\t\t(end 12 20.25)\n\t\t(width 0.25)\n\t\t(locked yes)\n\t\t(layer "F.Cu")\n\t\t(net 3)\n\t\t(uuid "aaaa-1")\n\t)`;
const ARC = `(arc\n\t\t(start 1 2)\n\t\t(mid 1.5 2.5)\n\t\t(end 2 2)\n\t\t(width 0.2)\n\t\t(layer "B.Cu")\n\t\t(net 4)\n\t\t(uuid "aaaa-2")\n\t)`;
const VIA = `(via\n\t\t(at 5 6)\n\t\t(size 0.6)\n\t\t(drill 0.3)\n\t\t(layers "F.Cu" "B.Cu")\n\t\t(locked yes)\n\t\t(net 3)\n\t\t(uuid "aaaa-3")\n\t)`;
const BASE = `(kicad_pcb\n\t(version 20241229)\n\t(net 0 "")\n\t(net 3 "A (x)")\n\t(gr_text "a ) b \\" ( c"\n\t\t(at 1 1)\n\t)\n\t(segment\n\t\t(start 0 0)\n\t\t(end 1 1)\n\t\t(width 0.2)\n\t\t(layer "F.Cu")\n\t\t(net 3)\n\t\t(uuid "user-1")\n\t)\n)\n`;

function withItems(items: string[]): string {
  const close = BASE.lastIndexOf(')');
  return BASE.slice(0, close - 1) + items.map((i) => `\n\t${i}`).join('') + BASE.slice(close - 1);
}

describe('board text', () => {
  it('lists top-level items, not fooled by parentheses inside strings', () => {
    const items = topLevelItems(BASE);
    expect(items.map((i) => i.head)).toEqual(['version', 'net', 'net', 'gr_text', 'segment']);
    expect(copperUuid(BASE, items[4])).toBe('user-1');
    expect(copperUuid(BASE, items[3])).toBeNull();
  });

  it('digests the board without our items, wherever they sit', () => {
    const ours = new Set(['aaaa-1', 'aaaa-2', 'aaaa-3']);
    const bare = splitBoard(BASE, ours);
    const routed = splitBoard(withItems([SEG, ARC, VIA]), ours);
    expect(routed.digest).toBe(bare.digest);
    expect([...routed.found.keys()]).toEqual(['aaaa-1', 'aaaa-2', 'aaaa-3']);
    expect(splitBoard(withItems([VIA]), ours).digest).toBe(bare.digest);
    // The user's own copper is part of the board: drawing or moving some changes the digest.
    expect(splitBoard(BASE.replace('(end 1 1)', '(end 1 2)'), ours).digest).not.toBe(bare.digest);
    expect(splitBoard(withItems([SEG.replace('aaaa-1', 'user-2')]), ours).digest).not.toBe(bare.digest);
  });

  it('counts the project files in the digest', () => {
    const none = new Set<string>();
    expect(splitBoard(BASE, none, ['{}', undefined]).digest).not.toBe(splitBoard(BASE, none, ['{"x":1}', undefined]).digest);
    expect(splitBoard(BASE, none, [undefined, '']).digest).not.toBe(splitBoard(BASE, none, ['', undefined]).digest);
  });

  it('reads our segments, arcs and vias back in nm', () => {
    expect(readCopperBlock(SEG)).toEqual({
      kind: 'track',
      start: [10_500_000, 20_000_000],
      end: [12_000_000, 20_250_000],
      width: 250_000,
      layer: 'F.Cu',
      net: 3,
    });
    expect(readKey(readCopperBlock(ARC)!)).toBe('T 4 B.Cu 200000 1000000,2000000 1500000,2500000 2000000,2000000');
    expect(readKey(readCopperBlock(VIA)!)).toBe('V 3 F.Cu-B.Cu 600000/300000 5000000,6000000');
    expect(readCopperBlock(SEG.replace('(net 3)', ''))).toBeNull();
    expect(readCopperBlock('(gr_line (start 0 0))')).toBeNull();
  });

  it("reads a KiCad 10 item, whose net is named, with the board's code for that name", () => {
    const codes = new Map([
      ['A (x)', 3],
      ['say "hi"', 7],
    ]);
    const code = (name: string) => codes.get(name);
    expect(readCopperBlock(SEG.replace('(net 3)', '(net "A (x)")'), code)).toEqual(readCopperBlock(SEG));
    expect(readKey(readCopperBlock(VIA.replace('(net 3)', '(net "say \\"hi\\"")'), code)!)).toBe('V 7 F.Cu-B.Cu 600000/300000 5000000,6000000');
    // A name the board does not have: not ours any more.
    expect(readCopperBlock(SEG.replace('(net 3)', '(net "B")'), code)).toBeNull();
  });
});
