// The arrows between top-level folders go one way (ARCHITECTURE.md): engine/ imports nothing of
// ipc/, plugin/ or ui/ and nothing from node:*; ipc/ imports nothing of engine/ or plugin/.
// esbuild bundles each folder's files and its metafile says what they really pulled in. Inside
// engine/ the text is read (type-only imports count too): each part only below itself, no circles.
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './support/ts-files.ts';

const ROOT = join(import.meta.dirname, '..');
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

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

  it('inside engine/, each part imports only the parts below it (type-only imports too)', () => {
    const bad: string[] = [];
    for (const [file, deps] of importsIn('engine')) {
      const from = partOf(file);
      const allowed = ALLOWED[from];
      for (const dep of deps) {
        const to = partOf(dep);
        if (to === from || allowed.some((a) => a === to || a === dep)) continue;
        if (EXCEPTIONS.some(([f, d]) => f === file && d === dep)) continue;
        bad.push(`${file} → ${dep}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the table of parts runs one way: no two parts may import each other', () => {
    const twoWay = Object.entries(ALLOWED).flatMap(([a, deps]) => deps.filter((b) => ALLOWED[b]?.includes(a)).map((b) => `${a} ↔ ${b}`));
    expect(twoWay).toEqual([]);
    expect(Object.keys(ALLOWED)).toEqual(expect.arrayContaining(ROUTE_STAGES));
  });

  it('no import circles, type-only imports included', () => {
    const graph = importsIn('engine', 'ipc', 'plugin', 'ui');
    expect(graph.size).toBeGreaterThan(100);
    // Every import the walk follows is a file it read: none slips past the check unresolved.
    expect([...graph.values()].flat().filter((d) => d.endsWith('.ts') && !graph.has(d))).toEqual([]);
    expect(importCircles(graph)).toEqual([]);
    // The check itself finds a circle when there is one.
    expect(
      importCircles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
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

/** The router's stages, top to bottom (README's Layout): each imports only those below it. The
 *  public face (index.ts) is the top; the vocabulary every stage speaks (types.ts) sits just above
 *  the search core, which sees only geom and its host interface. */
const ROUTE_STAGES = [
  'route',
  'route/plan',
  'route/pairs',
  'route/escape',
  'route/repair',
  'route/zones',
  'route/finish',
  'route/explain',
  'route/negotiate',
  'route/design',
  'route/types',
  'route/core',
];

/** The part of engine/ a file belongs to: its folder, and inside route/ its stage. */
function partOf(file: string): string {
  if (file === 'engine/route/index.ts') return 'route';
  if (file === 'engine/route/types.ts') return 'route/types';
  const m = /^engine\/(route\/[a-z]+|[a-z]+)\//.exec(file);
  if (!m || m[1] === 'route') throw new Error(`not in a part of engine/: ${file}`);
  return m[1];
}

/** What of the DRC a stage may use: all of it where the router's results are judged (planning,
 *  pairs and length, the adapters that read solder mask), else only its contact rule. */
const DRC_FOR: Record<string, string[]> = {
  'route/plan': ['drc'],
  'route/pairs': ['drc'],
  'route/design': ['drc'],
};

/** Which parts each part may import besides itself: nothing but kicad/ knows the file format,
 *  the session reaches the router through its public face, and each stage of the router only
 *  the stages below it. */
const ALLOWED: Record<string, string[]> = {
  geom: [],
  board: ['geom'],
  kicad: ['geom', 'board'],
  drc: ['geom', 'board'],
  render: ['geom', 'board'],
  session: ['geom', 'board', 'drc', 'render', 'route'],
  ...Object.fromEntries(
    ROUTE_STAGES.map((stage, i) => [
      stage,
      stage === 'route/core' ? ['geom'] : ['geom', 'board', ...(DRC_FOR[stage] ?? ['engine/drc/connectivity.ts']), ...ROUTE_STAGES.slice(i + 1)],
    ]),
  ),
};

/** The host interface is the one file of the route core that names board types (a point and a
 *  via type, passed on). */
const EXCEPTIONS: [string, string][] = [['engine/route/core/host.ts', 'engine/board/model.ts']];

/** Every file's relative imports (static, type-only, re-exports, dynamic) in some folders, as
 *  paths from the root. */
function importsIn(...folders: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of folders.flatMap((d) => tsFiles(join(ROOT, d)))) {
    const deps: string[] = [];
    for (const m of readFileSync(f, 'utf8').matchAll(/(?:^(?:import|export)[^;]*? from |import\()\s*'(\.[^']+)'/gm)) {
      deps.push(relative(ROOT, resolve(dirname(f), m[1])));
    }
    graph.set(relative(ROOT, f), deps);
  }
  return graph;
}

/** The groups of files that reach each other through imports (Tarjan's strongly connected
 *  components of more than one file, or a file importing itself). */
function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(group.sort());
  };
  for (const f of graph.keys()) if (!index.has(f)) visit(f);
  return circles;
}
