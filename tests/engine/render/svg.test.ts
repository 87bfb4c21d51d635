import { describe, expect, it } from 'vitest';
import { loadDesignFile } from '../../../plugin/design-files.ts';
import { renderSvg, colourOf } from '../../../engine/render/svg.ts';
import { benchBoards } from '../../support/bench.ts';

describe('render', () => {
  it('draws pads, session tracks per layer in KiCad colours and ratsnest lines, escaping names', () => {
    const b = benchBoards().find((x) => x.name === 'Blink-Eras_AVR_ISP_Pogo')!;
    const { board } = loadDesignFile(b.bare);
    board.nets[1] = { ...board.nets[1], name: '<script>alert(1)</script>' };
    const p = board.pads.find((q) => q.net === 1)!;
    const svg = renderSvg({
      board,
      tracks: [{ start: p.at, end: { x: p.at.x + 1_000_000, y: p.at.y }, width: 250_000, layer: 1, net: 1 }],
      vias: [],
      box: { minX: 0, minY: 0, maxX: 300_000_000, maxY: 300_000_000 },
      layers: [0, 1],
      ratsnest: [{ a: p.at, b: { x: 0, y: 0 } }],
      blockers: new Set([1]),
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('<g id="layer-F.Cu"');
    expect(svg).toContain('stroke-dasharray');
    expect(svg).toContain('#FF8C00');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
    expect(colourOf('F.Cu')).toBe('#C83434');
    expect(colourOf('B.Cu')).toBe('#4D7FC4');
    expect(colourOf('In1.Cu')).toBe('#7FC87F');
    expect(colourOf('In2.Cu')).toBe('#CEBB2F');
  });
});
