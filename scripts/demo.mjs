// `npm start`: routes the demo board in assets/ into out/ and checks the result with the
// engine's DRC, using the demo's own rules (its .kicad_pro is copied beside the output).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync('out', { recursive: true });
copyFileSync('assets/demo.kicad_pro', 'out/demo.kicad_pro');
for (const args of [
  ['route', 'assets/demo.kicad_pcb', '--out', 'out/demo.routed.kicad_pcb'],
  ['drc', 'out/demo.routed.kicad_pcb'],
]) {
  console.log(`$ tracemaker ${args.join(' ')}`);
  const r = spawnSync(process.execPath, ['dist/tracemaker.js', ...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
