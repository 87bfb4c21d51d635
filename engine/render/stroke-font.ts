// A small stroke font for the words in pictures (net labels, the scale bar, the legend): printable
// ASCII as polylines on a 4 × 6 grid, so a label is a path and draws the same in a browser and in
// the PNG rasteriser, which has no fonts to lean on. Monospaced; anything else draws as a box.

/**
 * Glyphs on a grid x 0..4, y 0..8 (0 the cap line, 2 the x-height, 6 the baseline, 8 the
 * descender). A glyph is polylines separated by spaces, each a run of two-digit points "xy"; a
 * lone point is a dot.
 */
const GLYPHS: Record<string, string> = {
  ' ': '',
  '!': '2024 26',
  '"': '1012 3032',
  '#': '1115 3135 0242 0444',
  $: '4111021333443505 2026',
  '%': '0640 0010110100 3545463635',
  '&': '4612112031320405162644',
  "'": '2022',
  '(': '302112142536',
  ')': '102132342516',
  '*': '2125 0244 0442',
  '+': '2125 0343',
  ',': '2517',
  '-': '0343',
  '.': '26',
  '/': '0640',
  '0': '103041453616050110 0541',
  '1': '112026 1636',
  '2': '01103041420646',
  '3': '004022324345361605',
  '4': '36300444',
  '5': '400002324345361605',
  '6': '3020020516364544331304',
  '7': '004016',
  '8': '103041423313020110 1304051636454433',
  '9': '1626444131100102133342',
  ':': '22 26',
  ';': '22 2517',
  '<': '410345',
  '=': '0242 0444',
  '>': '014305',
  '?': '01103041422324 26',
  '@': '3212143432 344441301001051646',
  A: '0602204246 0444',
  B: '06003041423303 3344453606',
  C: '4130100105163645',
  D: '00304145360600',
  E: '40000646 0333',
  F: '400006 0333',
  G: '41301001051636454323',
  H: '0006 4046 0343',
  I: '1030 2026 1636',
  J: '2040 4045361605',
  K: '0006 4004 1346',
  L: '000646',
  M: '0600234046',
  N: '06004640',
  O: '103041453616050110',
  P: '06003041423303',
  Q: '103041453616050110 2446',
  R: '06003041423303 2346',
  S: '413010010213334445361605',
  T: '0040 2026',
  U: '000516364540',
  V: '002640',
  W: '0016233640',
  X: '0046 4006',
  Y: '002340 2326',
  Z: '00400646',
  '[': '30101636',
  '\\': '0046',
  ']': '10303616',
  '^': '122032',
  _: '0747',
  '`': '1021',
  a: '12324346 441405163645',
  b: '0006 0312324345361605',
  c: '421203051646',
  d: '4046 4332120305163645',
  e: '044443321203051646',
  f: '30201116 0232',
  g: '42473818 4332120305163645',
  h: '0006 0312324346',
  i: '122226 1636 20',
  j: '2232372818 30',
  k: '0006 4204 2346',
  l: '10202536',
  m: '0602 03122326 23324346',
  n: '0602 0312324346',
  o: '123243453616050312',
  p: '0208 0312324345361605',
  q: '4248 4332120305163645',
  r: '0206 04223243',
  s: '4212031434453606',
  t: '10152646 0232',
  u: '0205163645 4246',
  v: '022642',
  w: '0216233642',
  x: '0246 4206',
  y: '0226 4218',
  z: '02420646',
  '{': '30212213242536',
  '|': '2027',
  '}': '10212233242516',
  '~': '03123443',
};
const MISSING = '0040460600';

/** Grid units from the cap line to the baseline, and from one glyph's left to the next. */
export const CAP_UNITS = 6;
export const ADVANCE_UNITS = 5;
/** Grid units below the baseline a descender reaches. */
export const DESCENT_UNITS = 2;

/** Polylines of each glyph in grid units, parsed once. */
const PARSED = new Map<string, number[][]>();

function parse(code: string): number[][] {
  return code
    .split(' ')
    .filter((p) => p.length > 0)
    .map((p) => {
      const pts: number[] = [];
      for (let i = 0; i + 1 < p.length; i += 2) pts.push(p.charCodeAt(i) - 48, p.charCodeAt(i + 1) - 48);
      return pts;
    });
}

function glyph(ch: string): number[][] {
  let g = PARSED.get(ch);
  if (!g) PARSED.set(ch, (g = parse(GLYPHS[ch] ?? MISSING)));
  return g;
}

/** Width of `text` (nm) at cap height `height`: every glyph advances the same, the last without its gap. */
export function textWidth(text: string, height: number): number {
  const n = [...text].length;
  return n === 0 ? 0 : Math.round(((n * ADVANCE_UNITS - 1) * height) / CAP_UNITS);
}

/**
 * `text` as polylines (flat x, y pairs, nm) with the top-left of its cap box at (x, y) and cap
 * height `height`. A dot is a polyline of one point; the drawer gives it a round cap.
 */
export function strokeText(text: string, x: number, y: number, height: number): number[][] {
  const unit = height / CAP_UNITS;
  const out: number[][] = [];
  let k = 0;
  for (const ch of text) {
    const x0 = x + k * ADVANCE_UNITS * unit;
    for (const line of glyph(ch)) {
      const pts: number[] = [];
      for (let i = 0; i < line.length; i += 2) pts.push(Math.round(x0 + line[i] * unit), Math.round(y + line[i + 1] * unit));
      out.push(pts);
    }
    k++;
  }
  return out;
}
