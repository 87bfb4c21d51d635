// ipc/ is a self-contained client: bundling it pulls in only its own files, node built-ins and protobufjs.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('ipc/ boundary', () => {
  it('imports nothing from engine/, plugin/ or ui/', async () => {
    const result = await build({
      entryPoints: ['ipc/index.ts'],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(5);
    expect(inputs.filter((p) => !p.startsWith('ipc/'))).toEqual([]);
    const external = new Set(Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path)));
    expect([...external].filter((p) => !p.startsWith('node:')).sort()).toEqual(['protobufjs']);
  });
});
