// `tracemaker package [--out FILE]`: the zip for KiCad's Plugin and Content Manager ("Install from
// file"), built from the repository around this bundle (run `npm run package`, which builds first).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '../kicad-host/pcm-package.ts';
import type { Command } from './command.ts';

export const pcmPackage: Command = {
  name: 'package',
  summary: "build the zip for KiCad's Plugin and Content Manager (Install from file)",
  usage: 'tracemaker package [--out FILE]',
  flags: { out: 'string' },
  minPositional: 0,
  run(args, out) {
    // The bundle is dist/tracemaker.js; the repository is the folder above dist/.
    const bundle = fileURLToPath(import.meta.url);
    const root = resolve(dirname(bundle), '..');
    const target = typeof args.flags.out === 'string' ? resolve(args.flags.out) : join(root, 'dist', 'tracemaker-kicad-pcm.zip');
    const r = buildPackage({ root, bundle, ui: join(dirname(bundle), 'ui'), wasm: join(dirname(bundle), 'resvg.wasm') }, target);
    out.stdout(`${r.path}: ${r.files} files, ${r.bytes} bytes\n`);
    return 0;
  },
};
