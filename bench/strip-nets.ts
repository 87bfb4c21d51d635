// The plugin's everyday case made from a person's routing: from each reference board, a stable
// quarter of its signal nets (at most 10; none a zone's net, none without routed copper) has its
// tracks and vias taken out, every other byte kept. Prints, per board, the stripped file, the nets
// and the person's length, vias and track items (segments and arcs) of what was taken, as JSON.
//   node --import tsx bench/strip-nets.ts OUTDIR REF.kicad_pcb…
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseBoard } from '../engine/kicad/read-board.ts';
import { parseSexpr } from '../engine/kicad/sexpr.ts';
import type { Track } from '../engine/board/model.ts';
import { arcGeometry } from '../engine/geom/arc.ts';
import { chooseNets } from './choose-nets.ts';

function trackLengthMm(t: Track): number {
  const g = t.mid && arcGeometry(t.start.x, t.start.y, t.mid.x, t.mid.y, t.end.x, t.end.y);
  return (g ? g.r * g.sweep : Math.hypot(t.end.x - t.start.x, t.end.y - t.start.y)) / 1e6;
}

function strip(file: string, outDir: string): { board: string; nets: string[]; person_mm: number; person_vias: number; person_segments: number } {
  const text = readFileSync(file, 'utf8');
  const board = parseBoard(text, { source: file });
  const nets = chooseNets(board);
  const codes = new Set(nets.map((n) => board.netByName.get(n)!));
  const cut = new Set<number>();
  let mm = 0;
  let segments = 0;
  for (const t of board.tracks)
    if (codes.has(t.net)) {
      cut.add(t.src);
      mm += trackLengthMm(t);
      segments++;
    }
  let vias = 0;
  for (const v of board.vias)
    if (codes.has(v.net)) {
      cut.add(v.src);
      vias++;
    }
  // Take out each cut item with the line it stands on, so the rest keeps its bytes.
  const root = parseSexpr(text, file);
  let out = '';
  let from = 0;
  for (const it of root.items) {
    if (it.kind !== 'list' || !cut.has(it.start)) continue;
    const lineStart = text.lastIndexOf('\n', it.start - 1) + 1;
    const startsLine = /^[ \t]*$/.test(text.slice(lineStart, it.start));
    const lineEnd = text.indexOf('\n', it.end);
    const endsLine = lineEnd >= 0 && /^[ \t\r]*$/.test(text.slice(it.end, lineEnd));
    const a = startsLine && endsLine ? lineStart : it.start;
    const b = startsLine && endsLine ? lineEnd + 1 : it.end;
    out += text.slice(from, a);
    from = b;
  }
  out += text.slice(from);
  const stem = basename(file).replace(/\.ref\.kicad_pcb$|\.kicad_pcb$/, '');
  mkdirSync(outDir, { recursive: true });
  const to = join(outDir, `${stem}.kicad_pcb`);
  writeFileSync(to, out);
  // The rules go with the board (the bare board's project, as the judge takes it).
  const dir = file.slice(0, file.length - basename(file).length);
  for (const ext of ['.kicad_pro', '.kicad_dru']) if (existsSync(join(dir, stem + ext))) copyFileSync(join(dir, stem + ext), join(outDir, stem + ext));
  return { board: to, nets, person_mm: Math.round(mm * 1000) / 1000, person_vias: vias, person_segments: segments };
}

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) {
  process.stderr.write('usage: node --import tsx bench/strip-nets.ts OUTDIR REF.kicad_pcb…\n');
  process.exit(2);
}
const result: Record<string, ReturnType<typeof strip>> = {};
for (const f of files) result[f] = strip(f, join(outDir, basename(f).replace(/\.ref\.kicad_pcb$|\.kicad_pcb$/, '')));
process.stdout.write(JSON.stringify(result) + '\n');
