// Reads the PNGs the renderer makes back into pixels for tests: the signature, IHDR's size, and the
// 8-bit RGB or RGBA pixels (non-interlaced, every scanline filter), so a test can look at what is
// drawn where.
import { inflateSync } from 'node:zlib';

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, rows top first. */
  rgba: Uint8Array;
}

export function isPng(bytes: Uint8Array): boolean {
  return PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** IHDR's width and height. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isPng(bytes) || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') throw new Error('pngSize: not a PNG with IHDR first');
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

export function decodePng(bytes: Uint8Array): Pixels {
  const { width, height } = pngSize(bytes);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const depth = bytes[24];
  const colour = bytes[25];
  if (depth !== 8 || (colour !== 2 && colour !== 6) || bytes[28] !== 0)
    throw new Error(`decodePng: only 8-bit RGB/RGBA, non-interlaced (depth ${depth}, colour type ${colour})`);
  const idat: Uint8Array[] = [];
  for (let at = 8; at < bytes.length;) {
    const len = v.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === 'IDAT') idat.push(bytes.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const bpp = colour === 6 ? 4 : 3;
  const stride = width * bpp;
  const img = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = img.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? img.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? row[x - bpp] : 0;
      const b = prev[x];
      const c = x >= bpp ? prev[x - bpp] : 0;
      let p = 0;
      if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else if (filter === 4) {
        const q = a + b - c;
        const pa = Math.abs(q - a);
        const pb = Math.abs(q - b);
        const pc = Math.abs(q - c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      row[x] = (src[x] + p) & 0xff;
    }
  }
  if (bpp === 4) return { width, height, rgba: img };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([img[3 * i], img[3 * i + 1], img[3 * i + 2], 255], 4 * i);
  return { width, height, rgba };
}

/** Pixels in the rectangle (px, clipped to the image) whose colour all three channels at least `min` reach. */
export function countBright(p: Pixels, x0: number, y0: number, x1: number, y1: number, min = 200): number {
  let n = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(p.height, Math.ceil(y1)); y++) {
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(p.width, Math.ceil(x1)); x++) {
      const i = 4 * (y * p.width + x);
      if (p.rgba[i] >= min && p.rgba[i + 1] >= min && p.rgba[i + 2] >= min) n++;
    }
  }
  return n;
}

/** Distinct colours in the image. */
export function colourCount(p: Pixels): number {
  const seen = new Set<number>();
  for (let i = 0; i < p.rgba.length; i += 4) seen.add((p.rgba[i] << 16) | (p.rgba[i + 1] << 8) | p.rgba[i + 2]);
  return seen.size;
}
