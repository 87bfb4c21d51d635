// Bundles the `tracemaker` command (plugin/cli.ts) into one ESM file, dist/tracemaker.js (also
// the script of its route worker threads); beside it the PNG rasteriser's WebAssembly
// (resvg.wasm, which plugin/rasterise.ts loads from beside the bundle) and the panel's page
// (dist/ui/: index.html, app.js for the browser, app.css), which the CLI's panel server serves.
// `--outdir DIR` builds the same into DIR instead of dist/ (tests run a bundle from elsewhere).
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const at = process.argv.indexOf('--outdir');
if (at >= 0 && !process.argv[at + 1]) throw new Error('build: --outdir needs a folder');
const out = at >= 0 ? resolve(process.argv[at + 1]) : join(root, 'dist');

// Some bundled CommonJS dependencies call require(); give the ESM bundles one.
const requireShim = { js: "import { createRequire as __tmCreateRequire } from 'node:module'; const require = __tmCreateRequire(import.meta.url);" };

await build({
  absWorkingDir: root,
  entryPoints: ['plugin/cli.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: join(out, 'tracemaker.js'),
  sourcemap: 'linked',
  logLevel: 'warning',
  banner: requireShim,
});
mkdirSync(out, { recursive: true });
copyFileSync(createRequire(join(root, 'package.json')).resolve('@resvg/resvg-wasm/index_bg.wasm'), join(out, 'resvg.wasm'));

await build({
  absWorkingDir: root,
  entryPoints: ['ui/app.ts', 'ui/app.css'],
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: ['chrome110', 'firefox110', 'safari16'],
  outdir: join(out, 'ui'),
  minify: true,
  logLevel: 'warning',
});
mkdirSync(join(out, 'ui'), { recursive: true });
copyFileSync(join(root, 'ui', 'index.html'), join(out, 'ui', 'index.html'));
