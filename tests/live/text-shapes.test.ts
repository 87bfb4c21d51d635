// Copper text glyphs from the running KiCad (GetTextAsShapes, on each KiCad under test), and the file
// reader's boxes held against them: on a board with every bench board's copper text and texts that try
// each justification, rotation, mirroring and footprint placement, every copper text must come back
// with glyphs, and every glyph stroke (at its pen width) must lie inside the box the file path gives.
// With those glyphs the engine's DRC finds what kicad-cli finds against copper text on that board.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runDrc } from '../../engine/drc/drc.ts';
import type { CopperGraphic, Primitive, Pt } from '../../engine/board/model.ts';
import { loadDesign } from '../../engine/kicad/load.ts';
import { readTextGlyphs } from '../../plugin/kicad-host/text-glyphs.ts';
import { describeKicads, useKicad, type Kicad } from './kicad-harness.ts';
import { writeTextBoard } from './text-board.ts';

/** How far `p` lies inside the convex polygon `ring` (nm; negative outside), either winding. */
function inside(ring: Pt[], p: Pt): number {
  let area = 0;
  for (let k = 0; k < ring.length; k++) {
    const a = ring[k];
    const b = ring[(k + 1) % ring.length];
    area += a.x * b.y - b.x * a.y;
  }
  const sign = area > 0 ? 1 : -1;
  let least = Infinity;
  for (let k = 0; k < ring.length; k++) {
    const a = ring[k];
    const b = ring[(k + 1) % ring.length];
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    least = Math.min(least, (sign * ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x))) / len);
  }
  return least;
}

/** Points of a glyph primitive with the reach around each (half the pen width). */
function reach(g: Primitive): { p: Pt; r: number }[] {
  switch (g.kind) {
    case 'line':
      return [g.a, g.b].map((p) => ({ p, r: g.width / 2 }));
    case 'arc': {
      // Start, mid, end and the quarter points between them, close enough for glyph-sized arcs.
      const mids = [g.start, g.mid, g.end];
      return mids.map((p) => ({ p, r: g.width / 2 + 20_000 }));
    }
    case 'circle':
      return [{ p: g.center, r: g.radius + g.width / 2 }];
    case 'rect':
      return [g.a, g.b, { x: g.a.x, y: g.b.y }, { x: g.b.x, y: g.a.y }].map((p) => ({ p, r: g.width / 2 }));
    case 'poly':
    case 'curve':
      return g.pts.map((p) => ({ p, r: g.width / 2 }));
  }
}

/** The smallest slack (nm) between a text's glyphs and its box; negative when a glyph pokes out. */
function slack(g: CopperGraphic): number {
  if (g.shape.kind !== 'poly') throw new Error('a copper text without its box polygon');
  const ring = g.shape.pts;
  let least = Infinity;
  for (const glyph of g.text!.glyphs!) for (const { p, r } of reach(glyph)) least = Math.min(least, inside(ring, p) - r);
  return least;
}

/** The same for a multi-line text's boxes per line: each glyph point inside one of them. */
function lineSlack(g: CopperGraphic): number {
  let least = Infinity;
  for (const glyph of g.text!.glyphs!)
    for (const { p, r } of reach(glyph)) least = Math.min(least, Math.max(...g.text!.lines!.map((ring) => inside(ring, p) - r)));
  return least;
}

function glyphBoxArea(glyphs: Primitive[]): number {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const g of glyphs)
    for (const { p, r } of reach(g)) {
      minX = Math.min(minX, p.x - r);
      minY = Math.min(minY, p.y - r);
      maxX = Math.max(maxX, p.x + r);
      maxY = Math.max(maxY, p.y + r);
    }
  return (maxX - minX) * (maxY - minY);
}

function polyArea(pts: Pt[]): number {
  let a = 0;
  for (let k = 0; k < pts.length; k++) a += pts[k].x * pts[(k + 1) % pts.length].y - pts[(k + 1) % pts.length].x * pts[k].y;
  return Math.abs(a) / 2;
}

const run = promisify(execFile);

/** The copper checks a text takes part in (KiCad also holds copper text to the board edge; the
 *  engine does not, as the router never moves text). */
const COPPER_CHECKS = new Set(['clearance', 'shorting_items']);

/** kicad-cli's copper findings on a board that name a copper text, per type (its project file beside it). */
async function kicadTextFindings(kicad: Kicad, board: string): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-textdrc-'));
  try {
    copyFileSync(board, join(dir, 'b.kicad_pcb'));
    copyFileSync(board.replace(/\.kicad_pcb$/, '.kicad_pro'), join(dir, 'b.kicad_pro'));
    await run(kicad.cli, ['pcb', 'drc', '--format', 'json', '--units', 'mm', '-o', join(dir, 'd.json'), join(dir, 'b.kicad_pcb')], { maxBuffer: 64 << 20 });
    const data = JSON.parse(readFileSync(join(dir, 'd.json'), 'utf8')) as { violations: { type: string; items: { description: string }[] }[] };
    const out: Record<string, number> = {};
    for (const v of data.violations) {
      if (COPPER_CHECKS.has(v.type) && v.items.some((i) => /^PCB text|^Footprint text|^Field /.test(i.description))) out[v.type] = (out[v.type] ?? 0) + 1;
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeKicads("copper text glyphs from KiCad against the file reader's boxes", (kicad) => {
  const board = kicad.major === 0 ? '' : writeTextBoard(kicad);
  const live = useKicad(kicad, { board });

  describe('GetTextAsShapes', () => {
    it('gives glyphs for every copper text, inside the box the file path gives', async () => {
      const text = await live.client.boardText();
      const glyphs = await readTextGlyphs(live.client, text, (l) => console.log(l));
      const design = loadDesign({ board: text, boardName: 'text-board.kicad_pcb', textGlyphs: glyphs });
      const texts = design.board.graphics.filter((g) => g.text);
      // 8 sonde-xilinx texts, 18 + 19 + 1 from the other bench boards, 59 + 94 calibration texts, 2 in footprints.
      expect(texts.length).toBe(8 + 18 + 19 + 1 + 59 + 94 + 2);
      const bare = texts.filter((g) => !g.text!.glyphs?.length).map((g) => g.text!.value);
      expect(bare).toEqual([]);
      const rows = texts.map((g) => ({
        value: g.text!.value,
        layer: design.board.copperLayers[g.layer].name,
        footprint: g.footprint,
        strokes: g.text!.glyphs!.length,
        slack: Math.round(slack(g)),
        fill: glyphBoxArea(g.text!.glyphs!) / polyArea((g.shape as { pts: Pt[] }).pts),
      }));
      const worst = rows.reduce((a, b) => (b.slack < a.slack ? b : a));
      const loosest = rows.reduce((a, b) => (b.fill < a.fill ? b : a));
      const meanFill = rows.reduce((s, r) => s + r.fill, 0) / rows.length;
      console.log(
        `KiCad ${kicad.version}: ${rows.length} copper texts, ${rows.reduce((s, r) => s + r.strokes, 0)} glyph strokes; ` +
          `least slack ${(worst.slack / 1e6).toFixed(3)} mm ("${worst.value}"), glyph box / text box mean ${meanFill.toFixed(2)}, least ${loosest.fill.toFixed(2)} ("${loosest.value}")`,
      );
      const out = rows.filter((r) => r.slack < 0);
      expect(out, JSON.stringify(out)).toEqual([]);
      // Multi-line texts: each glyph inside its own line's box too (mask texts open only those).
      const multi = texts.filter((g) => g.text!.lines);
      expect(multi.length).toBeGreaterThanOrEqual(2);
      const outOfLine = multi.map((g) => ({ value: g.text!.value, slack: Math.round(lineSlack(g)) })).filter((r) => r.slack < 0);
      expect(outOfLine, JSON.stringify(outOfLine)).toEqual([]);
    });

    it('gives the DRC the findings KiCad reports against copper text', async () => {
      const path = live.instance.boardPath;
      const text = readFileSync(path, 'utf8');
      const glyphs = await readTextGlyphs(live.client, text);
      const design = loadDesign({
        board: text,
        boardName: path,
        project: readFileSync(path.replace(/\.kicad_pcb$/, '.kicad_pro'), 'utf8'),
        textGlyphs: glyphs,
      });
      const engine: Record<string, number> = {};
      for (const v of runDrc(design).violations) {
        if (COPPER_CHECKS.has(v.type) && v.items.some((i) => i.kind === 'graphic' && design.board.graphics[i.index]?.text))
          engine[v.type] = (engine[v.type] ?? 0) + 1;
      }
      const theirs = await kicadTextFindings(kicad, path);
      console.log(
        `KiCad ${kicad.version}: findings naming a copper text: kicad-cli ${JSON.stringify(theirs)}, engine with KiCad's glyphs ${JSON.stringify(engine)}`,
      );
      expect(engine).toEqual(theirs);
    });
  });
});
