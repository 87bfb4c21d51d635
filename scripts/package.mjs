// `npm run package`: builds the bundle, then the Plugin and Content Manager zip (dist/tracemaker-kicad-pcm.zip).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run(['scripts/build.mjs']);
run(['dist/tracemaker.js', 'package', ...process.argv.slice(2)]);
