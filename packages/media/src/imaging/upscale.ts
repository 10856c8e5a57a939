/**
 * Enlargement by 2 or 4: lanczos3 resampling, then an unsharp mask sized to the new scale. Design §9 measured
 * ESRGAN (upscaler + tfjs WASM) at 5–6 s a picture here and no better on product shots, so no model is used.
 */
import { openImage, writeImage } from './open.js';

/** Spec §5: enhancement takes pictures whose longest side is at most this (ENHANCE_MAX_LONG_SIDE in the contract). */
export const UPSCALE_MAX_LONG_SIDE = 1920;

export class UpscaleInputError extends Error {
  constructor(readonly longSide: number) {
    super(`The picture's longest side is ${longSide} px; enhancement takes at most ${UPSCALE_MAX_LONG_SIDE} px.`);
    this.name = 'UpscaleInputError';
  }
}

export async function upscaleImage(input: string, scale: 2 | 4, out: string): Promise<{ width: number; height: number }> {
  const image = openImage(input);
  const { autoOrient } = await image.metadata();
  const longSide = Math.max(autoOrient.width, autoOrient.height);
  if (longSide > UPSCALE_MAX_LONG_SIDE) throw new UpscaleInputError(longSide);
  const width = autoOrient.width * scale;
  const height = autoOrient.height * scale;
  // Lanczos leaves edges a little soft at ×4; a wider, gentler mask there avoids halos on product outlines.
  const sharpen = scale === 2 ? { sigma: 0.8, m1: 0.6, m2: 2.5 } : { sigma: 1.4, m1: 0.6, m2: 2 };
  await writeImage(image.resize(width, height, { kernel: 'lanczos3', fit: 'fill' }).sharpen(sharpen), out);
  return { width, height };
}
