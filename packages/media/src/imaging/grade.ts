import type { Sharp } from 'sharp';
import type { Grade } from '../templates/catalogue.js';

/**
 * The grade on a still: brightness and saturation, then contrast about mid-grey and the tint as one linear
 * step per channel. Done once per still here, where it is free, rather than on every frame in ffmpeg.
 */
export function gradeStill(image: Sharp, grade: Grade): Sharp {
  const { saturation, brightness, contrast, tint } = grade;
  const graded = saturation !== 1 || brightness !== 1 ? image.modulate({ saturation, brightness }) : image;
  if (contrast === 1 && tint.every((t) => t === 1)) return graded;
  return graded.linear(
    tint.map((t) => contrast * t),
    tint.map((t) => 128 * (1 - contrast) * t),
  );
}
