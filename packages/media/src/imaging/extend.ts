/**
 * Image extension without a generative model: the picture is mirrored out to the canvas (so every edge
 * continues into itself with no seam), and the further a pixel lies from the picture, the more it is blurred,
 * from the sharp mirror at the edge through a lightly blurred mirror to the edge's own colours stretched
 * outward and heavily blurred. The blurs
 * are made at reduced size and scaled up, which is what keeps this well under half a second at 1024 px.
 */
import sharp from 'sharp';
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

/** The mirrored canvas blurred by `sigma` (in canvas pixels), computed at 1/`shrink` of the size. */
async function blurred(mirrored: ReturnType<typeof sharp>, canvas: Canvas, shrink: number, sigma: number): Promise<Buffer> {
  const small = await mirrored
    .clone()
    .resize(Math.max(1, Math.round(canvas.width / shrink)), Math.max(1, Math.round(canvas.height / shrink)), { kernel: 'linear' })
    .blur(Math.max(0.3, sigma / shrink))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(small.data, { raw: small.info }).resize(canvas.width, canvas.height, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
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
  // Far out, the edge pixels stretched (not mirrored): a mirror would repeat the product itself there.
  const stretched = sharp(picture.data, { raw: picture.info }).extend({ ...extension, extendWith: 'copy' });
  const [sharpLayer, nearLayer, farLayer] = await Promise.all([
    mirrored.clone().raw().toBuffer(),
    blurred(mirrored, canvas, 2, scale / 160),
    blurred(stretched, canvas, 8, scale / 18),
  ]);
  // How far the blend runs: a fifth of the picture's size or the widest band, whichever is smaller, so a thin
  // band still reaches the colour-only blur at its outer edge.
  const reach = Math.max(8, Math.min(far, scale / 5));
  const result = Buffer.allocUnsafe(canvas.width * canvas.height * 3);
  const right = canvas.left + pw;
  const bottom = canvas.top + ph;
  for (let y = 0; y < canvas.height; y++) {
    const dy = y < canvas.top ? canvas.top - y : y >= bottom ? y - bottom + 1 : 0;
    for (let x = 0; x < canvas.width; x++) {
      const dx = x < canvas.left ? canvas.left - x : x >= right ? x - right + 1 : 0;
      const i = (y * canvas.width + x) * 3;
      if (dx === 0 && dy === 0) {
        result[i] = sharpLayer[i] as number;
        result[i + 1] = sharpLayer[i + 1] as number;
        result[i + 2] = sharpLayer[i + 2] as number;
        continue;
      }
      const t = clamp(Math.hypot(dx, dy) / reach, 0, 1);
      // Sharp → light blur over the first third, light → heavy blur over the rest: smooth in the distance.
      const [a, b, u] = t < 1 / 3 ? [sharpLayer, nearLayer, t * 3] : [nearLayer, farLayer, (t - 1 / 3) * 1.5];
      const s = u * u * (3 - 2 * u);
      for (let c = 0; c < 3; c++) result[i + c] = (a[i + c] as number) * (1 - s) + (b[i + c] as number) * s;
    }
  }
  await writeImage(sharp(result, { raw: { width: canvas.width, height: canvas.height, channels: 3 } }), out);
  return { width: canvas.width, height: canvas.height };
}
