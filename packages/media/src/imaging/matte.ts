/**
 * The cut-out's matte refined at the picture's full size (decision "Studio backdrops"). The model sees the picture
 * at 512 px; its mask, enlarged, is a soft blur along every edge that cuts hair and fabric flat and lets the floor's
 * colour bleed into the subject's rim. Here, on the band along the mask's edge only:
 * - a guided filter (He, Sun and Tang) with the photo as guide makes the alpha follow the photo's own edges, so
 *   fine edges keep their partial transparency;
 * - pixels of that band that are the floor around the subject (its colour, or a shadow of it: the same chroma,
 *   darker) are dropped, and the colour of the partly transparent pixels is unmixed from the local background;
 * inside the subject, where the picture stands on a plain backdrop, regions of that backdrop's colour seen through
 * the subject (glass, clear plastic) keep their transparency: their alpha follows their difference from the backdrop;
 * and the clear parts the model left out altogether (a glass jar's body under its lid, see clear.ts) are added at
 * that same partial alpha.
 */
import { boxMean } from './boxMean.js';
import { type ClearParts, clearParts } from './clear.js';
import { labelRegions } from './components.js';
import { clamp } from './open.js';

/** The guided filter of `p` by the guide `guide` (both 0–1): a local linear model of p in the guide's values. */
export function guidedFilter(guide: Float32Array, p: Float32Array, width: number, height: number, radius: number, eps: number) {
  const n = guide.length;
  const ip = new Float32Array(n);
  const ii = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    ip[i] = (guide[i] as number) * (p[i] as number);
    ii[i] = (guide[i] as number) ** 2;
  }
  const meanI = boxMean(guide, width, height, radius);
  const meanP = boxMean(p, width, height, radius);
  const meanIp = boxMean(ip, width, height, radius);
  const meanIi = boxMean(ii, width, height, radius);
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const mi = meanI[i] as number;
    const variance = (meanIi[i] as number) - mi * mi;
    const ai = ((meanIp[i] as number) - mi * (meanP[i] as number)) / (variance + eps);
    a[i] = ai;
    b[i] = (meanP[i] as number) - ai * mi;
  }
  const meanA = boxMean(a, width, height, radius);
  const meanB = boxMean(b, width, height, radius);
  const q = new Float32Array(n);
  for (let i = 0; i < n; i++) q[i] = (meanA[i] as number) * (guide[i] as number) + (meanB[i] as number);
  return q;
}

/** Channel spread (max − min) at or under which a colour counts as unsaturated (grey, white, clear). */
const GREY = 24;
/** The colour distance from a plain backdrop under which a pixel inside the subject is that backdrop seen through it. */
const SEE_THROUGH = 22;
/** The colour distance from the backdrop a fully opaque pane would have: alpha grows with the distance toward it. */
const GLASS_SPAN = 60;
/** The least alpha a see-through pixel keeps: glass is never quite invisible. */
const GLASS_FLOOR = 0.1;

export interface Refined {
  /** The alpha, 0–255, one byte a pixel. */
  alpha: Buffer;
  /** The colour (RGB), unmixed from the background where the alpha is partial. */
  colour: Buffer;
  /** The share of the subject's pixels found see-through, clear parts added included (0 when the backdrop is not plain). */
  seeThrough: number;
}

/**
 * Refines `coarse` (0–255, the model's mask enlarged to `width`×`height`) with the picture `rgb` as guide.
 * `backdrop` is the picture's plain backdrop colour, if it has one.
 */
export function refineMatte(rgb: Buffer, coarse: Buffer, width: number, height: number, backdrop: readonly number[] | null): Refined {
  const n = width * height;
  // Radii follow the picture's size: the enlarged model mask is soft over about two model pixels.
  const scale = Math.max(width, height) / 512;
  const radius = Math.max(2, Math.round(scale * 2.5));
  const guide = new Float32Array(n);
  const p = new Float32Array(n);
  const hard = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    guide[i] = (0.299 * (rgb[i * 3] as number) + 0.587 * (rgb[i * 3 + 1] as number) + 0.114 * (rgb[i * 3 + 2] as number)) / 255;
    p[i] = (coarse[i] as number) / 255;
    hard[i] = (coarse[i] as number) >= 128 ? 1 : 0;
  }
  // The band: where a window of twice the radius holds both subject and background.
  const mix = boxMean(hard, width, height, radius * 2);

  // The local background's and the local subject's colour: means weighted by how surely each pixel is either.
  const wide = radius * 4;
  const weightB = new Float32Array(n);
  const weightF = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    weightB[i] = (1 - (p[i] as number)) ** 2;
    weightF[i] = (p[i] as number) ** 2;
  }
  const meanWB = boxMean(weightB, width, height, wide);
  const meanWF = boxMean(weightF, width, height, wide);
  const bg: Float32Array[] = [];
  const fg: Float32Array[] = [];
  for (let c = 0; c < 3; c++) {
    const wb = new Float32Array(n);
    const wf = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      wb[i] = (rgb[i * 3 + c] as number) * (weightB[i] as number);
      wf[i] = (rgb[i * 3 + c] as number) * (weightF[i] as number);
    }
    bg.push(boxMean(wb, width, height, wide));
    fg.push(boxMean(wf, width, height, wide));
  }

  // The guide: where the pixel lies between the local background's colour and the subject's (a projection, which
  // tells a blue box from a brown floor of the same brightness); the brightness where the two are alike.
  const projected = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const wb = meanWB[i] as number;
    const wf = meanWF[i] as number;
    if (wb < 0.01 || wf < 0.01) continue;
    let dot = 0;
    let span = 0;
    for (let c = 0; c < 3; c++) {
      const b = ((bg[c] as Float32Array)[i] as number) / wb;
      const d = ((fg[c] as Float32Array)[i] as number) / wf - b;
      dot += ((rgb[i * 3 + c] as number) - b) * d;
      span += d * d;
    }
    if (span > 900) {
      guide[i] = clamp(dot / span, 0, 1);
      projected[i] = 1;
    }
  }
  const filtered = guidedFilter(guide, p, width, height, radius, 1e-3);
  const clear: ClearParts | null = backdrop ? clearParts(rgb, hard, width, height) : null;
  const seen = backdrop ? seenThrough(rgb, hard, width, height, backdrop, radius) : null;
  const thin = thinParts(rgb, hard, width, height, radius * 2);

  const alpha = Buffer.alloc(n);
  const colour = Buffer.from(rgb);
  let subject = 0;
  let seeThrough = 0;
  for (let i = 0; i < n; i++) {
    const m = mix[i] as number;
    // Deep inside the subject (no background within the band's reach) the model's doubt is not transparency: a white
    // sweatshirt's back on white came out at 0.6–0.9 from the model and the new backdrop showed through it.
    let a = m >= 0.999 ? 1 : (p[i] as number);
    const r = rgb[i * 3] as number;
    const g = rgb[i * 3 + 1] as number;
    const b = rgb[i * 3 + 2] as number;
    if (thin[i]) a = 0;
    else if (m > 0.001 && m < 0.999) {
      a = clamp(filtered[i] as number, 0, 1);
      // Where the subject and the background differ clearly in colour, a pixel of the background's colour is
      // background however sure the model was (its mask overshoots the subject by a few pixels).
      if (projected[i] && a < 0.97) a = Math.min(a, clamp((guide[i] as number) * 1.25, 0, 1));
      const wb = meanWB[i] as number;
      const wf = meanWF[i] as number;
      if (wb > 0.01 && a > 0 && a < 1) {
        const back = [0, 1, 2].map((c) => ((bg[c] as Float32Array)[i] as number) / wb);
        const front = [0, 1, 2].map((c) => ((fg[c] as Float32Array)[i] as number) / Math.max(0.01, wf));
        // The floor, or its shadow, at the rim: the local background's chroma, no brighter than it, and further from
        // the subject's colour than from it.
        if (a < 0.85 && isFloor([r, g, b], back, front)) a = 0;
        // Unmixed: the pixel is a·F + (1 − a)·B; F is solved for, pulled toward the subject's local colour where a
        // is small and the solution unsteady.
        const sure = clamp((a - 0.15) / 0.5, 0, 1);
        for (let c = 0; c < 3; c++) {
          const solved = a > 0.02 ? ((rgb[i * 3 + c] as number) - (1 - a) * (back[c] as number)) / a : (front[c] as number);
          colour[i * 3 + c] = clamp(Math.round(sure * solved + (1 - sure) * (front[c] as number)), 0, 255);
        }
      }
    }
    const clearShare = clear ? (clear.mask[i] as number) : 0;
    if (clearShare > 0) {
      const behind = clear?.behind.map((plane) => plane[i] as number) ?? [];
      const glass = clearShare * glassAlpha(Math.hypot(r - (behind[0] as number), g - (behind[1] as number), b - (behind[2] as number)));
      if (glass > a) {
        subject++;
        seeThrough++;
        unmix(colour, rgb, i, behind, glass);
        a = glass;
      }
    } else if (backdrop && a > 0.5) {
      subject++;
      // `seen` holds only unsaturated pixels within SEE_THROUGH of the backdrop, inside an outline.
      if (seen?.[i]) {
        seeThrough++;
        const glass = glassAlpha(Math.hypot(r - (backdrop[0] as number), g - (backdrop[1] as number), b - (backdrop[2] as number)));
        unmix(colour, rgb, i, backdrop, glass);
        a *= glass;
      }
    }
    alpha[i] = Math.round(a * 255);
  }
  return { alpha, colour, seeThrough: subject > 0 ? seeThrough / subject : 0 };
}

/** The colour distance from the backdrop of a glass's outline (its rims, its refracted edges). */
const OUTLINE = 45;
/** The share of a see-through region's border that must run along an outline. */
const OUTLINED = 0.75;

/**
 * The pixels inside the subject (`hard`) that may be the backdrop seen through it: regions of unsaturated pixels
 * within SEE_THROUGH of the backdrop whose border runs along an outline (a clear body's rims and refracted edges, or
 * a coloured part: a lid, a label) for at least OUTLINED of its length. A white product on white (a mug's glaze, a
 * sweatshirt's back) has such regions too, where its light side comes near the backdrop's colour, but they fade
 * into its shading or into the backdrop with no outline: on a real photo of a white sweatshirt on white they were
 * cut see-through, and the new backdrop showed through the wearer's back.
 */
function seenThrough(
  rgb: Buffer,
  hard: Float32Array,
  width: number,
  height: number,
  backdrop: readonly number[],
  radius: number,
): Uint8Array {
  const n = width * height;
  const candidate = new Uint8Array(n);
  const strong = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = rgb[i * 3] as number;
    const g = rgb[i * 3 + 1] as number;
    const b = rgb[i * 3 + 2] as number;
    const spread = Math.max(r, g, b) - Math.min(r, g, b);
    const distance = Math.hypot(r - (backdrop[0] as number), g - (backdrop[1] as number), b - (backdrop[2] as number));
    if (hard[i] && spread <= GREY && distance < SEE_THROUGH) candidate[i] = 1;
    else if (spread > GREY || distance >= OUTLINE) strong[i] = 1;
  }
  // An outline within the edge band's radius of the border counts: a photo's rim is a few pixels soft.
  const nearStrong = boxMean(strong, width, height, radius);
  const { labels, regions } = labelRegions(candidate, width, height);
  const border = new Float64Array(regions.length + 1);
  const outlined = new Float64Array(regions.length + 1);
  for (let i = 0; i < n; i++) {
    const label = labels[i] as number;
    if (!label) continue;
    const x = i % width;
    const edge =
      x === 0 ||
      x === width - 1 ||
      i < width ||
      i >= n - width ||
      !labels[i - 1] ||
      !labels[i + 1] ||
      !labels[i - width] ||
      !labels[i + width];
    if (!edge) continue;
    border[label] = (border[label] as number) + 1;
    if ((nearStrong[i] as number) > 0) outlined[label] = (outlined[label] as number) + 1;
  }
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const label = labels[i] as number;
    if (label && (outlined[label] as number) >= OUTLINED * (border[label] as number)) seen[i] = 1;
  }
  return seen;
}

/** A see-through pixel's alpha by its colour distance from the backdrop behind it. */
const glassAlpha = (distance: number) => clamp(GLASS_FLOOR + (distance / GLASS_SPAN) * (1 - GLASS_FLOOR), GLASS_FLOOR, 1);

/** What the glass adds to the backdrop, kept: pixel `i`'s colour unmixed from `behind` at alpha `glass`. */
function unmix(colour: Buffer, rgb: Buffer, i: number, behind: readonly number[], glass: number) {
  for (let c = 0; c < 3; c++) {
    const v = rgb[i * 3 + c] as number;
    colour[i * 3 + c] = clamp(Math.round((behind[c] as number) + (v - (behind[c] as number)) / glass), 0, 255);
  }
}

/** Colour distance from the body's nearby colour over which a thin part of the mask is not the subject's. */
const THIN_APART = 60;

/**
 * The thin parts of the mask that are not the subject's (a floor's grout line or a table's edge the model kept
 * joined to the product): what an opening of `radius` removes (narrower than twice it), whose colour is far from
 * the colour of the subject's body near it, or with no body near it at all. Hair, laces and straps near the body
 * share its colours and stay.
 */
function thinParts(rgb: Buffer, hard: Float32Array, width: number, height: number, radius: number): Uint8Array {
  const n = width * height;
  const inner = boxMean(hard, width, height, radius);
  const core = new Float32Array(n);
  for (let i = 0; i < n; i++) core[i] = (inner[i] as number) > 0.999 ? 1 : 0;
  const reach = boxMean(core, width, height, radius);
  const near = boxMean(core, width, height, radius * 4);
  const sums = [0, 1, 2].map((c) => {
    const plane = new Float32Array(n);
    for (let i = 0; i < n; i++) plane[i] = (rgb[i * 3 + c] as number) * (core[i] as number);
    return boxMean(plane, width, height, radius * 4);
  });
  const thin = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!hard[i] || (reach[i] as number) > 0.001) continue;
    const w = near[i] as number;
    if (w < 0.002) {
      thin[i] = 1;
      continue;
    }
    const d = Math.hypot(...[0, 1, 2].map((c) => (rgb[i * 3 + c] as number) - ((sums[c] as Float32Array)[i] as number) / w));
    if (d > THIN_APART) thin[i] = 1;
  }
  return thin;
}

/** The chroma (each channel's share of the sum) of a colour. */
const chromaOf = (v: readonly number[]) => {
  const sum = Math.max(1, (v[0] as number) + (v[1] as number) + (v[2] as number));
  return { shares: v.map((c) => c / sum), sum };
};

/**
 * A pixel of the rim that is the floor around the subject or a shadow on it, not the subject: the local
 * background's chroma (and clearly not the subject's), as bright as the background or darker.
 */
function isFloor(pixel: readonly number[], back: readonly number[], front: readonly number[]): boolean {
  const p = chromaOf(pixel);
  const b = chromaOf(back);
  const f = chromaOf(front);
  const toBack = Math.hypot(...p.shares.map((v, c) => v - (b.shares[c] as number)));
  const toFront = Math.hypot(...p.shares.map((v, c) => v - (f.shares[c] as number)));
  const ratio = p.sum / b.sum;
  return toBack < 0.03 && toBack * 2 < toFront && ratio > 0.3 && ratio < 1.08;
}
