/**
 * Sharpen and enlarge, by 2 or 4 (decision "Super-resolution by back-projection", which supersedes "Sharpen and
 * enlarge"): a centred lanczos3 enlargement of the picture after it has been corrected by back-projection, so that
 * the enlargement, reduced again as a small picture is usually made (a lanczos3 reduction), gives back the picture it
 * came from. That restores the contrast a reduction and an enlargement both take from fine detail (on 35 real photos,
 * +0.45 dB ×2 and +0.24 dB ×4 over a plain centred lanczos), where the unsharp mask it replaces lost 3 dB, mostly
 * to its half-pixel shift.
 * No model runs: the super-resolution models that ship in npm packages were no better than lanczos and 40 s or more
 * a megapixel on this engine (the decision's figures).
 *
 * The enlargement and the reduction are both linear and separable, so the back-projection runs on the small picture
 * alone: its corrections, enlarged, are the enlargement's corrections. The only large pass is the last enlargement,
 * written straight to 8-bit rows.
 */

import sharp from 'sharp';
import { openImage, writeImage } from './open.js';

/** Spec "Validation rules": enhancement takes pictures whose longest side is at most this (ENHANCE_MAX_LONG_SIDE in the contract). */
export const UPSCALE_MAX_LONG_SIDE = 1920;

export class UpscaleInputError extends Error {
  constructor(readonly longSide: number) {
    super(`The picture's longest side is ${longSide} px; enhancement takes at most ${UPSCALE_MAX_LONG_SIDE} px.`);
    this.name = 'UpscaleInputError';
  }
}

/**
 * Back-projection rounds: measured on real photos ×2, three give all of the gain (eight gave no more) while each
 * further one amplifies what the reduction cannot see (grain, JPEG blocks) a little more.
 */
const ROUNDS = 3;

/** One dimension of a resampling: output i is the sum over k < width of weights[i·width + k] × input[start[i] + k]. */
interface Resampling {
  size: number;
  width: number;
  start: Int32Array;
  weights: Float32Array;
}

const lanczos3 = (x: number): number => {
  if (x === 0) return 1;
  if (x <= -3 || x >= 3) return 0;
  const p = Math.PI * x;
  return (3 * Math.sin(p) * Math.sin(p / 3)) / (p * p);
};

/**
 * A resampling of `from` inputs to `size` outputs, from each output's (input, weight) taps: inputs past either end
 * are the end one (the edge repeated), and each output's weights sum to one.
 */
function resampling(size: number, from: number, taps: (i: number) => Iterable<[number, number]>): Resampling {
  const rows: Map<number, number>[] = [];
  let width = 1;
  for (let i = 0; i < size; i++) {
    const row = new Map<number, number>();
    for (const [j, w] of taps(i)) {
      const at = Math.min(from - 1, Math.max(0, j));
      row.set(at, (row.get(at) ?? 0) + w);
    }
    const used = [...row.keys()];
    width = Math.max(width, Math.max(...used) - Math.min(...used) + 1);
    rows.push(row);
  }
  width = Math.min(width, from);
  const start = new Int32Array(size);
  const weights = new Float32Array(size * width);
  rows.forEach((row, i) => {
    const first = Math.min(Math.min(...row.keys()), from - width);
    let total = 0;
    for (const w of row.values()) total += w;
    start[i] = first;
    for (const [j, w] of row) weights[i * width + j - first] = w / total;
  });
  return { size, width, start, weights };
}

/** Centred: output X stands at input (X + ½)/scale − ½, so the picture's edges meet and nothing shifts. */
const enlarging = (from: number, scale: number): Resampling =>
  resampling(from * scale, from, function* (x) {
    const at = (x + 0.5) / scale - 0.5;
    const base = Math.floor(at);
    for (let j = base - 2; j <= base + 3; j++) yield [j, lanczos3(at - j)];
  });

/** The reduction the small picture is taken to have come from: lanczos3 stretched over `scale` inputs, centred. */
const reducing = (from: number, scale: number): Resampling =>
  resampling(from / scale, from, function* (x) {
    const at = (x + 0.5) * scale - 0.5;
    for (let j = Math.ceil(at - 3 * scale); j <= Math.floor(at + 3 * scale); j++) yield [j, lanczos3((j - at) / scale)];
  });

/** `outer` after `inner`, as one resampling. */
const composed = (outer: Resampling, inner: Resampling, from: number): Resampling =>
  resampling(outer.size, from, function* (i) {
    for (let k = 0; k < outer.width; k++) {
      const middle = (outer.start[i] as number) + k;
      const w = outer.weights[i * outer.width + k] as number;
      for (let m = 0; m < inner.width; m++)
        yield [(inner.start[middle] as number) + m, w * (inner.weights[middle * inner.width + m] as number)];
    }
  });

/** One row of `channels`-interleaved values resampled across into `out`. */
function acrossRow(source: Float32Array, offset: number, across: Resampling, channels: number, out: Float32Array | Float64Array): void {
  const { width, start, weights } = across;
  for (let x = 0; x < across.size; x++) {
    const first = offset + (start[x] as number) * channels;
    for (let c = 0; c < channels; c++) {
      let sum = 0;
      for (let k = 0; k < width; k++) sum += (weights[x * width + k] as number) * (source[first + k * channels + c] as number);
      out[x * channels + c] = sum;
    }
  }
}

/** A picture resampled across then down (both passes at float precision). */
function resampled(source: Float32Array, height: number, channels: number, across: Resampling, down: Resampling): Float32Array {
  const rowIn = (source.length / height) | 0;
  const rowOut = across.size * channels;
  const wide = new Float32Array(height * rowOut);
  const row = new Float32Array(rowOut);
  for (let y = 0; y < height; y++) {
    acrossRow(source, y * rowIn, across, channels, row);
    wide.set(row, y * rowOut);
  }
  const out = new Float32Array(down.size * rowOut);
  for (let y = 0; y < down.size; y++) {
    const first = down.start[y] as number;
    for (let k = 0; k < down.width; k++) {
      const w = down.weights[y * down.width + k] as number;
      const from = (first + k) * rowOut;
      const to = y * rowOut;
      for (let i = 0; i < rowOut; i++) out[to + i] = (out[to + i] as number) + w * (wide[from + i] as number);
    }
  }
  return out;
}

/**
 * The small picture corrected so that its enlargement, reduced, is the small picture again (Landweber's iteration,
 * on the small picture: the reduction of the enlargement is one separable resampling of it).
 */
function backProjected(small: Float32Array, width: number, height: number, channels: number, scale: number): Float32Array {
  const across = composed(reducing(width * scale, scale), enlarging(width, scale), width);
  const down = composed(reducing(height * scale, scale), enlarging(height, scale), height);
  const estimate = Float32Array.from(small);
  for (let round = 0; round < ROUNDS; round++) {
    const seen = resampled(estimate, height, channels, across, down);
    for (let i = 0; i < estimate.length; i++) estimate[i] = (estimate[i] as number) + (small[i] as number) - (seen[i] as number);
  }
  return estimate;
}

/**
 * The centred lanczos3 enlargement of `corrected` as 8-bit values, row by row: each output row is a weighed sum of a
 * few small rows enlarged across, kept in a ring as the rows move down, so no float copy of the large picture is made.
 * Each value is held within the least and greatest of the source's 2×2 block around its place, so neither lanczos's
 * ringing nor the back-projection's overshoot makes a halo at an edge (it cost 0.01 dB on the photos measured).
 */
function enlarged(corrected: Float32Array, source: Buffer, width: number, height: number, channels: number, scale: number): Buffer {
  const across = enlarging(width, scale);
  const down = enlarging(height, scale);
  const rowIn = width * channels;
  const rowOut = across.size * channels;
  const ringSize = down.width + 1;
  const ring = Array.from({ length: ringSize }, () => new Float64Array(rowOut));
  const held = new Int32Array(ringSize).fill(-1);
  const wideRow = (y: number): Float64Array => {
    const slot = y % ringSize;
    const row = ring[slot] as Float64Array;
    if (held[slot] !== y) {
      acrossRow(corrected, y * rowIn, across, channels, row);
      held[slot] = y;
    }
    return row;
  };
  // The source's 2×2 block around an output place: the source columns (and rows) on either side of it.
  const near = (x: number, size: number) => Math.min(size - 1, Math.max(0, Math.floor((x + 0.5) / scale - 0.5)));
  const far = (x: number, size: number) => Math.min(size - 1, Math.max(0, Math.floor((x + 0.5) / scale + 0.5)));
  const left = Int32Array.from({ length: across.size }, (_, x) => near(x, width) * channels);
  const right = Int32Array.from({ length: across.size }, (_, x) => far(x, width) * channels);
  const out = Buffer.alloc(down.size * rowOut);
  const sum = new Float64Array(rowOut);
  for (let y = 0; y < down.size; y++) {
    sum.fill(0);
    const first = down.start[y] as number;
    for (let k = 0; k < down.width; k++) {
      const w = down.weights[y * down.width + k] as number;
      const row = wideRow(first + k);
      for (let i = 0; i < rowOut; i++) sum[i] = (sum[i] as number) + w * (row[i] as number);
    }
    const above = near(y, height) * rowIn;
    const below = far(y, height) * rowIn;
    const to = y * rowOut;
    for (let x = 0; x < across.size; x++) {
      const l = left[x] as number;
      const r = right[x] as number;
      for (let c = 0; c < channels; c++) {
        const a = source[above + l + c] as number;
        const b = source[above + r + c] as number;
        const d = source[below + l + c] as number;
        const e = source[below + r + c] as number;
        const top = a < b ? a : b;
        const bottom = d < e ? d : e;
        const least = top < bottom ? top : bottom;
        const upper = a > b ? a : b;
        const lower = d > e ? d : e;
        const most = upper > lower ? upper : lower;
        // Adding ½ and truncating rounds as Math.round does wherever it matters: below zero, `least` (≥ 0) holds.
        const v = ((sum[x * channels + c] as number) + 0.5) | 0;
        out[to + x * channels + c] = v < least ? least : v > most ? most : v;
      }
    }
  }
  return out;
}

export async function upscaleImage(input: string, scale: 2 | 4, out: string): Promise<{ width: number; height: number }> {
  const image = openImage(input);
  const { autoOrient } = await image.metadata();
  const longSide = Math.max(autoOrient.width, autoOrient.height);
  if (longSide > UPSCALE_MAX_LONG_SIDE) throw new UpscaleInputError(longSide);
  const { data, info } = await image.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  const corrected = backProjected(Float32Array.from(data), info.width, info.height, channels, scale);
  const width = info.width * scale;
  const height = info.height * scale;
  const pixels = enlarged(corrected, data, info.width, info.height, channels, scale);
  await writeImage(sharp(pixels, { raw: { width, height, channels } }), out);
  return { width, height };
}
