/**
 * Image extension without a generative model: the picture is mirrored out to the canvas (so every edge
 * continues into itself with no seam), and the further a pixel lies from the picture, the more it is blurred,
 * from the sharp mirror at the edge through a lightly blurred mirror to the edge's own colours stretched
 * outward and heavily blurred. The blurs
 * are made at reduced size and scaled up, which is what keeps this well under half a second at 1024 px.
 */
import sharp, { type OutputInfo } from 'sharp';
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

/** A layer kept at a fraction of the canvas's size, read back at canvas coordinates. */
interface SmallLayer {
  data: Buffer;
  width: number;
  height: number;
  /** Canvas pixels per layer pixel, across and down. */
  sx: number;
  sy: number;
}

/**
 * The picture extended to the canvas (its edges mirrored, or copied) and blurred by `sigma` (in canvas pixels),
 * made and kept at 1/`shrink` of the canvas's size: the picture is shrunk first and then extended by the shrunk
 * bands, so no canvas-sized layer is ever made (decision "Bounded work": at 40 megapixels each one was 120 MB
 * more for one task). `sample` reads it with the bilinear weights that scaling it up would use.
 */
async function blurred(
  picture: { data: Buffer; info: OutputInfo },
  canvas: Canvas,
  extendWith: 'mirror' | 'copy',
  shrink: number,
  sigma: number,
): Promise<SmallLayer> {
  const small = (n: number) => Math.round(n / shrink);
  const pw = Math.max(1, small(picture.info.width));
  const ph = Math.max(1, small(picture.info.height));
  const left = small(canvas.left);
  const top = small(canvas.top);
  const right = Math.max(0, Math.max(1, small(canvas.width)) - pw - left);
  const bottom = Math.max(0, Math.max(1, small(canvas.height)) - ph - top);
  const width = pw + left + right;
  const height = ph + top + bottom;
  // Two steps: sharp applies a resize before an extend of the same pipeline whatever the order they are asked in.
  const shrunk = await sharp(picture.data, { raw: picture.info })
    .resize(pw, ph, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const data = await sharp(shrunk.data, { raw: shrunk.info })
    .extend({ left, top, right, bottom, extendWith })
    .blur(Math.max(0.3, sigma / shrink))
    .raw()
    .toBuffer();
  return { data, width, height, sx: width / canvas.width, sy: height / canvas.height };
}

/** Bilinear reads of a small layer at canvas pixel (x, y), written into `into` (three channels). */
function sample(layer: SmallLayer, x: number, y: number, into: Float64Array): void {
  const fx = clamp((x + 0.5) * layer.sx - 0.5, 0, layer.width - 1);
  const fy = clamp((y + 0.5) * layer.sy - 0.5, 0, layer.height - 1);
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(layer.width - 1, x0 + 1);
  const y1 = Math.min(layer.height - 1, y0 + 1);
  const ax = fx - x0;
  const ay = fy - y0;
  const { data, width } = layer;
  for (let c = 0; c < 3; c++) {
    const top = (data[(y0 * width + x0) * 3 + c] as number) * (1 - ax) + (data[(y0 * width + x1) * 3 + c] as number) * ax;
    const bottom = (data[(y1 * width + x0) * 3 + c] as number) * (1 - ax) + (data[(y1 * width + x1) * 3 + c] as number) * ax;
    into[c] = top * (1 - ay) + bottom * ay;
  }
}

export async function extendImage(input: string, canvas: Canvas, out: string): Promise<{ width: number; height: number }> {
  const source = openImage(input).flatten({ background: '#ffffff' }).removeAlpha();
  const picture = await source.clone().raw().toBuffer({ resolveWithObject: true });
  const { width: pw, height: ph } = picture.info;
  checkCanvas({ width: pw, height: ph }, canvas);
  const extension = {
    left: canvas.left,
    top: canvas.top,
    right: canvas.width - canvas.left - pw,
    bottom: canvas.height - canvas.top - ph,
  };
  const mirrored = sharp(picture.data, { raw: picture.info }).extend({ ...extension, extendWith: 'mirror' });
  const far = Math.max(extension.left, extension.right, extension.top, extension.bottom);
  if (far === 0) {
    await writeImage(mirrored, out);
    return { width: canvas.width, height: canvas.height };
  }
  const scale = Math.max(pw, ph);
  // Far out, the edge pixels stretched ('copy', not mirrored): a mirror would repeat the product itself there.
  const [sharpLayer, nearLayer, farLayer] = await Promise.all([
    mirrored.raw().toBuffer(),
    blurred(picture, canvas, 'mirror', 2, scale / 160),
    blurred(picture, canvas, 'copy', 8, scale / 18),
  ]);
  // How far the blend runs: a fifth of the picture's size or the widest band, whichever is smaller, so a thin
  // band still reaches the colour-only blur at its outer edge.
  const reach = Math.max(8, Math.min(far, scale / 5));
  // The result is written over the sharp layer: each pixel reads only its own place there, so no second
  // canvas-sized buffer is needed.
  const result = sharpLayer;
  const near = new Float64Array(3);
  const farther = new Float64Array(3);
  const right = canvas.left + pw;
  const bottom = canvas.top + ph;
  for (let y = 0; y < canvas.height; y++) {
    const dy = y < canvas.top ? canvas.top - y : y >= bottom ? y - bottom + 1 : 0;
    for (let x = 0; x < canvas.width; x++) {
      const dx = x < canvas.left ? canvas.left - x : x >= right ? x - right + 1 : 0;
      if (dx === 0 && dy === 0) continue;
      const i = (y * canvas.width + x) * 3;
      const t = clamp(Math.hypot(dx, dy) / reach, 0, 1);
      // Sharp → light blur over the first third, light → heavy blur over the rest: smooth in the distance.
      sample(nearLayer, x, y, near);
      if (t < 1 / 3) {
        const u = t * 3;
        const s = u * u * (3 - 2 * u);
        for (let c = 0; c < 3; c++) result[i + c] = (result[i + c] as number) * (1 - s) + (near[c] as number) * s;
      } else {
        sample(farLayer, x, y, farther);
        const u = (t - 1 / 3) * 1.5;
        const s = u * u * (3 - 2 * u);
        for (let c = 0; c < 3; c++) result[i + c] = (near[c] as number) * (1 - s) + (farther[c] as number) * s;
      }
    }
  }
  await writeImage(sharp(result, { raw: { width: canvas.width, height: canvas.height, channels: 3 } }), out);
  return { width: canvas.width, height: canvas.height };
}
