import type { Sharp } from 'sharp';

/**
 * A colour treatment applied to every picture of the ad: saturation and brightness as multipliers, contrast as
 * a gain about mid-grey, and a tint as per-channel multipliers (warm > 1 red, cool > 1 blue).
 */
export interface Grade {
  saturation: number;
  brightness: number;
  contrast: number;
  tint: readonly [number, number, number];
}

/** No treatment: the photo's own colours. */
export const NEUTRAL_GRADE: Grade = { saturation: 1, brightness: 1, contrast: 1, tint: [1, 1, 1] };
/** The grade of the problem→solution opening, the "before": the picture nearly grey and dim. */
export const PROBLEM_GRADE: Grade = { saturation: 0.15, brightness: 0.78, contrast: 0.95, tint: [0.98, 1, 1.04] };

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
