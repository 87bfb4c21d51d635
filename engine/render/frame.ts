// A picture's frame: the region widened so it is never a sliver, its size in pixels (the region's
// own aspect, the longer side capped so the picture is not letterboxed), pixels per mm, and the
// round length the scale bar in its corner shows.

/** A region, nm. */
export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Longer side of a picture, px. */
export const MAX_SIDE_PX = 1200;
/** Longest side over shortest a region keeps; a thinner one grows about its middle. */
export const MAX_ASPECT = 4;

export interface Frame {
  widthPx: number;
  heightPx: number;
  /** Pixels per mm (the same along both axes, up to rounding of the pixel size). */
  pxPerMm: number;
  /** The scale bar's length, nm: 1, 2 or 5 times a power of ten, about a fifth of the width. */
  scaleBar: number;
}

/** `box` with its shorter side grown (about its middle) to at least 1/MAX_ASPECT of the longer; at least 1 µm a side. */
export function widenToAspect(box: Box, maxAspect = MAX_ASPECT): Box {
  let { minX, minY, maxX, maxY } = box;
  const w = Math.max(maxX - minX, 1000);
  const h = Math.max(maxY - minY, 1000);
  const needW = Math.ceil(h / maxAspect);
  const needH = Math.ceil(w / maxAspect);
  if (maxX - minX < Math.max(needW, 1000)) {
    const grow = Math.max(needW, 1000) - (maxX - minX);
    minX -= Math.floor(grow / 2);
    maxX += Math.ceil(grow / 2);
  }
  if (maxY - minY < Math.max(needH, 1000)) {
    const grow = Math.max(needH, 1000) - (maxY - minY);
    minY -= Math.floor(grow / 2);
    maxY += Math.ceil(grow / 2);
  }
  return { minX, minY, maxX, maxY };
}

/** The largest 1/2/5 × 10^k nm (10 µm at least) not over a fifth of `width`. */
export function scaleBarLength(width: number): number {
  let best = 10_000;
  for (let p = 10_000; p <= 1e12; p *= 10) {
    for (const m of [1, 2, 5]) if (m * p <= width / 5) best = m * p;
  }
  return best;
}

export function pictureFrame(box: Box, maxSide = MAX_SIDE_PX): Frame {
  const w = Math.max(box.maxX - box.minX, 1);
  const h = Math.max(box.maxY - box.minY, 1);
  const widthPx = w >= h ? maxSide : Math.max(1, Math.round((maxSide * w) / h));
  const heightPx = h >= w ? maxSide : Math.max(1, Math.round((maxSide * h) / w));
  const pxPerMm = (maxSide * 1e6) / Math.max(w, h);
  return { widthPx, heightPx, pxPerMm, scaleBar: scaleBarLength(w) };
}
