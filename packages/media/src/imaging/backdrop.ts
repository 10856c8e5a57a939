/**
 * The photo's studio backdrop, found without the model (decision "Cut-outs keep the subject"): what the cut-out
 * checks the model's mask against. A product shot stands on white, light grey or a pale colour; where that colour
 * holds a good share of the photo's border, every pixel reachable from the border through pixels of that colour is
 * backdrop, and the rest (the subject, its shadow, its enclosed parts: a glass's body inside its rims) is not. The
 * model can drop a pale subject altogether (a white sleeve on white kept only its grey cuff); this cannot, since the
 * sleeve is set off from the backdrop by its colour or by its outline.
 */
import { boxMean } from './boxMean.js';
import { labelRegions } from './components.js';

export interface StudioBackdrop {
  /** Its colour (RGB). */
  colour: number[];
  /** The share of the photo's border it covers. */
  share: number;
  /** The colour distance past which a pixel is not the backdrop. */
  tolerance: number;
}

/** The least share of the border a backdrop covers: a close-up's subject may run off three of the four sides. */
const MIN_SHARE = 0.3;
/** A backdrop holding this share of the border is one whatever the rest is. */
const SURE_SHARE = 0.5;
/** Under SURE_SHARE, the backdrop and one other flat colour must hold this share of the border together. */
const FLAT_BORDER = 0.8;
/** The colour distance within which a border sample is the candidate backdrop colour. */
const NEAR = 20;
/** Studio backdrops are light (luma at least this) and unsaturated or pale (channel spread at most this). */
const MIN_LUMA = 140;
const MAX_SPREAD = 30;
/**
 * The backdrop is followed from pixel to pixel while neighbours (smoothed of grain) differ by at most STEP: a sweep's
 * light falloff and a soft shadow are gradual and stay backdrop, a subject's edge is a jump. REACH bounds how far
 * from the backdrop's colour the walk may go.
 */
const STEP = 7;
const REACH = 70;
/** How far (in each channel's share of the sum) a shaded backdrop's chroma may be from the backdrop's. */
const SHADE_CHROMA = 0.03;

const distance = (rgb: Buffer, i: number, colour: readonly number[]): number =>
  Math.hypot(
    (rgb[i * 3] as number) - (colour[0] as number),
    (rgb[i * 3 + 1] as number) - (colour[1] as number),
    (rgb[i * 3 + 2] as number) - (colour[2] as number),
  );

/**
 * The photo's studio backdrop (`rgb`, `width`×`height`), or null. The border's colours are binned; each of the
 * most common bins seeds a candidate (the mean of the border samples near the bin's mean); of the candidates
 * holding MIN_SHARE of the border and light enough, the lightest is the backdrop: when a grey sweater fills most of
 * a white frame, both its grey and the white hold a third of the border or more, and the white is the studio's.
 */
export function studioBackdrop(rgb: Buffer, width: number, height: number): StudioBackdrop | null {
  const border: number[] = [];
  for (let x = 0; x < width; x++) border.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y++) border.push(y * width, y * width + width - 1);
  const bins = new Map<number, number[]>();
  for (const p of border) {
    const key = ((rgb[p * 3] as number) >> 5) * 64 + ((rgb[p * 3 + 1] as number) >> 5) * 8 + ((rgb[p * 3 + 2] as number) >> 5);
    const bin = bins.get(key);
    if (bin) bin.push(p);
    else bins.set(key, [p]);
  }
  const candidates: (StudioBackdrop & { luma: number; light: boolean })[] = [];
  for (const members of [...bins.values()].sort((a, b) => b.length - a.length).slice(0, 4)) {
    const seed = [0, 1, 2].map((c) => members.reduce((s, p) => s + (rgb[p * 3 + c] as number), 0) / members.length);
    const near = border.filter((p) => distance(rgb, p, seed) < NEAR);
    if (near.length === 0) continue;
    const colour = [0, 1, 2].map((c) => near.reduce((s, p) => s + (rgb[p * 3 + c] as number), 0) / near.length);
    const luma = 0.299 * (colour[0] as number) + 0.587 * (colour[1] as number) + 0.114 * (colour[2] as number);
    // The grain of the backdrop sets how far from its colour a pixel must be to stand out.
    const spread = Math.sqrt(near.reduce((s, p) => s + distance(rgb, p, colour) ** 2, 0) / near.length);
    candidates.push({
      colour,
      share: near.length / border.length,
      tolerance: Math.max(16, 3 * spread),
      luma,
      light: luma >= MIN_LUMA && Math.max(...colour) - Math.min(...colour) <= MAX_SPREAD,
    });
  }
  const best = candidates.filter((c) => c.light && c.share >= MIN_SHARE).sort((a, b) => b.luma - a.luma)[0];
  if (!best) return null;
  // Under half the border, the rest of it must be one other flat colour (the subject running off the frame): a
  // light pavement under a park's trees is no studio.
  if (best.share < SURE_SHARE) {
    const other = Math.max(
      0,
      ...candidates.filter((c) => Math.hypot(...c.colour.map((v, k) => v - (best.colour[k] as number))) >= NEAR).map((c) => c.share),
    );
    if (best.share + other < FLAT_BORDER) return null;
  }
  return { colour: best.colour, share: best.share, tolerance: best.tolerance };
}

/**
 * 1 where the pixel is not the backdrop: not reachable from the border through pixels within the backdrop's
 * tolerance of its colour, or a gradual walk (STEP, within REACH) from them. Specks (under a thousandth of the
 * picture) are dropped.
 */
export function notBackdrop(rgb: Buffer, width: number, height: number, backdrop: StudioBackdrop): Uint8Array {
  const n = width * height;
  const smooth = [0, 1, 2].map((c) => {
    const plane = new Float32Array(n);
    for (let i = 0; i < n; i++) plane[i] = rgb[i * 3 + c] as number;
    return boxMean(plane, width, height, 2);
  }) as [Float32Array, Float32Array, Float32Array];
  const apart = (i: number, colour: readonly number[]) =>
    Math.hypot(
      (smooth[0][i] as number) - (colour[0] as number),
      (smooth[1][i] as number) - (colour[1] as number),
      (smooth[2][i] as number) - (colour[2] as number),
    );
  const step = (i: number, j: number) =>
    Math.hypot(
      (smooth[0][i] as number) - (smooth[0][j] as number),
      (smooth[1][i] as number) - (smooth[1][j] as number),
      (smooth[2][i] as number) - (smooth[2][j] as number),
    );
  // The backdrop darkened (the floor of a sweep falling off toward the camera, a shadow): its chroma, less light.
  const total = (backdrop.colour[0] as number) + (backdrop.colour[1] as number) + (backdrop.colour[2] as number);
  const shaded = (i: number) => {
    const sum = (smooth[0][i] as number) + (smooth[1][i] as number) + (smooth[2][i] as number);
    if (sum > total || sum < 30) return false;
    return [0, 1, 2].every(
      (c) => Math.abs(((smooth[c] as Float32Array)[i] as number) / sum - (backdrop.colour[c] as number) / total) < SHADE_CHROMA,
    );
  };
  const reached = new Uint8Array(n);
  const stack: number[] = [];
  const seed = (i: number) => {
    if (!reached[i] && apart(i, backdrop.colour) <= backdrop.tolerance) {
      reached[i] = 1;
      stack.push(i);
    }
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  const visit = (from: number, i: number) => {
    if (reached[i]) return;
    const near = apart(i, backdrop.colour);
    if (near <= backdrop.tolerance || (step(from, i) <= STEP && (near <= REACH || shaded(i)))) {
      reached[i] = 1;
      stack.push(i);
    }
  };
  while (stack.length > 0) {
    const i = stack.pop() as number;
    const x = i % width;
    if (x > 0) visit(i, i - 1);
    if (x < width - 1) visit(i, i + 1);
    if (i >= width) visit(i, i - width);
    if (i < n - width) visit(i, i + width);
  }
  const not = new Uint8Array(n);
  for (let i = 0; i < n; i++) not[i] = reached[i] ? 0 : 1;
  const { labels, regions } = labelRegions(not, width, height);
  const specks = new Set(regions.filter((r) => r.area < n / 1000).map((r) => r.label));
  for (let i = 0; i < n; i++) if (specks.has(labels[i] as number)) not[i] = 0;
  return not;
}

/** `on` (0/1) eroded by `radius`: the pixels whose whole square of that radius is on. */
export function erode(on: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const plane = new Float32Array(on.length);
  for (let i = 0; i < on.length; i++) plane[i] = on[i] ? 1 : 0;
  const mean = boxMean(plane, width, height, radius);
  const out = new Uint8Array(on.length);
  for (let i = 0; i < on.length; i++) out[i] = (mean[i] as number) > 0.999 ? 1 : 0;
  return out;
}
