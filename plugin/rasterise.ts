// The session's PNG rasteriser: resvg compiled to WebAssembly (@resvg/resvg-wasm), one artefact for
// every platform, no native binary and no system tool. Its .wasm file sits beside the bundle
// (scripts/build.mjs copies it to dist/resvg.wasm) or, running from the sources, in the package;
// it is loaded and compiled the first time a picture is asked for, once per process.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Resvg, initWasm } from '@resvg/resvg-wasm';

/** The file name build.mjs gives the WebAssembly beside the bundle. */
export const WASM_NAME = 'resvg.wasm';

let ready: Promise<void> | undefined;

/** Where the WebAssembly is: beside this module when bundled, else the package's own file. */
export function wasmPath(): string {
  const beside = fileURLToPath(new URL(`./${WASM_NAME}`, import.meta.url));
  if (existsSync(beside)) return beside;
  try {
    return createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm');
  } catch {
    throw new Error(`rasterise: ${WASM_NAME} is missing beside ${fileURLToPath(import.meta.url)} (run npm run build)`);
  }
}

function init(): Promise<void> {
  // A failed load is not kept: the next picture tries again (and reports the same error).
  ready ??= initWasm(readFileSync(wasmPath())).catch((e: unknown) => {
    ready = undefined;
    throw e;
  });
  return ready;
}

/** PNG bytes of `svg` at its own width and height. The labels are strokes, so no fonts are loaded. */
export async function rasterise(svg: string): Promise<Uint8Array> {
  await init();
  const r = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  try {
    const img = r.render();
    try {
      return img.asPng();
    } finally {
      img.free();
    }
  } finally {
    r.free();
  }
}
