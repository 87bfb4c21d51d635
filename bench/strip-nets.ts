// The plugin's everyday case made from a person's routing: from each reference board, a stable
// quarter of its signal nets (at most 10; none a zone's net, none without routed copper) has its
// tracks and vias taken out, every other byte kept. Prints, per board, the stripped file, the nets
// and the person's length, vias and track items (segments and arcs) of what was taken, as JSON.
//   node --import tsx bench/strip-nets.ts OUTDIR REF.kicad_pcb…
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { trackLength } from '../engine/geom/arc.ts';
import { stripBoard } from './strip-board.ts';

function strip(file: string, outDir: string): { board: string; nets: string[]; person_mm: number; person_vias: number; person_segments: number } {
  const { text: out, nets, tracks, vias } = stripBoard(readFileSync(file, 'utf8'), file);
  const mm = tracks.reduce((s, t) => s + trackLength(t), 0) / 1e6;
  const stem = basename(file).replace(/\.ref\.kicad_pcb$|\.kicad_pcb$/, '');
  mkdirSync(outDir, { recursive: true });
  const to = join(outDir, `${stem}.kicad_pcb`);
  writeFileSync(to, out);
  // The rules go with the board (the bare board's project, as the judge takes it).
  const dir = file.slice(0, file.length - basename(file).length);
  for (const ext of ['.kicad_pro', '.kicad_dru']) if (existsSync(join(dir, stem + ext))) copyFileSync(join(dir, stem + ext), join(outDir, stem + ext));
  return { board: to, nets, person_mm: Math.round(mm * 1000) / 1000, person_vias: vias.length, person_segments: tracks.length };
}

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) {
  process.stderr.write('usage: node --import tsx bench/strip-nets.ts OUTDIR REF.kicad_pcb…\n');
  process.exit(2);
}
const result: Record<string, ReturnType<typeof strip>> = {};
for (const f of files) result[f] = strip(f, join(outDir, basename(f).replace(/\.ref\.kicad_pcb$|\.kicad_pcb$/, '')));
process.stdout.write(JSON.stringify(result) + '\n');
