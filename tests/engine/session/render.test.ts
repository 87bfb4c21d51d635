// The render tool over a real bench board: SVG and PNG answers with the picture's scale, the
// router's grid step and the legend; PNG through the plugin's resvg rasteriser as a session port.
import { describe, expect, it } from 'vitest';
import { loadDesignFile } from '../../../plugin/design-files.ts';
import { rasterise } from '../../../plugin/rasterise.ts';
import { Session } from '../../../engine/session/session.ts';
import { gridStep } from '../../../engine/route/plan/grid-step.ts';
import { hostFromDesign } from '../../../engine/route/design/host-from-design.ts';
import { chooseStep } from '../../../engine/route/plan/grid-step.ts';
import { profileOf } from '../../../engine/route/plan/profiles.ts';
import { benchBoards } from '../../support/bench.ts';
import { err, ok } from '../../support/tool-results.ts';
import { colourCount, countBright, decodePng, isPng, pngSize } from '../../support/png.ts';
import { fakePorts, fakeRoute, FAKE_COST } from './fake-router.ts';

const board = benchBoards().find((b) => b.name === 'Blink-Eras_AVR_ISP_Pogo')!;

function open(withRasteriser = true) {
  const design = loadDesignFile(board.bare);
  return new Session(design, { ...fakePorts(), ...(withRasteriser ? { rasterise } : {}) }, { boardName: 'b.kicad_pcb' });
}

describe('render', () => {
  it('answers SVG as before, with the scale, the grid step and the legend beside it', async () => {
    const s = open();
    const r = ok(await s.call('render', {}));
    expect(Object.keys(r).slice(0, 4)).toEqual(['state', 'box_mm', 'mime', 'svg']);
    expect(r.mime).toBe('image/svg+xml');
    expect(r.svg?.startsWith('<svg')).toBe(true);
    const [x1, y1, x2, y2] = r.box_mm;
    expect(Math.max(r.width_px, r.height_px)).toBe(1200);
    expect(Math.abs(r.width_px / r.height_px - (x2 - x1) / (y2 - y1))).toBeLessThan(0.01);
    expect(r.px_per_mm).toBeCloseTo(1200 / Math.max(x2 - x1, y2 - y1), 2);
    expect(r.svg).toContain(`width="${r.width_px}" height="${r.height_px}"`);
    expect([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50]).toContain(r.scale_bar_mm);
    expect(r.scale_bar_mm).toBeLessThanOrEqual((x2 - x1) / 5);
    expect(r.legend.layers).toEqual([
      { name: 'F.Cu', colour: '#C83434' },
      { name: 'B.Cu', colour: '#4D7FC4' },
    ]);
    expect(r.legend.blocker_outline).toBe('#FF8C00');
  });

  it('gives the grid step the router takes for every net of the board', async () => {
    const s = open();
    const r = ok(await s.call('render', {}));
    const host = hostFromDesign(s.design);
    const nets = [...new Set(host.pads.map((p) => p.net).filter((n) => n > 0))].sort((a, b) => a - b);
    const classes = new Map<string, number>();
    for (const n of nets) if (!classes.has(host.rules.className(n))) classes.set(host.rules.className(n), n);
    const expected = chooseStep(
      [...classes].map(([k, n]) => profileOf(host, n, k)),
      host.pads,
    );
    expect(gridStep(host)).toBe(expected);
    expect(r.grid_pitch_mm).toBe(expected / 1e6);
    expect(r.grid_pitch_mm).toBeGreaterThanOrEqual(0.05);
    expect(r.grid_pitch_mm).toBeLessThanOrEqual(0.2);
  });

  it("answers a PNG of the picture's size with the routed nets labelled on it", async () => {
    const s = open();
    ok(await s.call('route', {}));
    const svg = ok(await s.call('render', {}));
    const r = ok(await s.call('render', { format: 'png' }));
    expect(Object.keys(r).slice(0, 4)).toEqual(['state', 'box_mm', 'mime', 'png_base64']);
    expect(r).toMatchObject({ state: 1, mime: 'image/png' });
    expect(r.svg).toBeUndefined();
    const { svg: _svg, mime: _m, ...svgMeta } = svg;
    const { png_base64: b64, mime: _p, ...pngMeta } = r;
    expect(pngMeta).toEqual(svgMeta);
    const png = Buffer.from(b64 ?? '', 'base64');
    expect(isPng(png)).toBe(true);
    expect(pngSize(png)).toEqual({ width: r.width_px, height: r.height_px });
    const [x1, y1, x2, y2] = r.box_mm;
    expect(Math.abs(r.width_px - ((x2 - x1) / (y2 - y1)) * r.height_px)).toBeLessThanOrEqual(1);
    // Six routed nets, each labelled; the labels' white strokes are on the pixels.
    expect(r.labelled_nets).toBe(6);
    const px = decodePng(png);
    expect(colourCount(px)).toBeGreaterThan(8);
    const plain = decodePng(Buffer.from(ok(await s.call('render', { format: 'png', labels: false })).png_base64 ?? '', 'base64'));
    expect(countBright(px, 0, 0, px.width, px.height)).toBeGreaterThan(countBright(plain, 0, 0, plain.width, plain.height) + 6 * 30);
  });

  it('outlines the blockers of a stuck connection at its pad, keeping their layer colour', async () => {
    const design = loadDesignFile(board.bare);
    // The stand-in router routes one connection and says the rest were blocked by the first net.
    const ports = {
      ...fakePorts(),
      rasterise,
      route: async (d: typeof design, req: Parameters<typeof fakeRoute>[1]) => {
        const res = await fakeRoute(d, { ...req, work: FAKE_COST, variants: 1 });
        const by = res.tracks[0].net;
        for (const c of res.connections)
          if (c.stuck) c.stuck = { ...c.stuck, reason: 'blocked', blockers: [{ net: by, name: d.board.nets[by].name, count: 3 }] };
        return res;
      },
    };
    const s = new Session(design, ports, { boardName: 'b.kicad_pcb' });
    expect(ok(await s.call('route', {})).routed).toBe(1);
    const track = s.states.current.copper.tracks[0];
    const stuck = ok(await s.call('open_connections', {})).connections[0];
    expect(stuck.blockers?.[0].net).toBe(design.board.nets[track.net].name);
    // The whole board in view, the blockers those of the connections ending on the pad.
    const r = ok(await s.call('render', { pad: stuck.a, box_mm: [100, 50, 200, 150] }));
    const d = `d="M${track.start.x / 1e6} ${track.start.y / 1e6} L${track.end.x / 1e6} ${track.end.y / 1e6}"`;
    const strokes = [...(r.svg ?? '').matchAll(/<path d="([^"]+)" stroke="([^"]+)"/g)].filter((m) => `d="${m[1]}"` === d).map((m) => m[2]);
    // The blocker's track: an orange outline beneath, then the track in F.Cu's red.
    expect(strokes).toEqual(['#FF8C00', '#C83434']);
    const png = ok(await s.call('render', { pad: stuck.a, format: 'png' }));
    expect(pngSize(Buffer.from(png.png_base64 ?? '', 'base64'))).toEqual({ width: png.width_px, height: png.height_px });
  });

  it('frames a net along one row no thinner than 4:1', async () => {
    const s = open();
    const net = ok(await s.call('open_connections', {})).connections[0];
    const r = ok(await s.call('render', { net: net.net, format: 'png' }));
    const [x1, y1, x2, y2] = r.box_mm;
    expect(Math.max(x2 - x1, y2 - y1) / Math.min(x2 - x1, y2 - y1)).toBeLessThanOrEqual(4.0001);
    expect(pngSize(Buffer.from(r.png_base64 ?? '', 'base64'))).toEqual({ width: r.width_px, height: r.height_px });
  });

  it('says a session without a rasteriser cannot answer PNG, and still answers SVG', async () => {
    const s = open(false);
    const e = err(await s.call('render', { format: 'png' }));
    expect(e.code).toBe('not_supported');
    expect(e.message).toMatch(/^render: format "png"/);
    expect(ok(await s.call('render', { format: 'svg' })).mime).toBe('image/svg+xml');
    expect(err(await s.dispatch('render', { format: 'gif' })).code).toBe('bad_argument');
  });
});
