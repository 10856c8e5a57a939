/**
 * Stills are brought to the frame once, with sharp, before ffmpeg sees them: ffmpeg then only moves a crop
 * window over a picture of the right size on every frame instead of decoding and scaling a large photo 30
 * times a second. The result is cached by source and size, so the three previews of a project, and a
 * re-render after a script edit, scale each product image once.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

/** How much larger than the frame a still is made, the room its pan or zoom moves in. */
export const MOTION_MARGIN = 1.12;

/** A picture whose shape differs from the frame's by more than this is fitted whole instead of cropped. */
const COVER_TOLERANCE = 0.15;

/** The cached file name: the source's identity (path, size, change time) and the target size. */
async function cacheKey(file: string, width: number, height: number): Promise<string> {
  const { size, mtimeMs } = await stat(file);
  return createHash('sha256').update(`${file}\0${size}\0${mtimeMs}\0${width}x${height}`).digest('hex').slice(0, 32);
}

async function draw(file: string, width: number, height: number, out: string): Promise<void> {
  const source = sharp(file, { autoOrient: true, limitInputPixels: 100_000_000 });
  const { autoOrient } = await source.metadata();
  const off = Math.abs(Math.log(autoOrient.width / autoOrient.height / (width / height)));
  if (off <= COVER_TOLERANCE) {
    await source.resize(width, height, { fit: 'cover' }).jpeg({ quality: 90 }).toFile(out);
    return;
  }
  // Cropping a product shot to a very different shape would cut the product off: show all of it instead, on
  // its own dominant colour (product shots mostly stand on a plain backdrop, which this continues). A blurred
  // copy of the picture behind it looked richer but took twice as long as everything else here.
  const { dominant } = await source.clone().resize(64, 64, { fit: 'fill' }).stats();
  await source.resize(width, height, { fit: 'contain', background: dominant }).jpeg({ quality: 90 }).toFile(out);
}

/** Stills being made right now, so scenes that cycle back to the same picture share one scaling. */
const pending = new Map<string, Promise<string>>();

/** The still scaled for a frame of `width`×`height` (with the motion margin), from the cache or made now. */
export async function prepareStill(file: string, width: number, height: number, cacheDir: string): Promise<string> {
  const w = Math.round((width * MOTION_MARGIN) / 2) * 2;
  const h = Math.round((height * MOTION_MARGIN) / 2) * 2;
  const out = join(cacheDir, `${await cacheKey(file, w, h)}.jpg`);
  if (await stat(out).catch(() => undefined)) return out;
  let making = pending.get(out);
  if (!making) {
    making = make(file, w, h, out).finally(() => pending.delete(out));
    pending.set(out, making);
  }
  return making;
}

async function make(file: string, width: number, height: number, out: string): Promise<string> {
  await mkdir(dirname(out), { recursive: true });
  // Written aside and renamed, so another process rendering beside this one never reads half a file.
  const partial = `${out}.${randomUUID()}.part`;
  await draw(file, width, height, partial);
  await rename(partial, out);
  return out;
}
