/**
 * Stills are brought to the frame once, with sharp, before ffmpeg sees them: ffmpeg then only moves a crop
 * window over a picture of the right size on every frame instead of decoding and scaling a large photo 30
 * times a second. The result is cached by source and size, so the three previews of a project, and a
 * re-render after a script edit, scale each product image once. How a photo fills the frame (as it is, cropped
 * or on a set) is framing's choice: decision "Framing".
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { drawFramed, type FramedSubject, framedSubject, type PlaneFiles, wouldSet } from './framing.js';
import type { StillLook } from './look.js';

const lookKey = ({ setColour, grade }: StillLook) =>
  `${setColour?.join(',') ?? 'photo'}/${grade.saturation},${grade.brightness},${grade.contrast},${grade.tint.join(',')}`;

/** How much larger than the frame a still is made, the room its pan or zoom moves in. */
export const MOTION_MARGIN = 1.12;

/** The size of a still for a `frame`: the frame with the room its move needs, in even pixels. */
export const withMotionMargin = (frame: { width: number; height: number }) => ({
  width: Math.round((frame.width * MOTION_MARGIN) / 2) * 2,
  height: Math.round((frame.height * MOTION_MARGIN) / 2) * 2,
});

/**
 * The cached files of a source: its identity (path, size, change time), the version of the framing that made
 * them (stills drawn before framing had bands, or before sets had planes, are not reused), and for a still its size.
 */
async function cacheKey(file: string, size?: { width: number; height: number }, look?: StillLook): Promise<string> {
  const { size: bytes, mtimeMs } = await stat(file);
  const target = size ? `\0${size.width}x${size.height}` : '';
  const treated = look ? `\0${lookKey(look)}` : '';
  return createHash('sha256').update(`${file}\0${bytes}\0${mtimeMs}\0framing-2${target}${treated}`).digest('hex').slice(0, 32);
}

/** Stills being made right now, so scenes that cycle back to the same picture share one scaling. */
const pending = new Map<string, Promise<string>>();

/**
 * The still framed for a frame of `width`×`height` (with the motion margin) in a template's look, from the cache
 * or made now.
 */
export async function prepareStill(
  file: string,
  width: number,
  height: number,
  cacheDir: string,
  look: StillLook,
  options: StillOptions = {},
): Promise<string> {
  const { width: w, height: h } = await stillSizeOf(file, width, height, cacheDir, options.along);
  const out = join(cacheDir, `${await cacheKey(file, { width: w, height: h }, look)}.jpg`);
  if (await stat(out).catch(() => undefined)) return out;
  let making = pending.get(out);
  if (!making) {
    making = make(file, w, h, out, look, options.sweepPlanes ?? false).finally(() => pending.delete(out));
    pending.set(out, making);
  }
  return making;
}

export interface StillOptions {
  /** Frame lengths more than the margin the still runs across (or down) for a pan along the photo (the product photo's panAlong). */
  along?: Along | undefined;
  /**
   * Whether a studio sweep is written in its planes too (`stillPlanes`), as a set on a blurred photo always is.
   * A still already made without them is answered as it is: its planes are then missing, as after a cache sweep.
   */
  sweepPlanes?: boolean | undefined;
}

/** How much farther than the margin a still runs for a pan along its photo, and which way. */
export type Along = { axis: 'x' | 'y'; extra: number };

/**
 * The size of the still a photo gets for a `width`×`height` frame: the frame with its motion margin, longer along
 * a pan along the photo, except where framing would stand the product on a set (a set is designed for the frame).
 */
async function stillSizeOf(file: string, width: number, height: number, cacheDir: string, along?: Along) {
  const size = (extra: Along | undefined) => {
    const stretch = (axis: 'x' | 'y') => MOTION_MARGIN + (extra?.axis === axis ? extra.extra : 0);
    return { width: Math.round((width * stretch('x')) / 2) * 2, height: Math.round((height * stretch('y')) / 2) * 2 };
  };
  const long = size(along);
  if (along && (await wouldSet(file, long.width, long.height, join(cacheDir, await cacheKey(file)), MOTION_MARGIN))) return size(undefined);
  return long;
}

/**
 * Where the subject of the photo `file` is in a `width`×`height` frame showing its still (shares, about the middle
 * of the still's move, `along` a wide photo when it pans so), for the captions and cards to keep off it.
 */
export async function stillSubject(
  file: string,
  frame: { width: number; height: number },
  cacheDir: string,
  along: Along | undefined,
): Promise<FramedSubject> {
  const still = await stillSizeOf(file, frame.width, frame.height, cacheDir, along);
  const box = await framedSubject(file, still.width, still.height, join(cacheDir, await cacheKey(file)), MOTION_MARGIN);
  // The frame shows the still's middle, its moves staying about it.
  const toFrame = (share: number, stillLength: number, frameLength: number) => {
    const m = stillLength / frameLength;
    return Math.min(1, Math.max(0, (share - (1 - 1 / m) / 2) * m));
  };
  return {
    head: box.head,
    left: toFrame(box.left, still.width, frame.width),
    top: toFrame(box.top, still.height, frame.height),
    right: toFrame(box.right, still.width, frame.width),
    bottom: toFrame(box.bottom, still.height, frame.height),
  };
}

/** A set's planes beside its still (decision "Parallax"): the files, and where the product's stands on the set. */
export interface StillPlanes extends PlaneFiles {
  left: number;
  top: number;
}

/** The files a still's planes are kept in, beside it. */
const planeFilesOf = (still: string): PlaneFiles & { placement: string } => {
  const base = still.replace(/\.jpg$/, '');
  return { background: `${base}.background.jpg`, product: `${base}.product.png`, placement: `${base}.planes.json` };
};

/**
 * The planes of a still `prepareStill` made, when it is a set with planes and all of them are still there
 * (the render cache is swept file by file: without one, the still is only moved whole).
 */
export async function stillPlanes(still: string): Promise<StillPlanes | undefined> {
  const files = planeFilesOf(still);
  const placement = await readFile(files.placement, 'utf8').catch(() => undefined);
  const present = await Promise.all(
    [files.background, files.product].map((f) =>
      stat(f).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (!placement || present.includes(false)) return undefined;
  const { left, top } = JSON.parse(placement) as { left: number; top: number };
  return { background: files.background, product: files.product, left, top };
}

async function make(file: string, width: number, height: number, out: string, look: StillLook, sweepPlanes: boolean): Promise<string> {
  await mkdir(dirname(out), { recursive: true });
  // Written aside and renamed, so another process rendering beside this one never reads half a file: the planes
  // first, then where they stand, and the still last, since its presence says all of it is there.
  const part = `.${randomUUID()}.part`;
  const files = planeFilesOf(out);
  const partials = [out, files.background, files.product, files.placement].map((f) => `${f}${part}`);
  try {
    // What is learnt of the photo itself (its subject, its cut-out) is kept for all its sizes and looks.
    const treatment = await drawFramed(
      file,
      width,
      height,
      `${out}${part}`,
      join(dirname(out), await cacheKey(file)),
      MOTION_MARGIN,
      look,
      {
        background: `${files.background}${part}`,
        product: `${files.product}${part}`,
      },
      sweepPlanes,
    );
    if (treatment.kind === 'set' && treatment.planes) {
      await rename(`${files.background}${part}`, files.background);
      await rename(`${files.product}${part}`, files.product);
      await writeFile(`${files.placement}${part}`, JSON.stringify(treatment.planes));
      await rename(`${files.placement}${part}`, files.placement);
    }
    await rename(`${out}${part}`, out);
  } finally {
    await Promise.all(partials.map((f) => rm(f, { force: true })));
  }
  return out;
}
