// `npm run package`: builds the bundle, then the Plugin and Content Manager zips: one per platform
// (Windows, macOS, Linux), each with its own Node runtime, and dist/tracemaker-kicad-pcm.zip without one
// (for a machine with Node 20+ installed). `npm run package -- --no-runtimes` makes only the last.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const run = (argv) => {
  const r = spawnSync(process.execPath, argv, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run(['scripts/build.mjs']);
run(['dist/tracemaker.js', 'package', ...args.filter((a) => a !== '--no-runtimes')]);
if (!args.includes('--no-runtimes')) run(['--import', 'tsx', 'scripts/package-platforms.ts', join(root, 'dist')]);
