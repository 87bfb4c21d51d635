// The arrows between top-level folders go one way (ARCHITECTURE.md): engine/ imports nothing of
// ipc/, plugin/ or ui/ and nothing from node:*; ipc/ imports nothing of engine/ or plugin/.
// esbuild bundles each folder's files and its metafile says what they really pulled in.
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

async function imports(folder: string): Promise<{ files: string[]; external: string[] }> {
  const entryPoints = tsFiles(join(ROOT, folder));
  const external: string[] = [];
  const result = await build({
    entryPoints,
    bundle: true,
    write: false,
    metafile: true,
    outdir: join(ROOT, 'dist', 'boundary-check'),
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
    plugins: [
      {
        name: 'record-builtins',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            if (BUILTINS.has(args.path)) {
              external.push(`${relative(ROOT, args.importer)} → ${args.path}`);
              return { path: args.path, external: true };
            }
            return undefined;
          });
        },
      },
    ],
  });
  const meta = result.metafile as Metafile;
  return { files: Object.keys(meta.inputs).map((p) => relative(ROOT, join(ROOT, p))), external };
}

describe('folder boundaries', () => {
  it('engine/ imports no node builtins and nothing of ipc/, plugin/, ui/', async () => {
    const { files, external } = await imports('engine');
    expect(files.length).toBeGreaterThan(10);
    expect(external).toEqual([]);
    expect(files.filter((f) => /^(ipc|plugin|ui)\//.test(f))).toEqual([]);
  });

  it('ipc/ imports nothing of engine/, plugin/, ui/', async () => {
    const { files } = await imports('ipc');
    expect(files.some((f) => f.startsWith('ipc/'))).toBe(true);
    expect(files.filter((f) => /^(engine|plugin|ui)\//.test(f))).toEqual([]);
  });

  it('inside engine/, geom imports nothing and board only geom; route, drc, render and session nothing of the file format (kicad)', () => {
    const bad: string[] = [];
    const allowed: [string, RegExp][] = [
      ['geom', /^$/],
      ['board', /^geom$/],
      ['route', /^(?!kicad$)/],
      ['drc', /^(?!kicad$)/],
      ['render', /^(?!kicad$)/],
      ['session', /^(?!kicad$)/],
    ];
    for (const [folder, ok] of allowed) {
      for (const f of tsFiles(join(ROOT, 'engine', folder))) {
        // Type-only imports count too: esbuild's metafile does not see them, so the text is read.
        for (const m of readFileSync(f, 'utf8').matchAll(/^import[^;]*? from '\.\.\/([a-z-]+)\//gm)) {
          if (!ok.test(m[1])) bad.push(`${relative(ROOT, f)} → engine/${m[1]}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('engine/ holds no clock, Math.random or process access', () => {
    const bad: string[] = [];
    for (const f of tsFiles(join(ROOT, 'engine'))) {
      const text = readFileSync(f, 'utf8');
      for (const pat of [/\bDate\.now\(/, /\bnew Date\(/, /\bMath\.random\(/, /\bperformance\.now\(/, /\bprocess\./, /\bsetTimeout\(/]) {
        if (pat.test(text)) bad.push(`${relative(ROOT, f)}: ${pat.source}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

