/**
 * Where the subject of a photo is, as a box: what framing needs to crop a photo without cutting the product.
 * The box comes from the cut-out model's mask; when the model finds no subject (a keyboard filling the photo, a
 * texture), from an edge and colour-contrast map instead. Decision "Framing".
 */
import { rgbPixels } from './open.js';

/** A box in the picture as shares of its width and height (0–1), so it holds at any size of the picture. */
export interface ShareBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Subject {
  /** The picture's size after EXIF orientation. */
  width: number;
  height: number;
  box: ShareBox;
  /** Where the box came from. */
  from: 'model' | 'saliency';
  /** The share of the picture the subject covers (of its mask, or of the salient pixels). */
  area: number;
  /** The colour of the photo's backdrop when it is plain (a studio shot), else null. */
  backdrop: number[] | null;
}

/**
 * The side the model runs at to find the subject's box: a quarter of the work of the cut-out's 512 (about 0.12 s
 * of one core here against 0.55 s of two) and the same box on studio shots; its masks are holey, which a box does
 * not mind. On some lifestyle photos its box fell a few per cent of the photo short of 512's (a leg in jeans):
 * the box is widened by PAD, and the moves' margin keeps a little more around it.
 */
export const FRAMING_SIDE = 256;
const PAD = 0.01;
/** A mask covering less than this share of the picture is no subject (specks the model kept). */
const MIN_AREA = 0.005;

/** The box of the mask's pixels at least half on, and the share of them; null when there are too few. */
export function maskBox(mask: Uint8Array, width: number, height: number): { box: ShareBox; area: number } | null {
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  let count = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((mask[y * width + x] as number) < 128) continue;
      count++;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  const area = count / (width * height);
  if (area < MIN_AREA) return null;
  return { box: { left: left / width, top: top / height, right: (right + 1) / width, bottom: (bottom + 1) / height }, area };
}

/** The side of the saliency map: shapes, not detail. */
const SALIENCY_SIDE = 128;

/**
 * The box of what stands out: each pixel scores its edge strength (luma gradient) plus its colour's distance
 * from the border's mean colour; the box holds the middle 90 % of the score along each axis, so a few strong
 * edges at the border (a table's rim) do not stretch it to the whole picture.
 */
export async function saliencyBox(input: string | Buffer): Promise<{ box: ShareBox; area: number }> {
  const side = SALIENCY_SIDE;
  const { data } = await rgbPixels(input, { width: side, height: side });
  const luma = new Float32Array(side * side);
  for (let p = 0; p < luma.length; p++) {
    luma[p] = 0.299 * (data[p * 3] as number) + 0.587 * (data[p * 3 + 1] as number) + 0.114 * (data[p * 3 + 2] as number);
  }
  const border = [0, 0, 0];
  let borderCount = 0;
  for (let t = 0; t < side; t++) {
    for (const p of [t, (side - 1) * side + t, t * side, t * side + side - 1]) {
      for (let c = 0; c < 3; c++) border[c] = (border[c] as number) + (data[p * 3 + c] as number);
      borderCount++;
    }
  }
  const mean = border.map((v) => v / borderCount);
  const columns = new Float64Array(side);
  const rows = new Float64Array(side);
  let total = 0;
  for (let y = 1; y < side - 1; y++) {
    for (let x = 1; x < side - 1; x++) {
      const p = y * side + x;
      const gx = (luma[p + 1] as number) - (luma[p - 1] as number);
      const gy = (luma[p + side] as number) - (luma[p - side] as number);
      const contrast = Math.hypot(...mean.map((m, c) => (data[p * 3 + c] as number) - m));
      const s = Math.hypot(gx, gy) + contrast;
      columns[x] = (columns[x] as number) + s;
      rows[y] = (rows[y] as number) + s;
      total += s;
    }
  }
  if (total === 0) return { box: { left: 0, top: 0, right: 1, bottom: 1 }, area: 1 };
  const span = (sums: Float64Array) => {
    let low = 0;
    let high = side - 1;
    for (let acc = 0; low < side && acc + (sums[low] as number) < total * 0.05; low++) acc += sums[low] as number;
    for (let acc = 0; high > 0 && acc + (sums[high] as number) < total * 0.05; high--) acc += sums[high] as number;
    return [low / side, Math.max(low + 1, high + 1) / side] as const;
  };
  const [left, right] = span(columns);
  const [top, bottom] = span(rows);
  return { box: { left, top, right, bottom }, area: (right - left) * (bottom - top) };
}

/**
 * The colour of the picture's backdrop when it is plain (a studio shot): the median of its border, when at least
 * three quarters of the border is within a small distance of it (the subject may touch the border somewhere).
 */
export async function plainBackdrop(input: string | Buffer): Promise<number[] | null> {
  const side = 64;
  const { data } = await rgbPixels(input, { width: side, height: side });
  const samples: number[][] = [];
  for (let t = 0; t < side; t++) {
    for (const p of [t, (side - 1) * side + t, t * side, t * side + side - 1])
      samples.push([0, 1, 2].map((c) => data[p * 3 + c] as number));
  }
  const median = [0, 1, 2].map((c) => samples.map((v) => v[c] as number).sort((x, y) => x - y)[samples.length >> 1] as number);
  const near = samples.filter((v) => Math.hypot(...v.map((x, c) => x - (median[c] as number))) < 18).length;
  return near >= samples.length * 0.75 ? median : null;
}

/** The subject's box from the cut-out model's mask (`subjectMask` at FRAMING_SIDE), or from the saliency map. */
export async function findSubject(
  input: string | Buffer,
  size: { width: number; height: number },
  cutout: { mask: Buffer; side: number },
): Promise<Subject> {
  const backdrop = await plainBackdrop(input);
  const found = maskBox(cutout.mask, cutout.side, cutout.side);
  if (!found) return { ...size, ...(await saliencyBox(input)), from: 'saliency', backdrop };
  // Widened on every side the photo does not cut, so a crop never takes what the quick mask missed; never up
  // to the photo's edge, where it would read as cut by the photo.
  const { box } = found;
  const pad = (v: number, by: number) => (v <= 0.01 || v >= 0.99 ? v : Math.min(0.98, Math.max(0.02, v + by)));
  const padded = { left: pad(box.left, -PAD), top: pad(box.top, -PAD), right: pad(box.right, PAD), bottom: pad(box.bottom, PAD) };
  return { ...size, area: found.area, box: padded, from: 'model', backdrop };
}

/** The share of skin-coloured pixels at the top of a subject above which it is taken for a person's head. */
const HEAD_SKIN = 0.12;

/**
 * Whether the subject in `box` (shares of the photo) shows a face at its top: a person seen whole enough to have
 * a head in the photo, skin-coloured pixels (the usual YCbCr skin range, which holds for every skin tone) in the
 * top fifth of the box. With no face model shipped this is a hint, not a detector: a tall bottle has no skin at
 * its cap, a garment cut at the collar no head at all. The cards keep their type off a face (decision "Ad cards").
 */
export async function headAtTop(input: string | Buffer, box: ShareBox): Promise<boolean> {
  if (box.top <= 0.015) return false;
  const { data, width, height } = await rgbPixels(input, { width: 96, height: 96 });
  const [x0, x1] = [Math.floor(box.left * width), Math.ceil(box.right * width)];
  const [y0, y1] = [Math.floor(box.top * height), Math.ceil((box.top + 0.2 * (box.bottom - box.top)) * height)];
  let skin = 0;
  let all = 0;
  for (let y = y0; y < Math.min(height, y1); y++) {
    for (let x = x0; x < Math.min(width, x1); x++) {
      const i = (y * width + x) * 3;
      const [r, g, b] = [data[i] as number, data[i + 1] as number, data[i + 2] as number];
      const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
      const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
      if (cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173 && r > 60) skin++;
      all++;
    }
  }
  return all > 0 && skin / all >= HEAD_SKIN;
}
