/** Connected regions of a binary mask (4-connected), with the facts the cut-out and the garment check need. */

export interface Region {
  /** The label in `labels` (from 1). */
  label: number;
  area: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Labelled {
  /** One label per pixel: 0 off the mask, else the region's label. */
  labels: Int32Array;
  /** Largest first. */
  regions: Region[];
}

/** Labels the pixels of `mask` (non-zero = on) of a `width`×`height` grid. */
export function labelRegions(mask: Uint8Array, width: number, height: number): Labelled {
  const labels = new Int32Array(width * height);
  const regions: Region[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start]) continue;
    const region: Region = { label: regions.length + 1, area: 0, left: width, top: height, right: -1, bottom: -1 };
    labels[start] = region.label;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop() as number;
      const x = p % width;
      const y = (p - x) / width;
      region.area++;
      if (x < region.left) region.left = x;
      if (x > region.right) region.right = x;
      if (y < region.top) region.top = y;
      if (y > region.bottom) region.bottom = y;
      const neighbours = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1];
      for (const q of neighbours) {
        if (q >= 0 && mask[q] && !labels[q]) {
          labels[q] = region.label;
          stack.push(q);
        }
      }
    }
    regions.push(region);
  }
  regions.sort((a, b) => b.area - a.area);
  return { labels, regions };
}
