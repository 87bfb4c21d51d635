// Pictures as PNG through the transports: MCP answers an image content block (in process, over the
// real line transport and SDK server), and a freshly built bundle copied nowhere near the
// repository renders PNG over JSON lines and MCP, so the WebAssembly ships beside it. The package
// carries it too.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, LineTransport, toolContent } from '../../plugin/mcp.ts';
import { packageEntries } from '../../plugin/kicad-host/pcm-package.ts';
import { openSession } from '../../plugin/session-host.ts';
import { benchBoards } from '../support/bench.ts';
import { isPng, pngSize } from '../support/png.ts';
import { jsonLines } from './cli.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const board = benchBoards().find((b) => b.name === 'Blink-Eras_AVR_ISP_Pogo')!;
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const renderCall = (id: number, args: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'render', arguments: args } });

/** Checks an MCP tools/call result for a PNG picture: the image block, then the rest as text. */
function expectImageResult(result: { content: { type: string; data?: string; mimeType?: string; text?: string }[]; isError?: boolean }) {
  expect(result.isError).toBe(false);
  expect(result.content.map((c) => c.type)).toEqual(['image', 'text']);
  const [image, text] = result.content;
  expect(image.mimeType).toBe('image/png');
  const png = Buffer.from(image.data!, 'base64');
  expect(isPng(png)).toBe(true);
  const meta = JSON.parse(text.text!);
  expect(meta.png_base64).toBeUndefined();
  expect(meta).toMatchObject({ mime: 'image/png', state: 0 });
  expect(pngSize(png)).toEqual({ width: meta.width_px, height: meta.height_px });
  expect(meta.grid_pitch_mm).toBeGreaterThan(0);
}

describe('MCP pictures', () => {
  it('sends a PNG result as an image block with the rest as text, anything else as text', () => {
    expect(toolContent({ state: 0, mime: 'image/svg+xml', svg: '<svg/>' })).toEqual([
      { type: 'text', text: '{"state":0,"mime":"image/svg+xml","svg":"<svg/>"}' },
    ]);
    expect(toolContent({ state: 2, mime: 'image/png', png_base64: 'iVBO', width_px: 3 })).toEqual([
      { type: 'image', data: 'iVBO', mimeType: 'image/png' },
      { type: 'text', text: '{"state":2,"mime":"image/png","width_px":3}' },
    ]);
    expect(toolContent({ error: { code: 'not_supported', message: 'm' } })).toEqual([
      { type: 'text', text: '{"error":{"code":"not_supported","message":"m"}}' },
    ]);
  });

  it('answers render with format png over the line transport as an image content block', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-'));
    const { session } = openSession({ board: board.bare, out: join(dir, 'o.kicad_pcb'), diagnostics: () => undefined });
    const lines: string[] = [];
    const transport = new LineTransport((t) => void lines.push(t));
    const server = createMcpServer((tool, args) => session.dispatch(tool, args), 'test');
    await server.connect(transport);
    const answered = async (id: number) => {
      for (let i = 0; i < 600; i++) {
        const hit = lines.map((l) => JSON.parse(l)).find((m) => m.id === id);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no answer to ${id}`);
    };
    transport.push(new TextEncoder().encode([INIT, renderCall(2, { format: 'png' }), renderCall(3, {})].map((m) => JSON.stringify(m)).join('\n') + '\n'));
    expectImageResult((await answered(2)).result);
    const svg = (await answered(3)).result;
    expect(svg.content.map((c: { type: string }) => c.type)).toEqual(['text']);
    expect(JSON.parse(svg.content[0].text).svg.startsWith('<svg')).toBe(true);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the built bundle, run away from the repository', () => {
  const work = mkdtempSync(join(tmpdir(), 'tm-built-'));
  const dist = join(work, 'dist');
  const cwd = join(work, 'elsewhere');
  const run = (args: string[], input: string) =>
    spawnSync(process.execPath, [join(dist, 'tracemaker.js'), ...args], { cwd, input, encoding: 'utf8', maxBuffer: 256 << 20 });

  beforeAll(() => {
    const b = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--outdir', dist], { cwd: ROOT, encoding: 'utf8' });
    expect(b.status, b.stderr).toBe(0);
    mkdirSync(cwd);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('renders PNG over JSON lines, the base64 in the JSON as it is', () => {
    const r = run(
      ['session', board.bare, '--out', join(work, 'o.kicad_pcb'), '--jsonl'],
      ['{"tool":"render","args":{"format":"png"}}', '{"tool":"render","args":{"format":"png","net":"N$1"}}'].join('\n') + '\n',
    );
    expect(r.status, r.stderr).toBe(0);
    const out = jsonLines(r.stdout);
    expect(out).toHaveLength(2);
    for (const o of out) {
      expect(o.error).toBeUndefined();
      expect(o.mime).toBe('image/png');
      const png = Buffer.from(o.png_base64, 'base64');
      expect(isPng(png)).toBe(true);
      expect(pngSize(png)).toEqual({ width: o.width_px, height: o.height_px });
    }
  });

  it('renders PNG over MCP as an image content block', () => {
    const r = run(
      ['session', board.bare, '--out', join(work, 'o.kicad_pcb')],
      [INIT, renderCall(2, { format: 'png' })].map((m) => JSON.stringify(m)).join('\n') + '\n',
    );
    expect(r.status, r.stderr).toBe(0);
    const answer = jsonLines(r.stdout).find((m) => m.id === 2);
    expectImageResult(answer.result);
  });
});

describe('the plugin package', () => {
  it("carries the rasteriser's WebAssembly beside the bundle", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-pkg-'));
    const bundle = join(dir, 'tracemaker.js');
    const wasm = join(dir, 'resvg.wasm');
    writeFileSync(bundle, '// bundle\n');
    writeFileSync(wasm, Buffer.from([0, 0x61, 0x73, 0x6d]));
    const paths = packageEntries({ root: ROOT, bundle, wasm }).map((e) => e.path);
    expect(paths).toContain('plugins/tracemaker.js');
    expect(paths).toContain('plugins/resvg.wasm');
    rmSync(dir, { recursive: true, force: true });
  });
});
