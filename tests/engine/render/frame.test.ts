// The picture's frame (size, scale, scale bar), the stroke font and where net labels go.
import { describe, expect, it } from 'vitest';
import { MAX_ASPECT, pictureFrame, scaleBarLength, widenToAspect } from '../../../engine/render/frame.ts';
import { clipToBox, labelText, placeNetLabels } from '../../../engine/render/net-labels.ts';
import { ADVANCE_UNITS, CAP_UNITS, DESCENT_UNITS, strokeText, textWidth } from '../../../engine/render/stroke-font.ts';

describe('picture frame', () => {
  it("keeps the region's aspect with the longer side capped, and a round scale bar about a fifth of the width", () => {
    expect(pictureFrame({ minX: 110e6, minY: 91e6, maxX: 124e6, maxY: 101e6 })).toEqual({
      widthPx: 1200,
      heightPx: 857,
      pxPerMm: 1200 / 14,
      scaleBar: 2_000_000,
    });
    expect(pictureFrame({ minX: 0, minY: 0, maxX: 10e6, maxY: 40e6 }, 800)).toEqual({ widthPx: 200, heightPx: 800, pxPerMm: 20, scaleBar: 2_000_000 });
    expect(scaleBarLength(100e6)).toBe(20e6);
    expect(scaleBarLength(6e6)).toBe(1e6);
    expect(scaleBarLength(2.4e6)).toBe(0.2e6);
    expect(scaleBarLength(300e6)).toBe(50e6);
    expect(scaleBarLength(1000)).toBe(10_000);
  });

  it('widens a sliver of a region about its middle, and leaves a fair one alone', () => {
    const fair = { minX: 0, minY: 0, maxX: 40e6, maxY: 10e6 };
    expect(widenToAspect(fair)).toEqual(fair);
    const thin = widenToAspect({ minX: 0, minY: 5e6, maxX: 80e6, maxY: 5e6 });
    expect(thin).toEqual({ minX: 0, minY: 5e6 - 10e6, maxX: 80e6, maxY: 5e6 + 10e6 });
    expect((thin.maxX - thin.minX) / (thin.maxY - thin.minY)).toBe(MAX_ASPECT);
    const point = widenToAspect({ minX: 7, minY: 7, maxX: 7, maxY: 7 });
    expect(point.maxX - point.minX).toBe(1000);
    expect(point.maxY - point.minY).toBe(1000);
  });
});

describe('stroke font', () => {
  it('draws every printable ASCII character as its own glyph inside the glyph cell', () => {
    const box = strokeText('\u00b5', 0, 0, 600);
    const shapes = new Set<string>([JSON.stringify(box)]);
    for (let c = 33; c < 127; c++) {
      const ch = String.fromCharCode(c);
      const lines = strokeText(ch, 0, 0, 600);
      expect(lines.length, ch).toBeGreaterThan(0);
      for (const l of lines) {
        for (let i = 0; i < l.length; i += 2) {
          expect(l[i], ch).toBeGreaterThanOrEqual(0);
          expect(l[i], ch).toBeLessThanOrEqual(((ADVANCE_UNITS - 1) * 600) / CAP_UNITS);
          expect(l[i + 1], ch).toBeGreaterThanOrEqual(0);
          expect(l[i + 1], ch).toBeLessThanOrEqual(((CAP_UNITS + DESCENT_UNITS) * 600) / CAP_UNITS);
        }
      }
      const key = JSON.stringify(lines);
      expect(shapes.has(key), `${ch} draws like another glyph or the missing-glyph box`).toBe(false);
      shapes.add(key);
    }
    expect(strokeText(' ', 0, 0, 600)).toEqual([]);
  });

  it('advances glyphs evenly and measures text the same way', () => {
    const two = strokeText('II', 1000, 2000, 600);
    const one = strokeText('I', 1000, 2000, 600);
    expect(two.slice(one.length)).toEqual(one.map((l) => l.map((v, i) => (i % 2 === 0 ? v + 500 : v))));
    expect(textWidth('II', 600)).toBe(900);
    expect(textWidth('', 600)).toBe(0);
  });
});

describe('net labels', () => {
  const view = { minX: 0, minY: 0, maxX: 20_000_000, maxY: 10_000_000 };

  it('shows the last part of a hierarchical name and clips long ones', () => {
    expect(labelText('/power/+3V3')).toBe('+3V3');
    expect(labelText('GND')).toBe('GND');
    expect(labelText('/')).toBe('/');
    expect(labelText('x'.repeat(40))).toBe('x'.repeat(22) + '..');
  });

  it('clips a track to the picture', () => {
    expect(clipToBox({ net: 1, ax: -10e6, ay: 5e6, bx: 30e6, by: 5e6 }, view)).toEqual({ net: 1, ax: 0, ay: 5e6, bx: 20e6, by: 5e6 });
    expect(clipToBox({ net: 1, ax: -10e6, ay: -5e6, bx: -1e6, by: -1e6 }, view)).toBeUndefined();
  });

  it('puts one label a net on its longest visible track, inside the picture, none overlapping', () => {
    const tracks = [
      { net: 1, ax: 1e6, ay: 5e6, bx: 19e6, by: 5e6 },
      { net: 1, ax: 1e6, ay: 1e6, bx: 3e6, by: 1e6 },
      // Net 2 runs beside net 1's middle, so its label has to move along.
      { net: 2, ax: 6e6, ay: 5.2e6, bx: 14e6, by: 5.2e6 },
      { net: 3, ax: 25e6, ay: 5e6, bx: 30e6, by: 5e6 },
      { net: 0, ax: 1e6, ay: 8e6, bx: 19e6, by: 8e6 },
    ];
    const names = (n: number) => ['', 'VCC', 'SIG', 'OUT'][n];
    const labels = placeNetLabels(tracks, names, view, 600_000, 150_000);
    expect(labels.map((l) => [l.net, l.text])).toEqual([
      [1, 'VCC'],
      [2, 'SIG'],
    ]);
    const [a, b] = labels;
    // VCC's label is centred on the middle of its long track.
    expect(a.x + textWidth('VCC', 600_000) / 2).toBeCloseTo(10e6, -3);
    expect(a.box.maxX <= b.box.minX || b.box.maxX <= a.box.minX || a.box.maxY <= b.box.minY || b.box.maxY <= a.box.minY).toBe(true);
    for (const l of labels) {
      expect(l.box.minX).toBeGreaterThanOrEqual(view.minX);
      expect(l.box.maxX).toBeLessThanOrEqual(view.maxX);
      expect(l.box.minY).toBeGreaterThanOrEqual(view.minY);
      expect(l.box.maxY).toBeLessThanOrEqual(view.maxY);
    }
    expect(placeNetLabels([...tracks].reverse(), names, view, 600_000, 150_000)).toEqual(labels);
    // A box already drawn on (the legend) keeps labels off it.
    const avoided = placeNetLabels(tracks, names, view, 600_000, 150_000, [{ minX: 0, minY: 0, maxX: 20e6, maxY: 10e6 }]);
    expect(avoided).toEqual([]);
  });
});
