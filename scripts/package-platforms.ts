// The platform packages: one zip each for Windows, macOS (arm64 and x64 in one: PCM has no processor
// field) and Linux, each carrying the official Node binary for its platform, so a KiCad user needs
// nothing else installed. Run by scripts/package.mjs after the bundle is built.
//   node --import tsx scripts/package-platforms.ts OUTDIR
import { join, resolve } from 'node:path';
import { buildPackage } from '../plugin/kicad-host/pcm-package.ts';
import { NODE_VERSION, nodeBinary, nodeLicense, RUNTIMES } from './node-runtimes.ts';

const root = resolve(import.meta.dirname, '..');
const outDir = resolve(process.argv[2] ?? join(root, 'dist'));
const license = nodeLicense();
for (const platform of ['windows', 'macos', 'linux']) {
  const files = RUNTIMES.filter((r) => r.platform === platform).map((r) => ({
    dir: r.dir,
    exe: r.binary.endsWith('.exe') ? 'node.exe' : 'node',
    data: nodeBinary(r),
  }));
  const r = buildPackage(
    {
      root,
      bundle: join(root, 'dist', 'tracemaker.js'),
      ui: join(root, 'dist', 'ui'),
      wasm: join(root, 'dist', 'resvg.wasm'),
      runtimes: { platforms: [platform], files, license },
    },
    join(outDir, `tracemaker-kicad-pcm-${platform}.zip`),
  );
  console.log(`${r.path}: ${r.files} files, ${r.bytes} bytes (Node ${NODE_VERSION} for ${files.map((f) => f.dir).join(', ')})`);
}
