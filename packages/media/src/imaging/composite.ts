/**
 * A cut-out placed on a new background as a product photographer would: standing on the lower part of the
 * frame, centred, large but with room around it, on a soft contact shadow, its light pulled part of the way
 * toward the background's (brightness and colour temperature), so it looks lit by the same scene.
 */
import sharp from 'sharp';
import { clamp, openImage, writeImage } from './open.js';

export interface ReplaceOptions {
  /** The output size; the background's own size (fitted within 2048 px) when absent. */
  width?: number;
  height?: number;
  /** The share of the frame's height the subject may take (0.3–0.9); 0.7 by default. */
  subjectHeight?: number;
}

/** The longest side of an output sized after its background. */
const MAX_SIDE = 2048;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export class NoSubjectError extends Error {
  constructor() {
    super('The cut-out is empty: nothing of the picture was kept as the subject.');
    this.name = 'NoSubjectError';
  }
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

/** A soft elliptical shadow under the subject's base, as an RGBA overlay of the frame (an SVG). */
export function contactShadow(frame: { width: number; height: number }, subject: Box): Buffer {
  const cx = subject.left + subject.width / 2;
  const cy = subject.top + subject.height;
  const rx = subject.width * 0.5;
  const ry = Math.max(4, subject.height * 0.045);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}">
  <defs><radialGradient id="s" cx="50%" cy="50%" r="50%">
    <stop offset="0" stop-color="#000" stop-opacity="0.55"/><stop offset="0.6" stop-color="#000" stop-opacity="0.25"/>
    <stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient></defs>
  <ellipse cx="${cx}" cy="${cy - ry * 0.3}" rx="${rx * 1.1}" ry="${ry * 2}" fill="url(#s)"/>
  <ellipse cx="${cx}" cy="${cy - ry * 0.2}" rx="${rx * 0.8}" ry="${ry * 0.7}" fill="#000" fill-opacity="0.35"/>
</svg>`;
  return Buffer.from(svg);
}

export async function replaceBackground(
  cutoutPng: string,
  backgroundPath: string,
  out: string,
  options: ReplaceOptions = {},
): Promise<{ width: number; height: number }> {
  const cutout = await openImage(cutoutPng).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const subject = subjectOf(cutout.data, cutout.info.width, cutout.info.height);
  if (!subject) throw new NoSubjectError();

  const background = openImage(backgroundPath).removeAlpha().toColourspace('srgb');
  const meta = await background.metadata();
  const fit = Math.min(1, MAX_SIDE / Math.max(meta.autoOrient.width, meta.autoOrient.height));
  const width = options.width ?? Math.round(meta.autoOrient.width * fit);
  const height = options.height ?? Math.round(meta.autoOrient.height * fit);
  const frame = await background.resize(width, height, { fit: 'cover' }).raw().toBuffer({ resolveWithObject: true });

  // Large, but with air: the subject's height a set share of the frame, its width at most 80 % of it.
  const share = clamp(options.subjectHeight ?? 0.7, 0.3, 0.9);
  const scale = Math.min((height * share) / subject.box.height, (width * 0.8) / subject.box.width);
  const placed: Box = {
    width: Math.max(1, Math.round(subject.box.width * scale)),
    height: Math.max(1, Math.round(subject.box.height * scale)),
    left: 0,
    top: 0,
  };
  placed.left = Math.round((width - placed.width) / 2);
  // Standing on the lower part of the frame: its base at 90 % of the height, as on a tabletop or floor.
  placed.top = Math.max(0, Math.round(height * 0.9 - placed.height));

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
  const shadow = await sharp(contactShadow({ width, height }, placed))
    .blur(Math.max(1, placed.height * 0.01))
    .png()
    .toBuffer();

  const image = sharp(frame.data, { raw: frame.info }).composite([
    { input: shadow, left: 0, top: 0 },
    { input: subjectLayer, left: placed.left, top: placed.top },
  ]);
  await writeImage(image, out);
  return { width, height };
}
