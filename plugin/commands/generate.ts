// `tracemaker generate --nets N --pads-per-net K --layers L --size WxH --seed S --out FILE`:
// writes a synthetic KiCad 9 board and its `.kicad_pro` beside it (same stem); --blind-vias and
// --micro-vias set the project rules that allow those vias; --pairs N adds differential pairs, and
// --length-rules skew=MM,min=MM,max=MM their length rules as a `.kicad_dru` beside it.

import { writeFileSync } from 'node:fs';
import { generateBoard } from '../../engine/kicad/generate-board.ts';
import { UsageError } from '../design-files.ts';
import type { Command } from './command.ts';

export const generate: Command = {
  name: 'generate',
  summary: 'write a synthetic board of random nets on real parts (for tests and benchmarks)',
  usage:
    'tracemaker generate --nets N --pads-per-net K --layers L --size WxH --seed S --out FILE [--blind-vias] [--micro-vias] [--pairs N [--length-rules skew=MM,min=MM,max=MM]]',
  flags: {
    nets: 'number',
    'pads-per-net': 'number',
    layers: 'number',
    size: 'string',
    seed: 'number',
    out: 'string',
    'blind-vias': 'boolean',
    'micro-vias': 'boolean',
    pairs: 'number',
    'length-rules': 'string',
  },
  minPositional: 0,
  run(args, out) {
    const f = args.flags;
    const outPath = f.out;
    if (typeof outPath !== 'string' || !outPath.endsWith('.kicad_pcb'))
      throw new UsageError(`generate: --out must name a .kicad_pcb file\nusage: ${this.usage}`);
    const size = typeof f.size === 'string' ? f.size : '50x40';
    const m = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/.exec(size);
    if (!m) throw new UsageError(`generate: --size expects WxH in mm (e.g. 50x40), got "${size}"`);
    const int = (name: string, dflt: number) => {
      const v = f[name] === undefined ? dflt : Number(f[name]);
      if (!Number.isInteger(v)) throw new UsageError(`generate: --${name} expects an integer, got ${f[name]}`);
      return v;
    };
    let text;
    try {
      text = generateBoard({
        nets: int('nets', 10),
        padsPerNet: int('pads-per-net', 3),
        layers: int('layers', 2),
        width: Number(m[1]),
        height: Number(m[2]),
        seed: int('seed', 1),
        blindVias: f['blind-vias'] === true,
        microVias: f['micro-vias'] === true,
        pairs: int('pairs', 0),
        ...(typeof f['length-rules'] === 'string' ? { lengthRules: parseLengthRules(f['length-rules']) } : {}),
      });
    } catch (e) {
      if (e instanceof RangeError) throw new UsageError(e.message);
      throw e;
    }
    writeFileSync(outPath, text.board);
    writeFileSync(outPath.replace(/\.kicad_pcb$/, '.kicad_pro'), text.project);
    if (text.rules) writeFileSync(outPath.replace(/\.kicad_pcb$/, '.kicad_dru'), text.rules);
    out.stdout(`${outPath}\n`);
    return 0;
  },
};

/** `skew=0.5,max=40` → { skew: 0.5, max: 40 } (mm). */
function parseLengthRules(v: string): { skew?: number; min?: number; max?: number } {
  const out: { skew?: number; min?: number; max?: number } = {};
  for (const part of v.split(',')) {
    const m = /^\s*(skew|min|max)\s*=\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!m) throw new UsageError(`generate: --length-rules expects skew=MM, min=MM and max=MM separated by commas, got "${part}"`);
    out[m[1] as 'skew' | 'min' | 'max'] = Number(m[2]);
  }
  return out;
}
