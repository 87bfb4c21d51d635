import { describe, expect, it } from 'vitest';
import { loadDesignFile } from '../../../plugin/design-files.ts';
import { renderPicture, renderSvg, colourOf } from '../../../engine/render/svg.ts';
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
      primitives: [
        {
          kind: 'poly',
          pts: [
            { x: 0, y: 0 },
            { x: 3_000_000, y: 0 },
            { x: 3_000_000, y: 500_000 },
          ],
          width: 0,
          filled: true,
        },
      ],
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

  it('sizes the picture to the region: width and height follow the viewBox, the longer side 1200 px', () => {
    const { board } = loadDesignFile(benchBoards().find((x) => x.name === 'Blink-Eras_AVR_ISP_Pogo')!.bare);
    for (const [w, h] of [
      [14_000_000, 10_000_000],
      [10_000_000, 14_000_000],
      [5_000_000, 5_000_000],
    ]) {
      const pic = renderPicture({
        board,
        tracks: [],
        vias: [],
        box: { minX: 110_000_000, minY: 91_000_000, maxX: 110_000_000 + w, maxY: 91_000_000 + h },
        layers: [0, 1],
        ratsnest: [],
      });
      const [, , vw, vh] = /viewBox="([^"]+)"/.exec(pic.svg)![1].split(' ').map(Number);
      const width = Number(/<svg[^>]* width="(\d+)"/.exec(pic.svg)![1]);
      const height = Number(/<svg[^>]* height="(\d+)"/.exec(pic.svg)![1]);
      expect([width, height]).toEqual([pic.frame.widthPx, pic.frame.heightPx]);
      expect(Math.max(width, height)).toBe(1200);
      expect(Math.abs(width / height - vw / vh)).toBeLessThan(1 / Math.min(width, height));
      expect(pic.frame.pxPerMm).toBeCloseTo(1200 / (Math.max(w, h) / 1e6), 6);
    }
  });

  it('names the net of every track and via, labels the nets in view as strokes, and escapes the names', () => {
    const { board } = loadDesignFile(benchBoards().find((x) => x.name === 'Blink-Eras_AVR_ISP_Pogo')!.bare);
    board.nets[1] = { ...board.nets[1], name: 'A<&>"\u0001B' };
    const [p, q] = board.pads.filter((x) => x.net === 1);
    const [r] = board.pads.filter((x) => x.net === 2);
    const box = {
      minX: Math.min(p.at.x, q.at.x, r.at.x) - 3_000_000,
      minY: Math.min(p.at.y, q.at.y, r.at.y) - 3_000_000,
      maxX: Math.max(p.at.x, q.at.x, r.at.x) + 3_000_000,
      maxY: Math.max(p.at.y, q.at.y, r.at.y) + 3_000_000,
    };
    const scene = {
      board,
      tracks: [
        { start: p.at, end: q.at, width: 250_000, layer: 0, net: 1 },
        { start: r.at, end: { x: r.at.x, y: r.at.y + 5_000_000 }, width: 250_000, layer: 1, net: 2 },
      ],
      vias: [{ at: { x: r.at.x, y: r.at.y + 5_000_000 }, size: 600_000, drill: 300_000, layerFrom: 0, layerTo: 1, net: 2 }],
      box,
      layers: [0, 1],
      ratsnest: [],
    };
    const pic = renderPicture(scene);
    const safe = 'A&lt;&amp;&gt;&quot;\uFFFDB';
    expect(pic.svg).toContain(`<g data-net="${safe}"><title>${safe}</title><path d="M`);
    expect(pic.svg).toContain(`<g data-net="${board.nets[2].name}"><title>${board.nets[2].name}</title><circle`);
    expect(pic.svg).not.toContain('\u0001');
    expect(pic.svg).not.toContain('<text');
    expect(pic.labels.map((l) => l.net).sort()).toEqual([1, 2]);
    expect(pic.labels.find((l) => l.net === 1)!.text).toBe('A<&>"\u0001B');
    expect(pic.svg).toContain('<g class="net-labels">');
    expect(renderPicture({ ...scene, labels: false }).svg).not.toContain('net-labels');
    // The legend and the scale bar.
    expect(pic.layers).toEqual([
      { name: 'F.Cu', colour: '#C83434' },
      { name: 'B.Cu', colour: '#4D7FC4' },
    ]);
    expect(pic.svg).toContain('<g class="legend">');
    expect(pic.svg).toContain('<g class="scale-bar">');
    expect(pic.frame.scaleBar).toBeGreaterThan(0);
  });

  it('outlines blockers and the net asked about under their copper, which keeps its layer colour', () => {
    const { board } = loadDesignFile(benchBoards().find((x) => x.name === 'Blink-Eras_AVR_ISP_Pogo')!.bare);
    const [p, q] = board.pads.filter((x) => x.net === 1);
    const [r, t] = board.pads.filter((x) => x.net === 2);
    const box = { minX: 0, minY: 0, maxX: 300_000_000, maxY: 300_000_000 };
    const tracks = [
      { start: p.at, end: q.at, width: 250_000, layer: 1, net: 1 },
      { start: r.at, end: t.at, width: 250_000, layer: 0, net: 2 },
    ];
    const svg = renderSvg({ board, tracks, vias: [], box, layers: [0, 1], ratsnest: [], blockers: new Set([1]), highlight: new Set([2]) });
    const path = (tr: (typeof tracks)[number]) => `d="M${tr.start.x / 1e6} ${tr.start.y / 1e6} L${tr.end.x / 1e6} ${tr.end.y / 1e6}"`;
    const blocker = [...svg.matchAll(new RegExp(`<path ${path(tracks[0])} stroke="([^"]+)" stroke-width="([^"]+)"`, 'g'))].map((m) => [m[1], Number(m[2])]);
    // First the orange outline (wider), then the track in B.Cu's blue.
    expect(blocker).toHaveLength(2);
    expect(blocker[0][0]).toBe('#FF8C00');
    expect(blocker[1]).toEqual(['#4D7FC4', 0.25]);
    expect(blocker[0][1]).toBeGreaterThan(0.25);
    const asked = [...svg.matchAll(new RegExp(`<path ${path(tracks[1])} stroke="([^"]+)"`, 'g'))].map((m) => m[1]);
    expect(asked).toEqual(['#FFFFFF', '#C83434']);
  });
});
