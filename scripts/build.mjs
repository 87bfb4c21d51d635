// Bundles the `tracemaker` command (plugin/cli.ts) into one ESM file, dist/tracemaker.js.
import { build } from 'esbuild';

await build({
  entryPoints: ['plugin/cli.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: 'dist/tracemaker.js',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __tmCreateRequire } from 'node:module'; const require = __tmCreateRequire(import.meta.url);" },
});
