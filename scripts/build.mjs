// Bundles the `tracemaker` command (plugin/cli.ts) into one ESM file, dist/tracemaker.js (also
// the script of its route worker threads); beside it the panel's page (dist/ui/: index.html,
// app.js for the browser, app.css), which the CLI's panel server serves.
import { copyFileSync, mkdirSync } from 'node:fs';
import { build } from 'esbuild';

// Some bundled CommonJS dependencies call require(); give the ESM bundles one.
const requireShim = { js: "import { createRequire as __tmCreateRequire } from 'node:module'; const require = __tmCreateRequire(import.meta.url);" };

await build({
  entryPoints: ['plugin/cli.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: 'dist/tracemaker.js',
  sourcemap: 'linked',
  logLevel: 'warning',
  banner: requireShim,
});

await build({
  entryPoints: ['ui/app.ts', 'ui/app.css'],
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: ['chrome110', 'firefox110', 'safari16'],
  outdir: 'dist/ui',
  minify: true,
  logLevel: 'warning',
});
mkdirSync('dist/ui', { recursive: true });
copyFileSync('ui/index.html', 'dist/ui/index.html');
