// Draws the toolbar icons (assets/icons/*.png): one per action, for light and dark themes, at 24×24
// and 48×48 (high-DPI), plus the 64×64 package icon the Plugin and Content Manager shows. Shapes are
// drawn by supersampled distance tests and written as RGBA PNGs with node's zlib: no network, no deps.
// Run `node scripts/make-icons.mjs`; the PNGs are committed, so this only runs when the art changes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const OUT = join(import.meta.dirname, '..', 'assets', 'icons');

// Colours: copper for the trace, a theme ink for pads and outlines.
const THEMES = {
  light: { ink: [40, 44, 52], copper: [200, 110, 30], accent: [30, 130, 70] },
  dark: { ink: [225, 228, 235], copper: [240, 160, 70], accent: [110, 210, 140] },
};

// Each icon is a list of shapes on a 24-unit canvas: segments with a width, rings, discs, boxes.
const ICONS = {
  route: (c) => [
    {
      seg: [
        [5, 18],
        [10, 13],
        [19, 13],
      ],
      w: 2.6,
      col: c.copper,
    },
    { disc: [5, 18], r: 3.4, col: c.ink },
    { disc: [19, 6], r: 3.4, col: c.ink },
    {
      seg: [
        [19, 13],
        [19, 9],
      ],
      w: 2.6,
      col: c.copper,
    },
    { disc: [5, 18], r: 1.3, col: null },
    { disc: [19, 6], r: 1.3, col: null },
  ],
  check: (c) => [
    {
      seg: [
        [3, 20],
        [8, 15],
        [14, 15],
      ],
      w: 2.2,
      col: c.copper,
    },
    { disc: [3, 20], r: 2.4, col: c.ink },
    {
      seg: [
        [11, 7],
        [15, 11],
        [22, 3],
      ],
      w: 2.8,
      col: c.accent,
    },
  ],
  panel: (c) => [
    { box: [3, 4, 21, 20], w: 2, col: c.ink },
    {
      seg: [
        [3, 8],
        [21, 8],
      ],
      w: 2,
      col: c.ink,
    },
    {
      seg: [
        [6, 12],
        [17, 12],
      ],
      w: 1.8,
      col: c.copper,
    },
    {
      seg: [
        [6, 16],
        [13, 16],
      ],
      w: 1.8,
      col: c.copper,
    },
  ],
};

function distToSegment(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function inside(shape, x, y) {
  if (shape.seg) {
    for (let i = 0; i + 1 < shape.seg.length; i++) if (distToSegment(x, y, shape.seg[i], shape.seg[i + 1]) <= shape.w / 2) return true;
    return false;
  }
  if (shape.disc) return Math.hypot(x - shape.disc[0], y - shape.disc[1]) <= shape.r;
  const [x1, y1, x2, y2] = shape.box;
  const h = shape.w / 2;
  const inOuter = x >= x1 - h && x <= x2 + h && y >= y1 - h && y <= y2 + h;
  const inInner = x > x1 + h && x < x2 - h && y > y1 + h && y < y2 - h;
  return inOuter && !inInner;
}

/** RGBA pixels of an icon at `size` px; later shapes paint over earlier ones, a null colour erases. */
function render(shapes, size) {
  const px = new Uint8Array(size * size * 4);
  const ss = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const u = ((x + (sx + 0.5) / ss) * 24) / size;
          const v = ((y + (sy + 0.5) / ss) * 24) / size;
          let col = null;
          for (const s of shapes) if (inside(s, u, v)) col = s.col;
          if (col) {
            r += col[0];
            g += col[1];
            b += col[2];
            a += 1;
          }
        }
      }
      const o = (y * size + x) * 4;
      if (a > 0) {
        px[o] = Math.round(r / a);
        px[o + 1] = Math.round(g / a);
        px[o + 2] = Math.round(b / a);
        px[o + 3] = Math.round((255 * a) / (ss * ss));
      }
    }
  }
  return px;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export function png(pixels, size) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) Buffer.from(pixels.subarray(y * size * 4, (y + 1) * size * 4)).copy(raw, y * (size * 4 + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(OUT, { recursive: true });
for (const [name, draw] of Object.entries(ICONS)) {
  for (const [theme, colours] of Object.entries(THEMES)) {
    writeFileSync(join(OUT, `${name}-${theme}.png`), png(render(draw(colours), 24), 24));
    writeFileSync(join(OUT, `${name}-${theme}@2x.png`), png(render(draw(colours), 48), 48));
  }
}
writeFileSync(join(OUT, 'package-64.png'), png(render(ICONS.route(THEMES.light), 64), 64));
console.log(`icons written to ${OUT}`);
