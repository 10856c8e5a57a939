/**
 * Still images with sharp. Inputs are untrusted uploads: the pixel count is bounded before anything is decoded,
 * and a thumbnail decodes every pixel with `failOn: 'error'`, so a truncated or corrupt image fails instead of
 * being stored half grey. (sharp's strictest level, 'warning', also refuses JPEGs with harmless oddities that
 * every browser shows.)
 */
import sharp from 'sharp';

export interface ImageInfo {
  /** sharp's decoder name: jpeg, png, webp, gif, tiff, heif, svg… */
  format: string;
  /** As displayed: the EXIF orientation applied. */
  width: number;
  height: number;
}

/** About 100 megapixels: larger than any camera photo a seller uploads, small enough to decode in memory. */
export const MAX_IMAGE_PIXELS = 100_000_000;

/**
 * The most one tool's task works on (decision "Bounded work"): a picture of at most 40 megapixels in, and a
 * result of at most 8192 px a side and 40 megapixels out. The server refuses anything larger before charging;
 * the imaging functions decode with the same pixel limit, so a picture that slipped past is refused by the
 * decoder instead of being held in memory. Measured: the worst accepted input of each local tool peaks at a few
 * hundred MB (apps/server/test/bounded-work.test.ts).
 */
export const WORK_LIMITS = { inputPixels: 40_000_000, outputSide: 8192, outputPixels: 40_000_000 } as const;

const open = (input: string) => sharp(input, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS, autoOrient: true });

/** Reads an image's header only: its format and displayed size. Rejects what sharp cannot identify. */
export async function imageInfo(file: string): Promise<ImageInfo> {
  const meta = await open(file).metadata();
  return { format: meta.format, width: meta.autoOrient.width, height: meta.autoOrient.height };
}

/** Decodes the whole image and writes a WebP that fits in a `box`×`box` square (never enlarged). */
export async function thumbnail(file: string, out: string, box = 480): Promise<void> {
  await open(file).resize(box, box, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toFile(out);
}
