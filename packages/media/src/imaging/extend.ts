/**
 * Image extension without a generative model, and never a mirror (decision "Extension from the background"): the new
 * area is the picture's own background carried outward. A strip along the picture's edges is read; what stands out
 * from a smooth fit of it (a product or shadow touching the edge) is left out; the rest is spread over the canvas by a
 * normalised blur that widens with the distance from the picture (a pyramid of weighted sums), so a studio backdrop
 * continues in its own colour and gradient with no seam, and a textured one goes soft as with a shallow depth of
 * field. Grain at the photo's own noise level is added, so the new area is no smoother than the photo.
 */
import sharp from 'sharp';
import { boxMean } from './boxMean.js';
import { subjectMask } from './cutout.js';
import { clamp, openImage, writeImage } from './open.js';

/** Where the picture goes on the larger canvas. */
export interface Canvas {
  width: number;
  height: number;
  left: number;
  top: number;
}

export class CanvasError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CanvasError';
  }
}

/** The canvas of ratio `w:h` that holds the picture whole, the picture centred (the new area split evenly). */
export function canvasForRatio(picture: { width: number; height: number }, ratio: string): Canvas {
  const match = /^(\d{1,2}):(\d{1,2})$/.exec(ratio);
  const rw = Number(match?.[1]);
  const rh = Number(match?.[2]);
  if (!match || rw <= 0 || rh <= 0) throw new CanvasError(`not a ratio: ${ratio}`);
  const width = Math.max(picture.width, Math.round((picture.height * rw) / rh));
  const height = Math.max(picture.height, Math.round((picture.width * rh) / rw));
  return { width, height, left: Math.floor((width - picture.width) / 2), top: Math.floor((height - picture.height) / 2) };
}

/** Throws unless the picture fits on the canvas where it is placed. */
export function checkCanvas(picture: { width: number; height: number }, canvas: Canvas): void {
  if (canvas.left + picture.width > canvas.width || canvas.top + picture.height > canvas.height) {
    throw new CanvasError(
      `a ${picture.width}×${picture.height} picture at (${canvas.left}, ${canvas.top}) does not fit a ${canvas.width}×${canvas.height} canvas`,
    );
  }
}

/** The strip along the picture's edges that is read, as a fraction of its shorter side (at least 4 px). */
const STRIP = 0.06;
/** How fast the blur widens outward: its spread is this fraction of the distance from the picture (plus a pixel). */
const DEPTH = 0.5;
/** Each blurred profile is this much wider than the last; the ones between are blends of the two nearest. */
const SPREAD_STEP = 1.2;
/** Rows read at each edge for its profile. */
const EDGE_ROWS = 4;
/** The most grain added, in levels: above it a border's "noise" is texture, which the blur has already softened. */
const MAX_GRAIN = 4;
/** The residual limit (levels) above which a backdrop is textured: a clean studio backdrop's is the floor, 8. */
const TEXTURED = 12;
/** How many cells of the subject's mask (512 px) it is grown by: 1 % of its side. */
const SUBJECT_GROWTH = 5;

/** Solves the n×n system `a`·x = `b` (row-major, both overwritten) by Gaussian elimination with pivoting. */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array {
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r * n + col] as number) > Math.abs(a[pivot * n + col] as number)) pivot = r;
    for (let k = 0; k < n; k++) {
      const t = a[col * n + k] as number;
      a[col * n + k] = a[pivot * n + k] as number;
      a[pivot * n + k] = t;
    }
    const tb = b[col] as number;
    b[col] = b[pivot] as number;
    b[pivot] = tb;
    const d = a[col * n + col] as number;
    if (Math.abs(d) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = (a[r * n + col] as number) / d;
      if (f === 0) continue;
      for (let k = col; k < n; k++) a[r * n + k] = (a[r * n + k] as number) - f * (a[col * n + k] as number);
      b[r] = (b[r] as number) - f * (b[col] as number);
    }
  }
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = a[i * n + i] as number;
    x[i] = Math.abs(d) < 1e-12 ? 0 : (b[i] as number) / d;
  }
  return x;
}

const median = (values: number[]) => {
  const sorted = values.slice().sort((p, q) => p - q);
  return sorted.length ? (sorted[Math.floor(sorted.length / 2)] as number) : 0;
};

/** The picture's RGB pixels and size. */
interface Picture {
  data: Buffer;
  width: number;
  height: number;
}

/** Calls `visit` for every pixel of the strip along the picture's four edges, `step` apart. */
function forStrip(picture: Picture, strip: number, step: number, visit: (x: number, y: number) => void): void {
  const { width, height } = picture;
  for (let y = 0; y < height; y += step) {
    if (y < strip || y >= height - strip) {
      for (let x = 0; x < width; x += step) visit(x, y);
      continue;
    }
    for (let x = 0; x < strip; x += step) visit(x, y);
    for (let x = width - strip; x < width; x += step) visit(x, y);
  }
}

/** What the strip tells of the backdrop. */
interface Backdrop {
  /** Whether the picture's pixel (x, y) (of the strip) is backdrop. */
  isBackground: (x: number, y: number) => boolean;
  /** The smooth surface fitted to the backdrop at (x, y), channel c: its gradient carries on outward. */
  fit: (x: number, y: number, c: number) => number;
  /** Whether the backdrop is textured (its residuals spread wide), so a product on the edge does not stand out. */
  textured: boolean;
}

/**
 * Which strip pixels are background: a quadratic surface per channel is fitted to the strip, robustly (three
 * rounds, each leaving out what lies far from the last fit), and a pixel is background unless it lies further from
 * the surface than three times the spread of the residuals (at least 8 levels): a product or a shadow that touches
 * the edge stands out from a studio backdrop and is left out; on a textured backdrop the spread is wide and
 * nearly all of it is kept.
 */
function backgroundOf(picture: Picture, strip: number): Backdrop {
  const { data, width, height } = picture;
  const basis = (x: number, y: number) => {
    const u = x / width - 0.5;
    const v = y / height - 0.5;
    return [1, u, v, u * u, u * v, v * v];
  };
  const samples: { x: number; y: number; f: number[] }[] = [];
  const step = Math.max(1, Math.round(Math.sqrt((2 * (width + height) * strip) / 20_000)));
  forStrip(picture, strip, step, (x, y) => samples.push({ x, y, f: basis(x, y) }));
  let coefficients: Float64Array[] = [];
  let keep = samples.map(() => true);
  let limit = Number.POSITIVE_INFINITY;
  const residual = (x: number, y: number, f: number[]) => {
    let worst = 0;
    for (let c = 0; c < 3; c++) {
      const k = coefficients[c] as Float64Array;
      let fit = 0;
      for (let j = 0; j < 6; j++) fit += (k[j] as number) * (f[j] as number);
      worst = Math.max(worst, Math.abs((data[(y * width + x) * 3 + c] as number) - fit));
    }
    return worst;
  };
  for (let round = 0; round < 3; round++) {
    coefficients = [0, 1, 2].map((c) => {
      const a = new Float64Array(36);
      const b = new Float64Array(6);
      samples.forEach(({ x, y, f }, i) => {
        if (!keep[i]) return;
        const value = data[(y * width + x) * 3 + c] as number;
        for (let p = 0; p < 6; p++) {
          b[p] = (b[p] as number) + (f[p] as number) * value;
          for (let q = 0; q < 6; q++) a[p * 6 + q] = (a[p * 6 + q] as number) + (f[p] as number) * (f[q] as number);
        }
      });
      for (let p = 0; p < 6; p++) a[p * 7] = (a[p * 7] as number) + 1e-6;
      return solve(a, b, 6);
    });
    const residuals = samples.map(({ x, y, f }) => residual(x, y, f));
    limit = Math.max(8, 3 * 1.4826 * median(residuals.filter((_, i) => keep[i])));
    keep = residuals.map((r) => r <= limit);
  }
  const fit = (x: number, y: number, c: number) => {
    const f = basis(x, y);
    const k = coefficients[c] as Float64Array;
    let value = 0;
    for (let j = 0; j < 6; j++) value += (k[j] as number) * (f[j] as number);
    return value;
  };
  return { isBackground: (x, y) => residual(x, y, basis(x, y)) <= limit, fit, textured: limit > TEXTURED };
}

/**
 * The backdrop with the subject the cut-out model finds left out of it: on a textured backdrop the fit keeps nearly
 * everything, so a person cut by the top edge at the chin had the chin carried up into the new area, a dark smudge
 * where a head would be. The model runs at the cut-out's 512 px (about 0.4 s here): framing's 256 px mask missed a
 * tee's wearer's neck on the real photos and marked the backdrop beside it. Pixels the model is even a quarter sure
 * of are the subject's, so its soft rim stays out too. A studio backdrop needs none of it: the fit already tells the
 * product from it.
 */
async function withoutSubject(input: string, picture: Picture, backdrop: Backdrop): Promise<Backdrop> {
  const { mask, side } = await subjectMask(input);
  const { width, height } = picture;
  // Grown by a few cells: a mask has gaps inside a subject, and what is between them would be carried out.
  const sure = Float32Array.from(mask, (v) => (v >= 64 ? 1 : 0));
  const grown = boxMean(sure, side, side, SUBJECT_GROWTH);
  // Along each edge, all between the subject's first and last cell is the subject's too: the model leaves out what
  // a garment frames (a tee's wearer's neck, between its shoulders), and the backdrop either side bridges it anyway.
  const cell = (along: number, depth: number, edge: number) =>
    edge === 0
      ? depth * side + along
      : edge === 1
        ? (side - 1 - depth) * side + along
        : edge === 2
          ? along * side + depth
          : along * side + side - 1 - depth;
  for (let edge = 0; edge < 4; edge++) {
    for (let depth = 0; depth < SUBJECT_GROWTH; depth++) {
      let first = -1;
      let last = -1;
      for (let along = 0; along < side; along++) {
        if ((grown[cell(along, depth, edge)] as number) <= 0) continue;
        if (first < 0) first = along;
        last = along;
      }
      for (let along = first + 1; first >= 0 && along < last; along++) grown[cell(along, depth, edge)] = 1;
    }
  }
  const subject = (x: number, y: number) =>
    (grown[Math.min(side - 1, Math.floor((y * side) / height)) * side + Math.min(side - 1, Math.floor((x * side) / width))] as number) > 0;
  return { ...backdrop, isBackground: (x, y) => !subject(x, y) && backdrop.isBackground(x, y) };
}

/**
 * The photo's grain: the spread of the luminance's difference from the mean of its four neighbours over the
 * background of the strip, converted to the spread of independent noise per pixel.
 */
function grainOf(picture: Picture, strip: number, { isBackground }: Backdrop): number {
  const { data, width, height } = picture;
  const luma = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    return 0.299 * (data[i] as number) + 0.587 * (data[i + 1] as number) + 0.114 * (data[i + 2] as number);
  };
  const highs: number[] = [];
  const step = Math.max(1, Math.round(Math.sqrt((2 * (width + height) * strip) / 20_000)));
  forStrip(picture, strip, step, (x, y) => {
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1 || !isBackground(x, y)) return;
    highs.push(Math.abs(luma(x, y) - (luma(x - 1, y) + luma(x + 1, y) + luma(x, y - 1) + luma(x, y + 1)) / 4));
  });
  // Independent noise of spread σ gives a difference of spread σ·√(1 + 1/4).
  return Math.min(MAX_GRAIN, (1.4826 * median(highs)) / Math.sqrt(1.25));
}

/** A blur of `values` (`channels` interleaved) by a gaussian of spread `sigma`, edges repeated. */
function blur1d(values: Float32Array, channels: number, sigma: number): Float32Array {
  const length = values.length / channels;
  const at = (i: number) => clamp(i, 0, length - 1);
  if (sigma < 10) {
    const radius = Math.ceil(3 * sigma);
    const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)));
    const total = kernel.reduce((a, b) => a + b, 0);
    const out = new Float32Array(values.length);
    for (let i = 0; i < length; i++) {
      for (let k = -radius; k <= radius; k++) {
        const weight = (kernel[k + radius] as number) / total;
        const from = at(i + k) * channels;
        for (let c = 0; c < channels; c++)
          out[i * channels + c] = (out[i * channels + c] as number) + weight * (values[from + c] as number);
      }
    }
    return out;
  }
  // Three box blurs of this radius make a gaussian of spread `sigma` (near enough).
  const radius = Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2);
  let from = values;
  for (let pass = 0; pass < 3; pass++) {
    const out = new Float32Array(values.length);
    for (let c = 0; c < channels; c++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++) sum += from[at(k) * channels + c] as number;
      for (let i = 0; i < length; i++) {
        out[i * channels + c] = sum / (2 * radius + 1);
        sum += (from[at(i + radius + 1) * channels + c] as number) - (from[at(i - radius) * channels + c] as number);
      }
    }
    from = out;
  }
  return from;
}

type Side = 'top' | 'bottom' | 'left' | 'right';

/**
 * One edge carried outward: its profile (the mean of its first rows, backdrop only; where a product touches the
 * edge, the backdrop on either side joined by a straight line), blurred more the further out, plus the fitted
 * surface's gradient across the edge, levelling off.
 */
class EdgeFill {
  private readonly profiles: Float32Array[] = [];
  private readonly slope: Float32Array;
  private readonly reach: number;

  constructor(picture: Picture, backdrop: Backdrop, side: Side, farthest: number) {
    const { data, width, height } = picture;
    const along = side === 'top' || side === 'bottom' ? width : height;
    const rows = Math.min(EDGE_ROWS, side === 'top' || side === 'bottom' ? height : width);
    // The picture's pixel at `s` along the edge and `j` in from it, and the point just outside it.
    const pixel = (s: number, j: number): [number, number] =>
      side === 'top' ? [s, j] : side === 'bottom' ? [s, height - 1 - j] : side === 'left' ? [j, s] : [width - 1 - j, s];
    const profile = new Float32Array(along * 3);
    const known: number[] = [];
    for (let s = 0; s < along; s++) {
      let count = 0;
      for (let j = 0; j < rows; j++) {
        const [x, y] = pixel(s, j);
        if (!backdrop.isBackground(x, y)) continue;
        count++;
        for (let c = 0; c < 3; c++) profile[s * 3 + c] = (profile[s * 3 + c] as number) + (data[(y * width + x) * 3 + c] as number);
      }
      if (count === 0) continue;
      for (let c = 0; c < 3; c++) profile[s * 3 + c] = (profile[s * 3 + c] as number) / count;
      known.push(s);
    }
    if (known.length === 0) {
      // No backdrop on this edge at all: the edge itself is carried out.
      for (let s = 0; s < along; s++) {
        for (let j = 0; j < rows; j++) {
          const [x, y] = pixel(s, j);
          for (let c = 0; c < 3; c++)
            profile[s * 3 + c] = (profile[s * 3 + c] as number) + (data[(y * width + x) * 3 + c] as number) / rows;
        }
        known.push(s);
      }
    }
    // Gaps (a product on the edge) bridged by a straight line between the backdrop either side, or its nearest end.
    for (let k = 0; k <= known.length; k++) {
      const before = known[k - 1];
      const after = known[k];
      const start = before === undefined ? 0 : before + 1;
      const end = after === undefined ? along : after;
      for (let s = start; s < end; s++) {
        const t = before === undefined || after === undefined ? 0 : (s - before) / (after - before);
        const a = (before ?? after) as number;
        const b = (after ?? before) as number;
        for (let c = 0; c < 3; c++) profile[s * 3 + c] = (profile[a * 3 + c] as number) * (1 - t) + (profile[b * 3 + c] as number) * t;
      }
    }
    for (let sigma = 1; ; sigma *= SPREAD_STEP) {
      this.profiles.push(blur1d(profile, 3, sigma));
      if (sigma > 1 + DEPTH * farthest) break;
    }
    this.slope = new Float32Array(along * 3);
    for (let s = 0; s < along; s++) {
      const [x, y] = pixel(s, 0);
      const [ox, oy] = side === 'top' ? [x, -1] : side === 'bottom' ? [x, height] : side === 'left' ? [-1, y] : [width, y];
      for (let c = 0; c < 3; c++) this.slope[s * 3 + c] = clamp(backdrop.fit(ox, oy, c) - backdrop.fit(x, y, c), -0.2, 0.2);
    }
    this.reach = 0.1 * Math.max(width, height);
  }

  /** The colour at `s` along the edge and `d` pixels out from it, into `into`. */
  colour(s: number, d: number, into: Float64Array): void {
    const level = clamp(Math.log(1 + DEPTH * d) / Math.log(SPREAD_STEP), 0, this.profiles.length - 1);
    const l0 = Math.floor(level);
    const t = level - l0;
    const lower = this.profiles[l0] as Float32Array;
    const upper = this.profiles[Math.min(l0 + 1, this.profiles.length - 1)] as Float32Array;
    const carried = this.reach * (1 - Math.exp(-d / this.reach));
    for (let c = 0; c < 3; c++) {
      const i = s * 3 + c;
      const offset = clamp((this.slope[i] as number) * carried, -20, 20);
      into[c] = (lower[i] as number) * (1 - t) + (upper[i] as number) * t + offset;
    }
  }
}

export async function extendImage(input: string, canvas: Canvas, out: string): Promise<{ width: number; height: number }> {
  const { data, info } = await openImage(input)
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const picture: Picture = { data, width: info.width, height: info.height };
  const { width: pw, height: ph } = picture;
  checkCanvas(picture, canvas);
  const result = Buffer.alloc(canvas.width * canvas.height * 3);
  for (let y = 0; y < ph; y++) data.copy(result, ((y + canvas.top) * canvas.width + canvas.left) * 3, y * pw * 3, (y + 1) * pw * 3);
  const raw = { width: canvas.width, height: canvas.height, channels: 3 } as const;
  const right = canvas.left + pw;
  const bottom = canvas.top + ph;
  const bands = { top: canvas.top, bottom: canvas.height - bottom, left: canvas.left, right: canvas.width - right };
  if (Object.values(bands).every((band) => band === 0)) {
    await writeImage(sharp(result, { raw }), out);
    return { width: canvas.width, height: canvas.height };
  }
  const strip = Math.min(Math.max(4, Math.round(STRIP * Math.min(pw, ph))), Math.ceil(Math.min(pw, ph) / 2));
  const fitted = backgroundOf(picture, strip);
  const backdrop = fitted.textured ? await withoutSubject(input, picture, fitted) : fitted;
  const grain = grainOf(picture, strip, backdrop);
  const farthest = Math.hypot(Math.max(bands.left, bands.right), Math.max(bands.top, bands.bottom));
  const fills = Object.fromEntries(
    (Object.keys(bands) as Side[]).filter((side) => bands[side] > 0).map((side) => [side, new EdgeFill(picture, backdrop, side, farthest)]),
  ) as Partial<Record<Side, EdgeFill>>;
  const across = new Float64Array(3);
  const down = new Float64Array(3);
  let seed = 0x9e3779b9;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  for (let y = 0; y < canvas.height; y++) {
    const dy = y < canvas.top ? canvas.top - y : y >= bottom ? y - bottom + 1 : 0;
    const vertical = y < canvas.top ? fills.top : fills.bottom;
    const horizontalAt = clamp(y - canvas.top, 0, ph - 1);
    for (let x = 0; x < canvas.width; x++) {
      const dx = x < canvas.left ? canvas.left - x : x >= right ? x - right + 1 : 0;
      if (dx === 0 && dy === 0) {
        x = right - 1;
        continue;
      }
      const horizontal = x < canvas.left ? fills.left : fills.right;
      const verticalAt = clamp(x - canvas.left, 0, pw - 1);
      let share = 1;
      if (dx === 0) vertical?.colour(verticalAt, dy, down);
      else if (dy === 0) horizontal?.colour(horizontalAt, dx, down);
      else {
        // A corner: the two edges' fills at the same distance, weighed by the direction.
        const d = Math.hypot(dx, dy);
        vertical?.colour(verticalAt, d, down);
        horizontal?.colour(horizontalAt, d, across);
        share = dy / (dx + dy);
      }
      // The sum of four uniform numbers less 2 has a spread of 1/√3: close enough to a normal grain.
      const noise = grain * Math.sqrt(3) * (random() + random() + random() + random() - 2);
      const i = (y * canvas.width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const value = share === 1 ? (down[c] as number) : (down[c] as number) * share + (across[c] as number) * (1 - share);
        result[i + c] = clamp(Math.round(value + noise), 0, 255);
      }
    }
  }
  await writeImage(sharp(result, { raw }), out);
  return { width: canvas.width, height: canvas.height };
}
