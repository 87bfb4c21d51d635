// Seeded benchmark of engine/geom's hot paths: exact predicates, shape collisions the router
// and DRC run millions of times, large zone polygons, and the spatial index. Prints figures;
// it does not pass or fail. Run: npx tsx bench/geom-bench.ts
import { performance } from 'node:perf_hooks';
import {
  SpatialIndex,
  bbox,
  circle,
  collides,
  distance,
  orient2d,
  padShape,
  polygon,
  rect,
  segment,
  arc,
  comparePointSegment,
  type Shape,
} from '../engine/geom/index.ts';
import { int, rng } from '../tests/engine/geom/rng.ts';

const M = 1_500_000_000;

function time(label: string, n: number, fn: () => number): void {
  fn(); // warm-up
  const t0 = performance.now();
  const sink = fn();
  const ms = performance.now() - t0;
  const per = (ms * 1e6) / n;
  console.log(`${label.padEnd(52)} ${String(n).padStart(9)} ops  ${ms.toFixed(1).padStart(8)} ms  ${per.toFixed(0).padStart(6)} ns/op  (sink ${sink})`);
}

const r = rng(42);

// 1. Predicates: random (easy) and near-collinear at the limit (BigInt fallback).
{
  const N = 1_000_000;
  const easy = Float64Array.from({ length: 6 * N }, () => int(r, -M, M));
  time('orient2d, random points ±1.5e9', N, () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += orient2d(easy[6 * i], easy[6 * i + 1], easy[6 * i + 2], easy[6 * i + 3], easy[6 * i + 4], easy[6 * i + 5]);
    return s;
  });
  const hard = new Float64Array(6 * N);
  for (let i = 0; i < N; i++) {
    const k = int(r, 2_000_000_000, 2_900_000_000);
    hard.set([-M, -M, -M + k, -M + k - 1, -M + k + 1, -M + k], 6 * i);
  }
  time('orient2d, near-collinear (exact fallback)', N, () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += orient2d(hard[6 * i], hard[6 * i + 1], hard[6 * i + 2], hard[6 * i + 3], hard[6 * i + 4], hard[6 * i + 5]);
    return s;
  });
  time('comparePointSegment, random', N, () => {
    let s = 0;
    for (let i = 0; i < N; i++)
      s += comparePointSegment(easy[6 * i], easy[6 * i + 1], easy[6 * i + 2], easy[6 * i + 3], easy[6 * i + 4], easy[6 * i + 5], 200_000);
    return s;
  });
}

// 2. Shape collisions typical of routing: track vs track/via/pad within a 5 mm window.
{
  const N = 300_000;
  const win = 5_000_000;
  const shapes = (kind: number): Shape => {
    const x = int(r, 0, win),
      y = int(r, 0, win);
    switch (kind) {
      case 0:
        return segment(x, y, x + int(r, -2e6, 2e6), y + int(r, -2e6, 2e6), 200_000);
      case 1:
        return circle(x, y, 300_000);
      case 2:
        return padShape({ shape: 'roundrect', x, y, sizeX: 1_500_000, sizeY: 600_000, roundrectRatio: 0.25, rotation: int(r, 0, 3) * 90 });
      case 3:
        return padShape({ shape: 'rect', x, y, sizeX: 1_500_000, sizeY: 600_000, rotation: 30 });
      default:
        return arc(x, y, x + 1_000_000, y + 1_000_000, x + 2_000_000, y, 200_000);
    }
  };
  for (const [label, ka, kb] of [
    ['collides track/track', 0, 0],
    ['collides track/via', 0, 1],
    ['collides track/roundrect pad (rect+radius)', 0, 2],
    ['collides track/rotated rect pad (polygon)', 0, 3],
    ['collides track/arc (doubles)', 0, 4],
  ] as const) {
    const as = Array.from({ length: 1000 }, () => shapes(ka));
    const bs = Array.from({ length: 1000 }, () => shapes(kb));
    time(label, N, () => {
      let s = 0;
      for (let i = 0; i < N; i++) if (collides(as[i % 1000], bs[(i * 7) % 1000], 200_000)) s++;
      return s;
    });
  }
  const as = Array.from({ length: 1000 }, () => shapes(0));
  const bs = Array.from({ length: 1000 }, () => shapes(2));
  time('distance track/roundrect pad (doubles)', N, () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += distance(as[i % 1000], bs[(i * 7) % 1000]) > 0 ? 1 : 0;
    return s;
  });
}

// 3. A zone fill of 20 000 vertices against tracks (edge index path).
{
  const n = 10_000;
  const pts: number[] = [];
  for (let i = 0; i < 2 * n; i++) {
    const a = (Math.PI * i) / n;
    const rr = i % 2 === 0 ? 50_000_000 : 49_000_000;
    pts.push(Math.round(rr * Math.cos(a)), Math.round(rr * Math.sin(a)));
  }
  const zone = polygon(pts, [[-1e7, -1e7, 1e7, -1e7, 1e7, 1e7, -1e7, 1e7]]);
  const N = 100_000;
  const tracks = Array.from({ length: 1000 }, () => {
    const x = int(r, -52_000_000, 52_000_000),
      y = int(r, -52_000_000, 52_000_000);
    return segment(x, y, x + int(r, -1e6, 1e6), y + int(r, -1e6, 1e6), 200_000);
  });
  time('collides track/zone (20k-vertex polygon)', N, () => {
    let s = 0;
    for (let i = 0; i < N; i++) if (collides(zone, tracks[i % 1000], 200_000)) s++;
    return s;
  });
}

// 4. Spatial index: 50 000 items, queries of a track's box.
{
  const n = 50_000;
  const boxes = Array.from({ length: n }, () => {
    const x = int(r, 0, 300_000_000),
      y = int(r, 0, 300_000_000);
    return { minX: x, minY: y, maxX: x + int(r, 1e5, 3e6), maxY: y + int(r, 1e5, 3e6) };
  });
  let idx: SpatialIndex | undefined;
  time('SpatialIndex build, 50k boxes', 1, () => {
    idx = new SpatialIndex(boxes, 200_000);
    return idx.size;
  });
  const index = idx as SpatialIndex;
  for (let i = 0; i < 500; i++) index.add(n + i, boxes[i]);
  const N = 200_000;
  const qs = Array.from({ length: 1000 }, () => bbox(segment(int(r, 0, 3e8), int(r, 0, 3e8), int(r, 0, 3e8) % 3e6, 0, 200_000)));
  const small = Array.from({ length: 1000 }, () => {
    const x = int(r, 0, 3e8),
      y = int(r, 0, 3e8);
    return rect(x, y, x + 2e6, y + 2e6);
  }).map((s) => bbox(s));
  void qs;
  time('SpatialIndex query 2 mm box (+500 overlay items)', N, () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += index.query(small[i % 1000]).length;
    return s;
  });
}
