/** The pixels a filter works on: what a canvas's getImageData answers (and Konva hands its filters). */
export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export const PIXEL_SIZE_ERROR = 'pixelSize value can not be <= 0';

/**
 * Pixelates in place: each pixelSize × pixelSize block takes the average colour of its pixels. A size not above 0
 * is a caller's mistake that must not hang or blank the picture: it is logged (spec "Error catalogue") and nothing changes.
 */
export function pixelate(pixels: Pixels, pixelSize: number): void {
  if (!(pixelSize > 0)) {
    console.error(PIXEL_SIZE_ERROR);
    return;
  }
  const size = Math.max(1, Math.round(pixelSize));
  const { data, width, height } = pixels;
  for (let top = 0; top < height; top += size) {
    for (let left = 0; left < width; left += size) {
      const bottom = Math.min(top + size, height);
      const right = Math.min(left + size, width);
      const sum = [0, 0, 0, 0];
      for (let y = top; y < bottom; y++) {
        for (let x = left; x < right; x++) {
          const at = (y * width + x) * 4;
          for (let channel = 0; channel < 4; channel++) sum[channel] = (sum[channel] ?? 0) + (data[at + channel] ?? 0);
        }
      }
      const count = (bottom - top) * (right - left);
      for (let y = top; y < bottom; y++) {
        for (let x = left; x < right; x++) {
          const at = (y * width + x) * 4;
          for (let channel = 0; channel < 4; channel++) data[at + channel] = Math.round((sum[channel] ?? 0) / count);
        }
      }
    }
  }
}

/** The pixelate rule as a Konva filter of the given block size. */
export const pixelateFilter = (pixelSize: number) => (pixels: Pixels) => pixelate(pixels, pixelSize);
