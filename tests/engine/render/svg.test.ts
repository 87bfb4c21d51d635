import { describe, expect, it } from 'vitest';
import { loadDesignFile } from '../../../plugin/design-files.ts';
import { renderSvg, colourOf } from '../../../engine/render/svg.ts';
import { padShape } from '../../../engine/board/pad-copper.ts';
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

  it('draws trapezoid and custom pads from their padShape outline, not from their size', () => {
    const b = benchBoards().find((x) => x.name === 'Blink-Eras_AVR_ISP_Pogo')!;
    const { board } = loadDesignFile(b.bare);
    const [trap, custom] = board.pads.filter((q) => q.layers & 1);
    Object.assign(trap, { shape: 'trapezoid', size: { w: 2_000_000, h: 1_000_000 }, delta: { x: 500_000, y: 0 }, rotation: 0, offset: { x: 0, y: 0 } });
    Object.assign(custom, {
      shape: 'custom',
      anchor: 'rect',
      size: { w: 1_000_000, h: 1_000_000 },
      rotation: 0,
      offset: { x: 0, y: 0 },
      primitives: [{ kind: 'poly', pts: [{ x: 0, y: 0 }, { x: 3_000_000, y: 0 }, { x: 3_000_000, y: 500_000 }], width: 0, filled: true }],
    });
    const svg = renderSvg({ board, tracks: [], vias: [], box: { minX: 0, minY: 0, maxX: 300_000_000, maxY: 300_000_000 }, layers: [0], ratsnest: [] });
    const mm = (v: number) => String(Math.round(v / 100) / 1e4);
    const vertices = (sh: ReturnType<typeof padShape>) => {
      const polys = sh.kind === 'compound' ? sh.parts.filter((p) => p.kind === 'polygon') : sh.kind === 'polygon' ? [sh] : [];
      return polys.flatMap((p) => Array.from({ length: p.outline.length / 2 }, (_, i) => `${mm(p.outline[2 * i])} ${mm(p.outline[2 * i + 1])}`));
    };
    // The trapezoid is a four-cornered polygon whose sides differ (not its 2 × 1 mm box), drawn as such.
    const t = vertices(padShape(trap));
    expect(t).toHaveLength(4);
    expect(new Set(t.map((v) => v.split(' ')[1])).size).toBe(4);
    for (const v of t) expect(svg).toContain(v);
    expect(svg).not.toContain(`width="2" height="1"`);
    // The custom pad's triangle primitive reaches 3 mm right of the anchor: drawn, corner included.
    const c = vertices(padShape(custom));
    expect(c).toContain(`${mm(custom.at.x + 3_000_000)} ${mm(custom.at.y + 500_000)}`);
    for (const v of c) expect(svg).toContain(v);
  });
});
