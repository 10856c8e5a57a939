// How much work one task of a picture tool may do (decision "Bounded work"): the picture it reads and the result
// it makes are bounded in pixels, checked on the picture's header before anything is charged (and again when the
// task reads it), with the bound the media engine's decoder also holds to.
import { WORK_LIMITS } from '@reelsmith/media';
import { AppError } from '../../errors.js';

interface Size {
  width: number;
  height: number;
}

const megapixels = (pixels: number) => Math.round(pixels / 1_000_000);

/** Refuses a picture of more than WORK_LIMITS.inputPixels. */
export function checkInputPicture({ width, height }: Size): void {
  if (width * height > WORK_LIMITS.inputPixels) {
    throw new AppError('pictureTooLarge', { width, height, max: megapixels(WORK_LIMITS.inputPixels) });
  }
}

/** Refuses a result of more than WORK_LIMITS.outputSide a side or WORK_LIMITS.outputPixels in all. */
export function checkResultSize({ width, height }: Size): void {
  if (Math.max(width, height) > WORK_LIMITS.outputSide || width * height > WORK_LIMITS.outputPixels) {
    throw new AppError('resultTooLarge', {
      width,
      height,
      maxSide: WORK_LIMITS.outputSide,
      max: megapixels(WORK_LIMITS.outputPixels),
    });
  }
}
