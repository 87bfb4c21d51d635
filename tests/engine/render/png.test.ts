// The picture as the PNG rasteriser (resvg in WebAssembly) draws it: the SVG's size, and the net
// labels really on the pixels (they are strokes, so no font is needed for them to appear).
import { describe, expect, it } from 'vitest';
import { renderPicture, type RenderScene } from '../../../engine/render/svg.ts';
import { loadDesignFile } from '../../../plugin/design-files.ts';
import { rasterise } from '../../../plugin/rasterise.ts';
import { benchBoards } from '../../support/bench.ts';
import { colourCount, countBright, decodePng, isPng, pngSize } from '../../support/png.ts';

describe('PNG pictures', () => {
  const { board } = loadDesignFile(benchBoards().find((x) => x.name === 'Blink-Eras_AVR_ISP_Pogo')!.bare);
  const [p, q] = board.pads.filter((x) => x.net === 1);
  const [r, s] = board.pads.filter((x) => x.net === 2);
  const xs = [p, q, r, s].map((x) => x.at.x);
  const ys = [p, q, r, s].map((x) => x.at.y);
  const box = { minX: Math.min(...xs) - 4_000_000, minY: Math.min(...ys) - 2_000_000, maxX: Math.max(...xs) + 4_000_000, maxY: Math.max(...ys) + 2_000_000 };
  const scene: RenderScene = {
    board,
    tracks: [
      { start: p.at, end: q.at, width: 250_000, layer: 0, net: 1 },
      { start: r.at, end: s.at, width: 250_000, layer: 1, net: 2 },
    ],
    vias: [],
    box,
    layers: [0, 1],
    ratsnest: [],
  };

  it("is a PNG of the SVG's size with the labels drawn where they were placed", async () => {
    const pic = renderPicture(scene);
    expect(pic.labels.length).toBe(2);
    const png = await rasterise(pic.svg);
    expect(isPng(png)).toBe(true);
    expect(pngSize(png)).toEqual({ width: pic.frame.widthPx, height: pic.frame.heightPx });
    const plain = await rasterise(renderPicture({ ...scene, labels: false }).svg);
    expect(Buffer.from(png).equals(Buffer.from(plain))).toBe(false);
    const withLabels = decodePng(png);
    const without = decodePng(plain);
    expect(colourCount(withLabels)).toBeGreaterThan(4);
    const k = pic.frame.pxPerMm / 1e6;
    for (const l of pic.labels) {
      const rect = [(l.box.minX - box.minX) * k, (l.box.minY - box.minY) * k, (l.box.maxX - box.minX) * k, (l.box.maxY - box.minY) * k] as const;
      // White strokes of the label's glyphs: many bright pixels there, none without labels.
      expect(countBright(withLabels, ...rect), l.text).toBeGreaterThan(30);
      expect(countBright(without, ...rect), l.text).toBe(0);
    }
  });

  it('draws the same bytes for the same picture', async () => {
    const svg = renderPicture(scene).svg;
    expect(Buffer.from(await rasterise(svg)).equals(Buffer.from(await rasterise(svg)))).toBe(true);
  });
});
