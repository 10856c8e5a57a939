/**
 * Framing: every frame of an ad is picture, never a band of flat colour. For each photo and frame shape one
 * treatment, in this order: the photo as it is when it already has the frame's shape; a crop at the frame's
 * shape when one keeps the whole subject (with room for the still's pan or zoom); else the product cut out and
 * put on a set that fills the frame. The subject is found once per photo and kept beside the stills, so the
 * previews and the export of a project run the model once. Decision "Framing".
 */

import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { subjectMask } from '../imaging/cutout.js';
import { gradeStill } from '../imaging/grade.js';
import { withAlpha } from '../imaging/open.js';
import { drawOnSet, placeOnSet, type SetPlanes } from '../imaging/set.js';
import { FRAMING_SIDE, findSubject, headAtTop, maskBox, type ShareBox, type Subject } from '../imaging/subject.js';
import type { StillLook } from './look.js';

/** A rectangle of the picture in its pixels. */
export interface Crop {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * How a photo fills the frame. A set on the blurred photo may also be written in its two planes (decision
 * "Parallax"): then `planes` says where the product's plane stands on the set.
 */
export type Treatment =
  | { kind: 'as-is' }
  | { kind: 'crop'; crop: Crop }
  | { kind: 'set'; planes?: { left: number; top: number } | undefined };

/** Where a set's two planes are written: the background (JPEG) and the product with its shadow (PNG, transparent). */
export interface PlaneFiles {
  background: string;
  product: string;
}

/** A photo whose shape is within this of the frame's (as a log ratio, about 3 %) is used as it is. */
const SAME_SHAPE = 0.03;
/**
 * A crop keeping less of the photo than this is not made: it would enlarge a sliver of a wide banner 4–5 times
 * into a blur. The product goes on a set instead.
 */
const MIN_CROP_SHARE = 0.3;
/** A subject covering more of the photo than this is the scene itself (a close-up): cropped even if cut. */
const SCENE = 0.6;
/**
 * A mask covering less of its own box than this is fragments, not an object: a person with arms spread fills
 * about a fifth of the box, a product half or more.
 */
const MIN_FILL = 0.1;

/** Whether a `width`×`height` photo already has the frame's shape. */
export const sameShape = (width: number, height: number, frameRatio: number) =>
  Math.abs(Math.log(width / height / frameRatio)) <= SAME_SHAPE;

/**
 * Where a crop of `length` may start along one axis of a picture of `size` so it holds the subject's span
 * [low, high] with `room` on each side, centred on the subject as far as it can; null when it cannot hold it.
 * A side of the subject at the picture's edge needs no room: the photo already cuts it there.
 */
function place(size: number, length: number, low: number, high: number, room: number): number | null {
  const needLow = low <= size * 0.01 ? 0 : room;
  const needHigh = high >= size * 0.99 ? 0 : room;
  const min = Math.max(0, high + needHigh - length);
  const max = Math.min(size - length, low - needLow);
  if (min > max + 0.5) return null;
  return Math.round(Math.min(Math.max((low + high) / 2 - length / 2, min), Math.max(min, max)));
}

/**
 * The treatment of a photo for a frame of shape `frameRatio` (width / height), given where its subject is.
 * `motionMargin` is how much larger than the frame the still is made: a move may show any part of the still
 * down to 1 / motionMargin of it, so the subject must keep clear of that edge.
 */
export function chooseFraming(subject: Subject, frameRatio: number, motionMargin: number): Treatment {
  const { width, height } = subject;
  if (sameShape(width, height, frameRatio)) return { kind: 'as-is' };
  const { cw, ch } = cropSize(width, height, frameRatio);
  const box = pixelBox(subject.box, width, height);
  const b = subject.box;
  // The scene, not a product to stand up, is: what the photo cuts at two edges or more (a landscape, a close-up
  // of a cuff); a subject over most of the photo; or a mask filling too little of its box to be one object (on
  // a close-up of a zip the model keeps specks of it). Stood on a set, such a fragment floats with its cut
  // edges showing. One exception: a subject the photo cuts at two opposite edges
  // (legs in jeans from the waist to the shoes) that fits the frame across at the frame's full height (or the
  // other way round) goes on a set spanning the frame, edge to edge, rather than losing its knees to a crop.
  const [cutLeft, cutTop, cutRight, cutBottom] = [b.left < 0.015, b.top < 0.015, b.right > 0.985, b.bottom > 0.985];
  const cutEdges = [cutLeft, cutTop, cutRight, cutBottom].filter(Boolean).length;
  const boxRatio = ((b.right - b.left) * width) / ((b.bottom - b.top) * height);
  const spans = cutEdges === 2 && ((cutTop && cutBottom && boxRatio <= frameRatio) || (cutLeft && cutRight && boxRatio >= frameRatio));
  const boxArea = (b.right - b.left) * (b.bottom - b.top);
  const close = subject.area > SCENE || cutEdges >= 2;
  const scene = subject.from === 'saliency' || subject.area < boxArea * MIN_FILL || (close && !spans);
  if ((cw * ch) / (width * height) >= MIN_CROP_SHARE) {
    const edge = (1 - 1 / motionMargin) / 2;
    const left = place(width, cw, box.left, box.right, cw * edge);
    const top = place(height, ch, box.top, box.bottom, ch * edge);
    if (left !== null && top !== null) return { kind: 'crop', crop: { left, top, width: cw, height: ch } };
  }
  // No crop holds it. A scene (the model found no product, or the subject is most of the photo) has nothing to
  // cut out and stand on a set: it is cropped about its middle, as a photographer would reframe it.
  return scene ? sceneCrop(subject, frameRatio) : { kind: 'set' };
}

/** The largest crop at the frame's shape centred on the subject as far as the photo allows. */
export function sceneCrop(subject: Subject, frameRatio: number): Treatment {
  const { width, height } = subject;
  const { cw, ch } = cropSize(width, height, frameRatio);
  const box = pixelBox(subject.box, width, height);
  const left = Math.round(Math.min(Math.max((box.left + box.right) / 2 - cw / 2, 0), width - cw));
  const top = Math.round(Math.min(Math.max((box.top + box.bottom) / 2 - ch / 2, 0), height - ch));
  return { kind: 'crop', crop: { left, top, width: cw, height: ch } };
}

/** The largest crop at the frame's shape a `width`×`height` photo holds. */
function cropSize(width: number, height: number, frameRatio: number) {
  const wide = width / height > frameRatio;
  return { cw: wide ? Math.round(height * frameRatio) : width, ch: wide ? height : Math.round(width / frameRatio) };
}

const pixelBox = (box: ShareBox, width: number, height: number) => ({
  left: box.left * width,
  top: box.top * height,
  right: box.right * width,
  bottom: box.bottom * height,
});

/** Work being done right now, by cache file, so stills of one photo made at once share it. */
const pending = new Map<string, Promise<unknown>>();

/** `make()`'s answer kept in `file` (written aside and renamed, so a reader never sees half of it). */
async function cached<T>(file: string, read: (bytes: Buffer) => T, write: (value: T) => Buffer, make: () => Promise<T>): Promise<T> {
  const bytes = await readFile(file).catch(() => undefined);
  if (bytes) return read(bytes);
  let making = pending.get(file) as Promise<T> | undefined;
  if (!making) {
    making = (async () => {
      const value = await make();
      await mkdir(dirname(file), { recursive: true });
      const partial = `${file}.${randomUUID()}.part`;
      await writeFile(partial, write(value));
      await rename(partial, file);
      return value;
    })().finally(() => pending.delete(file));
    pending.set(file, making);
  }
  return making;
}

/**
 * The cut-out model's mask of the photo at `side`, made once and kept at `cacheBase`.mask-`side`: framing's quick
 * one for the subject's box, the full one (decision "Cut-out at 512 px") for a set, where the quick one lost
 * parts of products (a dark laptop keyboard between its lit screen and base).
 */
const maskOf = (file: string, cacheBase: string, side?: number) =>
  cached(
    `${cacheBase}.mask-${side ?? 'full'}`,
    (bytes) => ({ side: Math.round(Math.sqrt(bytes.length)), mask: bytes }),
    ({ mask }) => mask,
    () => subjectMask(file, side ? { side } : {}),
  );

/** The photo's subject, found once and kept at `cacheBase`.subject.json. */
const subjectOf = (file: string, size: { width: number; height: number }, cacheBase: string) =>
  cached(
    `${cacheBase}.subject.json`,
    (bytes) => JSON.parse(bytes.toString('utf8')) as Subject,
    (subject) => Buffer.from(JSON.stringify(subject)),
    async () => findSubject(file, size, await maskOf(file, cacheBase, FRAMING_SIDE)),
  );

/**
 * Whether framing stands the photo `file` on a set for a still of `width`×`height`: a pan along a photo asks
 * before making a long still, since a set is designed for the frame and a pan along it would carry the product
 * out of the frame.
 */
export async function wouldSet(file: string, width: number, height: number, cacheBase: string, motionMargin: number): Promise<boolean> {
  return (await frameOf(file, await photoSize(file), width, height, cacheBase, motionMargin)).treatment.kind === 'set';
}

/** The photo's size as it is seen (its orientation applied). */
async function photoSize(file: string) {
  const { autoOrient } = await sharp(file, { autoOrient: true, limitInputPixels: 100_000_000 }).metadata();
  return { width: autoOrient.width, height: autoOrient.height };
}

/**
 * How the photo fills a still of `width`×`height`: the treatment, with what it was chosen from (the subject, and
 * for a set the cut-out's mask). A subject found by the saliency map has no mask to cut out: it is a scene, cropped.
 */
async function frameOf(
  file: string,
  size: { width: number; height: number },
  width: number,
  height: number,
  cacheBase: string,
  motionMargin: number,
) {
  if (sameShape(size.width, size.height, width / height)) return { treatment: { kind: 'as-is' } as Treatment };
  const subject = await subjectOf(file, size, cacheBase);
  const treatment = chooseFraming(subject, width / height, motionMargin);
  if (treatment.kind !== 'set') return { treatment, subject };
  const cutout = await maskOf(file, cacheBase);
  const found = maskBox(cutout.mask, cutout.side, cutout.side);
  return found ? { treatment, subject, cutout, found } : { treatment: sceneCrop(subject, width / height), subject };
}

/** Where a subject is in a still or frame (shares), and whether it shows a face at its top (subject.ts's headAtTop). */
export interface FramedSubject extends ShareBox {
  head: boolean;
}

/**
 * Where the photo's subject is in its still of `width`×`height` (shares of the still), framed as `drawFramed`
 * frames it: the cards keep their type off it (decision "Ad cards"). A photo used as it is has its subject worked
 * out here too (once, kept like the others).
 */
export async function framedSubject(
  file: string,
  width: number,
  height: number,
  cacheBase: string,
  motionMargin: number,
): Promise<FramedSubject> {
  const size = await photoSize(file);
  const framed = await frameOf(file, size, width, height, cacheBase, motionMargin);
  const { treatment, found } = framed;
  // A photo of the frame's shape is used as it is without its subject being looked for: here it is.
  const subject = framed.subject ?? (await subjectOf(file, size, cacheBase));
  const head = subject.from === 'model' && (await headAtTop(file, subject.box));
  if (treatment.kind === 'set' && found) {
    const { placed } = placeOnSet(found.box, size, { width, height });
    const [left, top] = [placed.left / width, placed.top / height];
    return { left, top, right: left + placed.width / width, bottom: top + placed.height / height, head };
  }
  const { box } = subject;
  if (treatment.kind !== 'crop') return { ...box, head };
  const { crop } = treatment;
  const across = (share: number) => Math.min(1, Math.max(0, (share * size.width - crop.left) / crop.width));
  const down = (share: number) => Math.min(1, Math.max(0, (share * size.height - crop.top) / crop.height));
  return { left: across(box.left), top: down(box.top), right: across(box.right), bottom: down(box.bottom), head };
}

/**
 * Draws the photo `file` framed for a still of `width`×`height` (JPEG) to `out`, in the template's look. `cacheBase` is the path, without
 * extension, where what is learnt of the photo itself (its subject, its cut-out) is kept for every size.
 */
export async function drawFramed(
  file: string,
  width: number,
  height: number,
  out: string,
  cacheBase: string,
  motionMargin: number,
  /** The template's treatment: the studio colour it sets products in (absent, the photo's own backdrop or a blur of it) and its grade. */
  look: StillLook,
  /** Where to write a set's planes too, when it has them. */
  planeFiles?: PlaneFiles,
  /** Whether a studio sweep has planes too (see `planesOf`). */
  sweepPlanes = false,
): Promise<Treatment> {
  const graded = (image: Sharp) => gradeStill(image, look.grade).jpeg({ quality: 90 }).toFile(out);
  // A transparent product picture (a PNG cut-out from the shop) stands on white everywhere in framing.
  const source = sharp(file, { autoOrient: true, limitInputPixels: 100_000_000 }).flatten({ background: '#ffffff' });
  const { treatment, subject, cutout } = await frameOf(file, await photoSize(file), width, height, cacheBase, motionMargin);
  switch (treatment.kind) {
    case 'set': {
      let planes: { left: number; top: number } | undefined;
      if (!cutout || !subject) throw new Error('a set needs the cut-out of its subject');
      const backdrop = look.setColour ?? subject.backdrop;
      // An ad's pan turns about the product only on a blurred photo (decision "Parallax"): sliding a seamless
      // sweep behind a product that holds still shows nothing move but its floor, which reads as the product
      // skating. Image to video's moves with depth move the product too, on any set (decision "Prompted camera moves").
      const wanted = planeFiles && (!backdrop || sweepPlanes) ? planeFiles : undefined;
      const writePlanes =
        wanted &&
        (async (set: SetPlanes) => {
          await Promise.all([
            gradeStill(set.background, look.grade).jpeg({ quality: 90 }).toFile(wanted.background),
            gradedPlane(set.product, look.grade).then((plane) => plane.toFile(wanted.product)),
          ]);
          planes = { left: set.left, top: set.top };
        });
      await drawOnSet(file, cutout, backdrop, width, height, graded, writePlanes);
      return { kind: 'set', planes };
    }
    case 'as-is':
      await graded(source.resize(width, height, { fit: 'cover' }));
      break;
    case 'crop':
      await graded(source.extract(treatment.crop).resize(width, height, { fit: 'fill' }));
      break;
  }
  return treatment;
}

/** A transparent plane graded like the stills: its colour graded, its transparency kept as it is (a PNG). */
async function gradedPlane(plane: Sharp, grade: StillLook['grade']): Promise<Sharp> {
  const { data, info } = await plane.raw().toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height };
  const [colour, alpha] = await Promise.all([
    gradeStill(sharp(data, { raw: { ...raw, channels: 4 } }).removeAlpha(), grade)
      .raw()
      .toBuffer(),
    sharp(data, { raw: { ...raw, channels: 4 } })
      .extractChannel(3)
      .raw()
      .toBuffer(),
  ]);
  // Little compression: the plane is read once per piece, and zlib's top levels cost more than they save here.
  return withAlpha(colour, alpha, raw).png({ compressionLevel: 2 });
}
