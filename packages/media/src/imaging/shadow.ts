/**
 * The contact shadow a product casts on the floor it stands on: soft, darkest where it touches, following the
 * product's lowest edge column by column. A bottle's flat base gives the broad ellipse a studio shot shows; a
 * watch lying at a slant gets its shadow along its slanted lower edge, not under its box's bottom, where it floated.
 */
import sharp, { type OverlayOptions } from 'sharp';

/** A product's box in a picture, in pixels. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Coverage (0–255) at and above which a pixel is the product's. */
const SOLID = 128;

/**
 * The row of each column's lowest product pixel (`coverage` at `size`), -1 for a column without one, with the
 * gaps between product columns (the space between two legs) bridged by a straight line, as a floor shadow is.
 */
function lowestEdge(coverage: Buffer, size: { width: number; height: number }): Int32Array {
  const { width, height } = size;
  const edge = new Int32Array(width).fill(-1);
  for (let x = 0; x < width; x++) {
    for (let y = height - 1; y >= 0; y--) {
      if ((coverage[y * width + x] as number) >= SOLID) {
        edge[x] = y;
        break;
      }
    }
  }
  let last = -1;
  for (let x = 0; x < width; x++) {
    if (edge[x] === -1) continue;
    if (last >= 0 && x - last > 1) {
      const a = edge[last] as number;
      const b = edge[x] as number;
      for (let g = last + 1; g < x; g++) edge[g] = Math.round(a + ((b - a) * (g - last)) / (x - last));
    }
    last = x;
  }
  return edge;
}

/**
 * The shadow under a product placed at `placed` on a frame of `frame` (its coverage at the placed size), as an
 * overlay covering only the patch of floor it darkens. Two layers as a studio light makes them, both centred on
 * the lowest edge: a broad ambient shade (0.55 deep where it touches, gone at its rim) and a tight dark core.
 * Most of the shade lies below the edge: above it the product hides it, and beside a slanted product it would
 * show on the floor behind it.
 */
export async function contactShadow(
  frame: { width: number; height: number },
  placed: Box,
  coverage: Buffer,
): Promise<OverlayOptions | null> {
  const edge = lowestEdge(coverage, placed);
  const columns = [...edge.keys()].filter((x) => (edge[x] as number) >= 0);
  if (columns.length === 0) return null;
  const first = columns[0] as number;
  const last = columns[columns.length - 1] as number;
  // The ellipse's centre and half-width in the product's columns; its depth from the product's height, as before.
  const cx = (first + last + 1) / 2;
  const rx = Math.max(2, (last + 1 - first) / 2);
  const ry = Math.max(4, placed.height * 0.045);
  const above = 0.6 * ry;
  const below = 2 * ry;
  const soft = Math.max(1, placed.height * 0.01);
  const margin = Math.ceil(3 * soft) + 2;
  const reach = 1.1 * rx;
  const lowest = Math.max(...columns.map((x) => edge[x] as number));
  const highest = Math.min(...columns.map((x) => edge[x] as number));
  const left = Math.max(0, Math.floor(placed.left + cx - reach - margin));
  const right = Math.min(frame.width, Math.ceil(placed.left + cx + reach + margin));
  const top = Math.max(0, Math.floor(placed.top + highest - above - margin));
  const bottom = Math.min(frame.height, Math.ceil(placed.top + lowest + below + margin));
  if (right <= left || bottom <= top) return null;
  const patch = { width: right - left, height: bottom - top };
  const alpha = new Uint8ClampedArray(patch.width * patch.height);
  for (let px = 0; px < patch.width; px++) {
    // In the product's columns: beyond its ends the shadow keeps the nearest end's contact row.
    const x = px + left - placed.left;
    const contact = placed.top + (edge[Math.min(last, Math.max(first, Math.round(x)))] as number) + 0.5 - top;
    const u = (x + 0.5 - cx) / reach;
    const uCore = (x + 0.5 - cx) / (0.8 * rx);
    if (Math.abs(u) >= 1) continue;
    for (let py = 0; py < patch.height; py++) {
      const d = py + 0.5 - contact;
      const v = d / (d < 0 ? above : below);
      const r = Math.sqrt(u * u + v * v);
      // The ambient shade's fall-off: 0.55 at the centre, 0.25 at 0.6 of its radius, nothing at its rim.
      const ambient = r >= 1 ? 0 : r <= 0.6 ? 0.55 - (0.3 * r) / 0.6 : (0.25 * (1 - r)) / 0.4;
      const vCore = d / (d < 0 ? 0.3 * ry : 0.7 * ry);
      const core = uCore * uCore + vCore * vCore < 1 ? 0.35 : 0;
      alpha[py * patch.width + px] = 255 * (1 - (1 - ambient) * (1 - core));
    }
  }
  const shade = await sharp(Buffer.from(alpha.buffer), { raw: { ...patch, channels: 1 } })
    .blur(soft)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const rgba = Buffer.alloc(patch.width * patch.height * 4);
  for (let i = 0; i < shade.length; i++) rgba[i * 4 + 3] = shade[i] as number;
  return { input: rgba, raw: { ...patch, channels: 4 }, left, top };
}
