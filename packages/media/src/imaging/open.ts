/**
 * The one way the imaging functions open a picture: bounded in pixels to what one tool's task takes (decision
 * "Bounded work"), EXIF orientation applied.
 */
import sharp from 'sharp';
import { WORK_LIMITS } from '../image.js';

export const openImage = (input: string | Buffer) =>
  sharp(input, { failOn: 'error', limitInputPixels: WORK_LIMITS.inputPixels, autoOrient: true });

/**
 * An RGB picture and its alpha (raw 8-bit pixels of one `size`) joined into one RGBA picture. The two are always cut
 * and resized in pipelines of their own first: sharp runs a pipeline's operations in its own order, extracting and
 * resizing before it joins, so a join asked for first would not line up.
 */
export const withAlpha = (colour: Buffer, alpha: Buffer, { width, height }: { width: number; height: number }) =>
  sharp(colour, { raw: { width, height, channels: 3 } }).joinChannel(alpha, { raw: { width, height, channels: 1 } });

/** The picture as 8-bit RGB pixels (alpha flattened onto white) with its size. */
export async function rgbPixels(input: string | Buffer, resize?: { width: number; height: number }) {
  let image = openImage(input).flatten({ background: '#ffffff' }).removeAlpha();
  if (resize) image = image.resize(resize.width, resize.height, { fit: 'fill' });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Writes `image` to `out` in the format its extension names (png keeps alpha; jpg/webp for photos). JPEGs are
 * written without Huffman optimisation: it keeps every coefficient of the picture in memory, twice the raw
 * pixels (240 MB more at 40 megapixels, decision "Bounded work"), for files only a few per cent smaller.
 */
export async function writeImage(image: ReturnType<typeof sharp>, out: string): Promise<void> {
  const ext = out.slice(out.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'png') await image.png({ compressionLevel: 6 }).toFile(out);
  else if (ext === 'webp') await image.webp({ quality: 90 }).toFile(out);
  else await image.jpeg({ quality: 92, mozjpeg: false, optimiseCoding: false }).toFile(out);
}

export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
