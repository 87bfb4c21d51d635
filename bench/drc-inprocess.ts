// In-process timing of the engine's DRC (what the plugin pays): for each board given, parse and
// check it once to warm up, then report the best of `runs` timed runs in ms as JSON on stdout.
import { readDesignFiles } from '../plugin/design-files.ts';
import { loadDesign } from '../engine/kicad/load.ts';
import { runDrc } from '../engine/drc/drc.ts';

const runs = 3;
const out: Record<string, { loadMs: number; drcMs: number }> = {};
for (const file of process.argv.slice(2)) {
  const files = readDesignFiles(file);
  let loadMs = Infinity;
  let drcMs = Infinity;
  for (let k = 0; k <= runs; k++) {
    const t0 = performance.now();
    const design = loadDesign(files);
    const t1 = performance.now();
    runDrc(design);
    const t2 = performance.now();
    if (k > 0) {
      loadMs = Math.min(loadMs, t1 - t0);
      drcMs = Math.min(drcMs, t2 - t1);
    }
  }
  out[file] = { loadMs, drcMs };
}
process.stdout.write(JSON.stringify(out) + '\n');
