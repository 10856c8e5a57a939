/**
 * A cut-out placed on a new background as a product photographer would: standing on the lower part of the
 * frame, centred, large but with room around it, on a soft contact shadow, its light pulled part of the way
 * toward the background's (brightness and colour temperature), so it looks lit by the same scene.
 */
import sharp, { type OverlayOptions } from 'sharp';
import type { Stage } from './backgrounds.js';
import { NoSubjectError } from './cutout.js';
import { clamp, openImage, writeImage } from './open.js';
import { type Box, contactShadow } from './shadow.js';

export interface ReplaceOptions {
  /** The output size; the background's own size (fitted within 2048 px) when absent. */
  width?: number;
  height?: number;
  /** The share of the frame's height the subject may take (0.3–0.9); 0.7 by default, or the stage's. */
  subjectHeight?: number;
  /** Where a preset set has the product stand (its base, size and floor's reflection); a photo's floor else. */
  stage?: Stage;
}

/** The longest side of an output sized after its background. */
const MAX_SIDE = 2048;

/**
 * The edges of the picture that cut the subject: those along which at least 4 % of the pixels are at least half
 * opaque (a speck of the background at a corner is not a subject coming in from there).
 */
function edgesCut(data: Buffer, width: number, height: number) {
  const along = (length: number, at: (t: number) => number) => {
    let on = 0;
    for (let t = 0; t < length; t++) if ((data[at(t) * 4 + 3] as number) >= 128) on++;
    return on >= Math.max(2, length * 0.04);
  };
  return {
    left: along(height, (t) => t * width),
    right: along(height, (t) => t * width + width - 1),
    top: along(width, (t) => t),
    bottom: along(width, (t) => (height - 1) * width + t),
  };
}

/** The bounding box of the pixels at least half opaque, and the subject's mean colour there. */
function subjectOf(data: Buffer, width: number, height: number) {
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  const sum = [0, 0, 0];
  let count = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if ((data[i + 3] as number) < 128) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + (data[i + c] as number);
      count++;
    }
  }
  if (count === 0) return null;
  const mean = sum.map((s) => s / count) as [number, number, number];
  return { box: { left, top, width: right - left + 1, height: bottom - top + 1 }, mean };
}

const luminance = ([r, g, b]: readonly number[]) => 0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (b as number);

/**
 * Per-channel gains moving the subject's light part of the way to the background's: brightness by the cube
 * root of the ratio (a dark scene dims the product a little, never to black), colour by the fourth root of the
 * ratio of each channel's share, bounded so a product's own colour is never lost.
 */
export function lightMatch(subject: readonly number[], background: readonly number[]): [number, number, number] {
  const ls = Math.max(1, luminance(subject));
  const lb = Math.max(1, luminance(background));
  const brightness = clamp((lb / ls) ** (1 / 3), 0.82, 1.15);
  return [0, 1, 2].map((c) => {
    const tint = (Math.max(1, background[c] as number) / lb / (Math.max(1, subject[c] as number) / ls)) ** 0.25;
    return brightness * clamp(tint, 0.92, 1.08);
  }) as [number, number, number];
}

export async function replaceBackground(
  cutoutPng: string,
  backgroundPath: string,
  out: string,
  options: ReplaceOptions = {},
): Promise<{ width: number; height: number }> {
  // Never larger than the frame can show: a 40 MP cut-out read whole held 160 MB (the bounded-work test).
  const cutout = await openImage(cutoutPng)
    .ensureAlpha()
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const subject = subjectOf(cutout.data, cutout.info.width, cutout.info.height);
  if (!subject) throw new NoSubjectError();

  const background = openImage(backgroundPath).removeAlpha().toColourspace('srgb');
  const meta = await background.metadata();
  const fit = Math.min(1, MAX_SIDE / Math.max(meta.autoOrient.width, meta.autoOrient.height));
  const width = options.width ?? Math.round(meta.autoOrient.width * fit);
  const height = options.height ?? Math.round(meta.autoOrient.height * fit);
  const frame = await background.resize(width, height, { fit: 'cover' }).raw().toBuffer({ resolveWithObject: true });

  // Large, but with air: the subject's height a set share of the frame, its width at most 80 % of it (or as the
  // stage has it). A subject the photo cuts at an edge (a person from the waist up) comes in from that edge of
  // the frame instead of floating in the middle of it (as on the ad picture's set).
  const { box } = subject;
  const cut = edgesCut(cutout.data, cutout.info.width, cutout.info.height);
  // A subject the frame cuts is not stood on a podium: the stage's place is for a whole product.
  const stage = cut.left || cut.right || cut.top || cut.bottom ? undefined : options.stage;
  const share = clamp(options.subjectHeight ?? stage?.height ?? 0.7, 0.3, 0.9);
  const scale = Math.min(
    (height * (cut.top && cut.bottom ? 1 : cut.top || cut.bottom ? Math.max(share, 0.85) : share)) / box.height,
    (width * (cut.left && cut.right ? 1 : (stage?.width ?? 0.8))) / box.width,
  );
  const placed: Box = {
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
    left: 0,
    top: 0,
  };
  placed.left = cut.left ? 0 : cut.right ? width - placed.width : Math.round((width - placed.width) / 2);
  // Standing on the lower part of the frame: its base at 90 % of the height (or the stage's floor), as on a
  // tabletop or floor.
  const base = stage?.base ?? 0.9;
  placed.top = cut.top ? 0 : cut.bottom ? height - placed.height : Math.max(0, Math.round(height * base - placed.height));
  const onFloor = !cut.bottom;

  // The light of the background where the subject stands (the middle band), not of the whole frame.
  const { channels } = await sharp(frame.data, { raw: frame.info })
    .extract({ left: placed.left, top: placed.top, width: placed.width, height: Math.min(placed.height, height - placed.top) })
    .stats();
  const gains = lightMatch(
    subject.mean,
    channels.slice(0, 3).map((c) => c.mean),
  );
  const subjectLayer = await sharp(cutout.data, { raw: cutout.info })
    .extract(subject.box)
    .resize(placed.width, placed.height, { fit: 'fill', kernel: 'lanczos3' })
    .linear([...gains, 1], [0, 0, 0, 0])
    .png()
    .toBuffer();
  const layers: OverlayOptions[] = [];
  if (onFloor && stage?.reflection && placed.top + placed.height < height - 1)
    layers.push(await reflectionOf(subjectLayer, placed, { width, height }, stage.reflection));
  if (onFloor) {
    const coverage = await sharp(subjectLayer).extractChannel(3).raw().toBuffer();
    const shadow = await contactShadow({ width, height }, placed, coverage);
    if (shadow) layers.push(shadow);
  }
  layers.push({ input: subjectLayer, left: placed.left, top: placed.top });
  const image = sharp(frame.data, { raw: frame.info }).composite(layers);
  await writeImage(image, out);
  return { width, height };
}

/**
 * The subject mirrored in a glossy floor under its base: flipped, faded from `strength` at the base to nothing over
 * a third of its height, and a little soft, as a polished surface shows it. Cropped to the frame.
 */
async function reflectionOf(
  layer: Buffer,
  placed: Box,
  frame: { width: number; height: number },
  strength: number,
): Promise<OverlayOptions> {
  const top = placed.top + placed.height;
  const height = Math.min(placed.height, frame.height - top);
  const { data, info } = await sharp(layer)
    .flip()
    .blur(Math.max(0.6, placed.height * 0.004))
    .extract({ left: 0, top: 0, width: placed.width, height })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const fade = placed.height / 3;
  for (let y = 0; y < info.height; y++) {
    const k = strength * Math.max(0, 1 - y / fade) ** 1.5;
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 4 + 3;
      data[i] = Math.round((data[i] as number) * k);
    }
  }
  return { input: data, raw: { width: info.width, height: info.height, channels: 4 }, left: placed.left, top };
}
