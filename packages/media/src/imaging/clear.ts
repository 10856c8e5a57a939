/**
 * The clear parts of a subject the cut-out model leaves out (decision "Clear bodies"): a glass jar's body, a clear
 * bottle under its cap. The model sees the backdrop through them and drops them, so only the lid survived. On a plain
 * backdrop, what differs from the backdrop's smooth light (a glass outline, its rims and highlights) is an object's
 * trace; where those traces close, together with the subject the model found, around a region of the backdrop's
 * colour, that region is the object seen through: it is the subject's, at the partial alpha glass has.
 */
import { boxMean } from './boxMean.js';
import { labelRegions } from './components.js';

export interface ClearParts {
  /** How surely each pixel is a clear part of the subject the model left out, 0–1 (its edge soft). */
  mask: Float32Array;
  /** The backdrop's colour behind each pixel (RGB planes), what a clear part's colour is unmixed from. */
  behind: [Float32Array, Float32Array, Float32Array];
}

/** The longest side clear parts are looked for at. */
const WORK_SIDE = 512;
/** The share of the picture's longest side over which the backdrop's light is taken as smooth. */
const LIGHT_SPAN = 0.024;
/** How far a trace may break and still outline one object, as a share of the longest side. */
const GAP = 0.012;
/** A pixel is a trace when it differs from the backdrop's light by this many times the backdrop's own noise… */
const NOISE_TIMES = 4;
/** …and by at least this many levels (a clean studio backdrop has almost no noise). */
const MIN_TRACE = 2.5;
/** An enclosed region smaller than this share of the subject is a speck the backdrop's noise closed, not a body. */
const MIN_BODY = 0.05;
/**
 * Clear parts larger than this many times the subject the model found (a bottle's body is ten times its cap), or than
 * half the picture, are the backdrop closed by a table's edge or shadows, not glass.
 */
const MAX_GROWTH = 12;

/**
 * Finds the clear parts of the subject `hard` (1 subject, 0 not) of the picture `rgb` on a plain backdrop: the
 * regions the subject and the traces joined to it enclose (not those the subject encloses alone), with the traces
 * along them and the faint stretch between them and the subject.
 */
export function clearParts(rgb: Buffer, hard: Float32Array, width: number, height: number): ClearParts {
  // Outlines and bodies are shapes, not detail: found on the picture shrunk by a whole factor to WORK_SIDE at most
  // (at 1024² the full size doubled the matte's time), then enlarged.
  const factor = Math.ceil(Math.max(width, height) / WORK_SIDE);
  if (factor === 1) return findClear(rgb, hard, width, height);
  const w = Math.ceil(width / factor);
  const h = Math.ceil(height / factor);
  const smallRgb = Buffer.alloc(w * h * 3);
  const smallHard = new Float32Array(w * h);
  const sums = new Float64Array(w * h * 4);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / factor) * w;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const j = (row + Math.floor(x / factor)) * 4;
      for (let c = 0; c < 3; c++) sums[j + c] = (sums[j + c] as number) + (rgb[i * 3 + c] as number);
      sums[j + 3] = (sums[j + 3] as number) + (hard[i] as number);
    }
  }
  const counts = (x: number, y: number) =>
    (Math.min(width, (x + 1) * factor) - x * factor) * (Math.min(height, (y + 1) * factor) - y * factor);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const j = y * w + x;
      const count = counts(x, y);
      for (let c = 0; c < 3; c++) smallRgb[j * 3 + c] = Math.round((sums[j * 4 + c] as number) / count);
      // A cell is the subject's when most of it is.
      smallHard[j] = (sums[j * 4 + 3] as number) / count >= 0.5 ? 1 : 0;
    }
  }
  const small = findClear(smallRgb, smallHard, w, h);
  // Most pictures have none: nothing to enlarge.
  if (!small.mask.some((v) => v > 0)) {
    const none = new Float32Array(width * height);
    return { mask: none, behind: [none, none, none] };
  }
  const enlarge = (plane: Float32Array, where?: Float32Array) => {
    const out = new Float32Array(width * height);
    for (let y = 0; y < height; y++) {
      const sy = Math.min(h - 1, Math.max(0, (y + 0.5) / factor - 0.5));
      const y0 = Math.floor(sy);
      const y1 = Math.min(h - 1, y0 + 1);
      const fy = sy - y0;
      for (let x = 0; x < width; x++) {
        if (where && !((where[y * width + x] as number) > 0)) continue;
        const sx = Math.min(w - 1, Math.max(0, (x + 0.5) / factor - 0.5));
        const x0 = Math.floor(sx);
        const x1 = Math.min(w - 1, x0 + 1);
        const fx = sx - x0;
        const top = (plane[y0 * w + x0] as number) * (1 - fx) + (plane[y0 * w + x1] as number) * fx;
        const bottom = (plane[y1 * w + x0] as number) * (1 - fx) + (plane[y1 * w + x1] as number) * fx;
        out[y * width + x] = top * (1 - fy) + bottom * fy;
      }
    }
    return out;
  };
  const mask = enlarge(small.mask);
  // Never over the subject itself: the enlarged edge would fade the model's own mask.
  for (let i = 0; i < mask.length; i++) if ((hard[i] as number) > 0) mask[i] = 0;
  return { mask, behind: small.behind.map((plane) => enlarge(plane, mask)) as ClearParts['behind'] };
}

function findClear(rgb: Buffer, hard: Float32Array, width: number, height: number): ClearParts {
  const n = width * height;
  const side = Math.max(width, height);
  const lum = new Float32Array(n);
  for (let i = 0; i < n; i++)
    lum[i] = 0.299 * (rgb[i * 3] as number) + 0.587 * (rgb[i * 3 + 1] as number) + 0.114 * (rgb[i * 3 + 2] as number);
  // The backdrop's smooth light: the mean around each pixel of what is not the subject (a dark subject pulls a plain
  // mean down and would outline itself with traces).
  const span = Math.max(3, Math.round(side * LIGHT_SPAN));
  const free = new Float32Array(n);
  const freeLum = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    free[i] = 1 - (hard[i] as number);
    freeLum[i] = (lum[i] as number) * (free[i] as number);
  }
  const freeMean = boxMean(free, width, height, span);
  const light = boxMean(freeLum, width, height, span);
  for (let i = 0; i < n; i++)
    light[i] = (freeMean[i] as number) > 0.01 ? (light[i] as number) / (freeMean[i] as number) : (lum[i] as number);
  const gap = Math.max(2, Math.round(side * GAP));
  const near = boxMean(hard, width, height, gap * 2);

  // The backdrop's noise (paper grain, JPEG's blocks), lessened by a slight blur that thin outlines survive; then
  // the median difference from the backdrop's smooth light away from the subject.
  const smooth = boxMean(lum, width, height, Math.max(1, Math.round(side / 512)));
  const residual = new Float32Array(n);
  const far: number[] = [];
  for (let i = 0; i < n; i++) {
    residual[i] = Math.abs((smooth[i] as number) - (light[i] as number));
    if ((near[i] as number) === 0 && i % 7 === 0) far.push(residual[i] as number);
  }
  far.sort((a, b) => a - b);
  const threshold = Math.max(MIN_TRACE, NOISE_TIMES * ((far[far.length >> 1] as number) ?? 0));

  const traced = new Float32Array(n);
  for (let i = 0; i < n; i++) traced[i] = (hard[i] as number) > 0 || (residual[i] as number) > threshold ? 1 : 0;
  const closed = closing(traced, width, height, gap);

  // The holes the traces and the subject enclose, large enough to be a body (noise encloses specks), and not holes of
  // the subject alone: a mug's handle or a bag's strap encloses the backdrop, which stays out.
  let subject = 0;
  for (let i = 0; i < n; i++) subject += hard[i] as number;
  const own = holes(closing(hard, width, height, gap), width, height, 0);
  const found = holes(closed, width, height, MIN_BODY * subject);
  const attached = new Set<number>();
  const subjectParts = labelRegions(closed, width, height);
  const withSubject = new Set<number>();
  for (let i = 0; i < n; i++) if ((hard[i] as number) > 0) withSubject.add(subjectParts.labels[i] as number);
  const ownShare = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const label = found.labels[i] as number;
    if (!label) continue;
    if (own.labels[i]) ownShare.set(label, (ownShare.get(label) ?? 0) + 1);
    const x = i % width;
    for (const q of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
      if (q >= 0 && q < n && closed[q] && withSubject.has(subjectParts.labels[q] as number)) attached.add(label);
    }
  }
  const body = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const label = found.labels[i] as number;
    if (label && attached.has(label) && (ownShare.get(label) ?? 0) < 0.5 * (found.areas.get(label) as number)) body[i] = 1;
  }
  // With the traces joined to it (the glass's outline, rims and highlights): what the closed traces and the holes
  // make, less the subject and the rim of traces its own blurred edge draws around it, reached from the body within a
  // fifth of its size (farther on, the traces are a shadow's edge or the floor's grain).
  const rimOfSubject = boxMean(hard, width, height, gap);
  let top = height;
  let bottom = -1;
  let left = width;
  let right = -1;
  const queue = new Int32Array(n);
  const steps = new Int32Array(n).fill(-1);
  let tail = 0;
  for (let i = 0; i < n; i++) {
    if (!body[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
    left = Math.min(left, x);
    right = Math.max(right, x);
    steps[i] = 0;
    queue[tail++] = i;
  }
  const reach = Math.max(gap, Math.round(0.2 * Math.min(bottom - top + 1, right - left + 1)));
  for (let head = 0; head < tail; head++) {
    const p = queue[head] as number;
    const x = p % width;
    if ((steps[p] as number) >= reach) continue;
    for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width]) {
      if (q < 0 || q >= n || (steps[q] as number) >= 0 || (rimOfSubject[q] as number) > 0 || !closed[q]) continue;
      steps[q] = (steps[p] as number) + 1;
      queue[tail++] = q;
    }
  }
  const mask = new Uint8Array(n);
  let added = 0;
  for (let i = 0; i < n; i++) {
    if ((steps[i] as number) < 0 || (rimOfSubject[i] as number) > 0) continue;
    mask[i] = 1;
    added++;
  }
  // The body joined to the subject where the traces between them were too faint to close (a jar's sides under its
  // lid): the gap along a row or a column between the subject and the body is the body's too, unless the subject
  // alone encloses it.
  const bridged = Uint8Array.from(mask);
  for (const [lines, along, step, lineStep] of [
    [width, height, width, 1],
    [height, width, 1, width],
  ] as const) {
    for (let line = 0; line < lines; line++) {
      let last = 0;
      let lastAt = -1;
      for (let t = 0; t < along; t++) {
        const i = line * lineStep + t * step;
        const kind = (hard[i] as number) > 0 ? 1 : mask[i] ? 2 : 0;
        if (!kind) continue;
        if (last && kind !== last && t - lastAt > 1) {
          for (let u = lastAt + 1; u < t; u++) {
            const j = line * lineStep + u * step;
            if (!own.labels[j]) bridged[j] = 1;
          }
        }
        last = kind;
        lastAt = t;
      }
    }
  }
  for (let i = 0; i < n; i++)
    if (bridged[i] && !mask[i]) {
      mask[i] = 1;
      added++;
    }
  if (added > MAX_GROWTH * subject || added > n / 2) mask.fill(0);
  // Its outline rounded: the closing's square and the row and column bridges leave stairs as tall as the gap where
  // the traces are faint (a jar's out-of-focus foot), and on a dark set the glass's edge showed them. A mean over
  // the gap taken twice (a tent) and cut at half keeps straight and gently curved edges where they are.
  const tent = boxMean(boxMean(Float32Array.from(mask), width, height, gap), width, height, gap);
  const rounded = new Float32Array(n);
  for (let i = 0; i < n; i++) rounded[i] = (tent[i] as number) >= 0.5 ? 1 : 0;
  // Its edge softened over a few pixels: the region's outline is where the traces were found, not a cut.
  const edge = boxMean(rounded, width, height, Math.max(1, Math.round(gap / 3)));

  // The backdrop behind: the mean colour around each pixel of what is neither the subject nor a trace.
  const weight = new Float32Array(n);
  for (let i = 0; i < n; i++) weight[i] = traced[i] ? 0 : 1;
  const wide = Math.max(3, Math.round(side * LIGHT_SPAN * 2));
  const meanWeight = boxMean(weight, width, height, wide);
  const behind = [0, 1, 2].map((c) => {
    const plane = new Float32Array(n);
    for (let i = 0; i < n; i++) plane[i] = (rgb[i * 3 + c] as number) * (weight[i] as number);
    const mean = boxMean(plane, width, height, wide);
    for (let i = 0; i < n; i++)
      mean[i] = (meanWeight[i] as number) > 0.01 ? (mean[i] as number) / (meanWeight[i] as number) : (rgb[i * 3 + c] as number);
    return mean;
  }) as ClearParts['behind'];
  return { mask: edge, behind };
}

/** A morphological closing of a 0/1 plane by a square of `radius` (a dilation, then an erosion), as 0/1 bytes. */
function closing(plane: Float32Array, width: number, height: number, radius: number): Uint8Array {
  const grown = boxMean(plane, width, height, radius);
  for (let i = 0; i < grown.length; i++) grown[i] = (grown[i] as number) > 0 ? 1 : 0;
  const kept = boxMean(grown, width, height, radius);
  const out = new Uint8Array(plane.length);
  for (let i = 0; i < out.length; i++) out[i] = (kept[i] as number) > 0.999 || (plane[i] as number) > 0 ? 1 : 0;
  return out;
}

/** The regions outside `mask` it encloses (they do not reach the picture's edge), of at least `minArea` pixels. */
function holes(mask: Uint8Array, width: number, height: number, minArea: number) {
  const open = new Uint8Array(mask.length);
  for (let i = 0; i < open.length; i++) open[i] = mask[i] ? 0 : 1;
  const { labels, regions } = labelRegions(open, width, height);
  const inside = regions.filter((r) => r.area >= minArea && r.left > 0 && r.top > 0 && r.right < width - 1 && r.bottom < height - 1);
  const areas = new Map(inside.map((r) => [r.label, r.area]));
  for (let i = 0; i < labels.length; i++) if (!areas.has(labels[i] as number)) labels[i] = 0;
  return { labels, areas };
}
