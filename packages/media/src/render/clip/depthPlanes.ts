import { join } from 'node:path';
import type { CameraMove } from '@reelsmith/contract/camera-prompt';
import sharp from 'sharp';
import { subjectMask } from '../../imaging/cutout.js';
import { withAlpha } from '../../imaging/open.js';
import { maskBox, type ShareBox } from '../../imaging/subject.js';
import { even, type Key, type PlaneCrop, type Size, type View } from './cameraPath.js';

/** A subject worth its own plane: what the cut-out model keeps, neither a speck nor the whole picture. */
const SUBJECT_AREA = [0.02, 0.7] as const;

export interface StillSubject {
  /** The model's mask stretched over the still, 0–255. */
  alpha: Buffer;
  box: ShareBox;
  area: number;
}

async function stillSubject(still: string, width: number, height: number): Promise<StillSubject | null> {
  const { mask, side } = await subjectMask(still);
  const found = maskBox(mask, side, side);
  if (!found || found.area < SUBJECT_AREA[0] || found.area > SUBJECT_AREA[1]) return null;
  const alpha = await sharp(mask, { raw: { width: side, height: side, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  // The model's faint haze over the floor is no subject; and the plane's outermost pixels are clear, since
  // `perspective` repeats the edge where a window reaches past the still (seen: streaks of floor at a frame's side).
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if ((alpha[i] as number) < 24 || x < 2 || y < 2 || x >= width - 2 || y >= height - 2) alpha[i] = 0;
    }
  }
  return { alpha, ...found };
}

/**
 * The moves for a picture when the prompt names none: a wide frame pans along, a subject well off the middle gets
 * a parallax toward the side with room, anything else (a centred product, no subject found) a slow push-in.
 */
export function movesByContent(frame: { width: number; height: number }, subject: { box: ShareBox } | null): CameraMove[] {
  if (frame.width >= frame.height * 1.3) return [{ kind: 'pan-right', speed: 'normal' }];
  if (subject) {
    const middle = (subject.box.left + subject.box.right) / 2;
    if (Math.abs(middle - 0.5) > 0.12) return [{ kind: 'parallax', speed: 'normal' }];
  }
  return [{ kind: 'zoom-in', speed: 'slow' }];
}

/**
 * The background with the subject taken out and the hole filled from around it: a normalised convolution (the
 * picture outside a widened mask, blurred, over the blurred mask) at two scales at a quarter of the size, so the
 * near background fills a narrow gap and a wide one gets the surroundings' colour. Only a band beside the subject
 * ever shows, as the planes slide against each other.
 */
async function filledBackground(still: string, subject: StillSubject, width: number, height: number, frame: Size, out: string) {
  const sw = Math.max(8, Math.round(width / 4));
  const sh = Math.max(8, Math.round(height / 4));
  // Widened by about 1.5 % of the still, so the subject's fringe is not what fills its hole.
  const grow = Math.max(2, Math.round(Math.max(width, height) * 0.015));
  // Three steps, each its own pipeline: sharp runs a pipeline's operations in its own fixed order (a threshold
  // before a blur, one blur however many are asked), which once left the hole unwidened, its edge half the
  // subject's dark fringe: the ghost outline seen beside every subject as the planes slid apart.
  const raw = { raw: { width, height, channels: 1 as const } };
  const widened = await sharp(subject.alpha, raw)
    .blur(grow / 2)
    .extractChannel(0)
    .raw()
    .toBuffer();
  for (let i = 0; i < widened.length; i++) widened[i] = (widened[i] as number) >= 24 ? 255 : 0;
  const hole = await sharp(widened, raw)
    .blur(grow / 3)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const small = await sharp(still).resize(sw, sh, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const smallHole = await sharp(hole, { raw: { width, height, channels: 1 } })
    .resize(sw, sh, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const keep = new Float32Array(sw * sh);
  const colour = new Float32Array(sw * sh * 3);
  for (let i = 0; i < keep.length; i++) {
    const k = (smallHole[i] as number) < 8 ? 1 : 0;
    keep[i] = k;
    for (let c = 0; c < 3; c++) colour[i * 3 + c] = (small[i * 3 + c] as number) * k;
  }
  const filled = pushPull(colour, keep, sw, sh);
  // Softened as a background out of focus reads: the fill carries the surroundings' colour, not their detail.
  const fill = await sharp(Buffer.from(filled), { raw: { width: sw, height: sh, channels: 3 } })
    .blur(Math.max(1, sw / 100))
    .raw()
    .toBuffer();
  // The blend is made at the frame's size, the plane's (see imageToVideo); the smooth fill enlarges bilinearly.
  const atFrame = { width: frame.width, height: frame.height, fit: 'fill' as const };
  const [big, original, edge] = await Promise.all([
    sharp(fill, { raw: { width: sw, height: sh, channels: 3 } })
      .resize({ ...atFrame, kernel: 'linear' })
      .raw()
      .toBuffer(),
    sharp(still).resize(atFrame).removeAlpha().raw().toBuffer(),
    sharp(hole, { raw: { width, height, channels: 1 } })
      .resize(atFrame)
      .extractChannel(0)
      .raw()
      .toBuffer(),
  ]);
  const back = Buffer.alloc(frame.width * frame.height * 3);
  for (let i = 0; i < frame.width * frame.height; i++) {
    const a = (edge[i] as number) / 255;
    for (let c = 0; c < 3; c++) back[i * 3 + c] = Math.round((original[i * 3 + c] as number) * (1 - a) + (big[i * 3 + c] as number) * a);
  }
  await sharp(back, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toFile(out);
}

/**
 * Push–pull hole filling: the known pixels (`weight` 1, colour premultiplied by it) are averaged down a pyramid
 * until no level has holes, then each hole takes the coarser level's colour on the way back up, so a hole fills
 * from its own rim inward. Answers the RGB picture, 0–255.
 */
export function pushPull(colour: Float32Array, weight: Float32Array, width: number, height: number): Uint8Array {
  if (width <= 1 && height <= 1) {
    const w = Math.max(weight[0] as number, 1e-6);
    return Uint8Array.from([0, 1, 2].map((c) => Math.round((colour[c] as number) / w)));
  }
  const cw = Math.ceil(width / 2);
  const ch = Math.ceil(height / 2);
  const coarseColour = new Float32Array(cw * ch * 3);
  const coarseWeight = new Float32Array(cw * ch);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const j = (y >> 1) * cw + (x >> 1);
      coarseWeight[j] = (coarseWeight[j] as number) + (weight[i] as number);
      for (let c = 0; c < 3; c++) coarseColour[j * 3 + c] = (coarseColour[j * 3 + c] as number) + (colour[i * 3 + c] as number);
    }
  }
  for (let j = 0; j < cw * ch; j++) {
    const w = coarseWeight[j] as number;
    if (w > 1) {
      for (let c = 0; c < 3; c++) coarseColour[j * 3 + c] = (coarseColour[j * 3 + c] as number) / w;
      coarseWeight[j] = 1;
    }
  }
  const coarse = pushPull(coarseColour, coarseWeight, cw, ch);
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    // The coarser level, bilinear about this pixel's centre.
    const fy = Math.min(ch - 1, Math.max(0, (y - 0.5) / 2));
    const y0 = Math.floor(fy);
    const y1 = Math.min(ch - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const known = weight[i] as number;
      const w = Math.min(1, known);
      const fx = Math.min(cw - 1, Math.max(0, (x - 0.5) / 2));
      const x0 = Math.floor(fx);
      const x1 = Math.min(cw - 1, x0 + 1);
      const tx = fx - x0;
      const a = (y0 * cw + x0) * 3;
      const b = (y0 * cw + x1) * 3;
      const c0 = (y1 * cw + x0) * 3;
      const d = (y1 * cw + x1) * 3;
      for (let c = 0; c < 3; c++) {
        const below =
          ((coarse[a + c] as number) * (1 - tx) + (coarse[b + c] as number) * tx) * (1 - ty) +
          ((coarse[c0 + c] as number) * (1 - tx) + (coarse[d + c] as number) * tx) * ty;
        const own = known > 0 ? (colour[i * 3 + c] as number) / known : 0;
        out[i * 3 + c] = Math.round(own * w + below * (1 - w));
      }
    }
  }
  return out;
}

/** A clip's two planes: the background (a JPEG at its `backScale` of the frame) and the subject's, cropped (see `croppedWindow`). */
export interface DepthPlanes {
  back: string;
  front: string;
  crop: PlaneCrop;
}

/** A transparent picture (RGBA) whose top-left corner stands at `left`, `top` of the still. */
interface Patch {
  rgba: Buffer;
  width: number;
  height: number;
  left: number;
  top: number;
}

/**
 * The subject's plane: its patch with a clear margin (`perspective` repeats a picture's edge where a window
 * reaches past it), its corner on an even still pixel, and room to grow by `grow` (its largest scale on the
 * frame), written as a PNG. Answers where the plane stands.
 */
async function subjectPlane(patch: Patch, grow: number, out: string): Promise<PlaneCrop> {
  const margin = 4;
  const left = Math.floor((patch.left - margin) / 2) * 2;
  const top = Math.floor((patch.top - margin) / 2) * 2;
  const box = { width: patch.left + patch.width + margin - left, height: patch.top + patch.height + margin - top };
  const crop: PlaneCrop = {
    left,
    top,
    width: even(Math.ceil(box.width * Math.max(1, grow)) + 4),
    height: even(Math.ceil(box.height * Math.max(1, grow)) + 4),
  };
  await sharp(patch.rgba, { raw: { width: patch.width, height: patch.height, channels: 4 } })
    .extend({
      left: patch.left - left,
      top: patch.top - top,
      right: crop.width - (patch.left - left) - patch.width,
      bottom: crop.height - (patch.top - top) - patch.height,
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png({ compressionLevel: 1 })
    .toFile(out);
  return crop;
}

/** The box of a subject's alpha over a still of `size` (still px). */
function subjectBox(alpha: Buffer, { width, height }: Size) {
  let [x0, y0, x1, y1] = [width, height, 0, 0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((alpha[y * width + x] as number) === 0) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x + 1);
      y1 = Math.max(y1, y + 1);
    }
  }
  return { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * The two planes of a clip with depth from the cut-out model's subject: the background filled behind it, and the
 * subject alone (its box of the still, its colour under the model's alpha).
 */
async function cutPlanes(
  still: string,
  subject: StillSubject,
  box: PlaneCrop,
  size: Size,
  backSize: Size,
  grow: number,
  dir: string,
): Promise<DepthPlanes> {
  const back = join(dir, 'back.jpg');
  const front = join(dir, 'front.png');
  const patch = async (): Promise<Patch> => {
    const [colour, alpha] = await Promise.all([
      sharp(still).removeAlpha().extract(box).raw().toBuffer(),
      sharp(subject.alpha, { raw: { ...size, channels: 1 } })
        .extract(box)
        .extractChannel(0)
        .raw()
        .toBuffer(),
    ]);
    return { rgba: await withAlpha(colour, alpha, box).raw().toBuffer(), ...box };
  };
  const [crop] = await Promise.all([
    patch().then((p) => subjectPlane(p, grow, front)),
    filledBackground(still, subject, size.width, size.height, backSize, back),
  ]);
  return { back, front, crop };
}

/** The still's sides a subject plane reaches: a subject the photo cuts there (a person from the waist up). */
type Sides = { left: boolean; top: boolean; right: boolean; bottom: boolean };

/** Where a clip with depth gets its planes, and the still's sides its subject is cut at. */
interface DepthSource {
  cut: Sides;
  /** The share of the frame's size its background plane is resampled at: the photo's detail needs all of it. */
  backScale: number;
  /** Writes the planes into `dir`: the background at `back` (its size), the subject's with room to grow by `grow`. */
  planes: (grow: number, back: Size, dir: string) => Promise<DepthPlanes>;
}

/** The sides of a still of `size` that a patch of it (still px) reaches, within `border` px. */
const sidesReached = (box: { left: number; top: number; width: number; height: number }, size: Size, border: number): Sides => ({
  left: box.left <= border,
  top: box.top <= border,
  right: box.left + box.width >= size.width - border,
  bottom: box.top + box.height >= size.height - border,
});

/**
 * The planes of a clip with depth: the subject the cut-out model finds in the photo, and the photo itself behind
 * it, filled where the subject stood. Never a set: image to video moves the photo it was given (decision "Image to
 * video moves the photo").
 */
export async function depthSource(still: string, size: Size): Promise<DepthSource | null> {
  const subject = await stillSubject(still, size.width, size.height);
  if (!subject) return null;
  // The model's alpha is cleared two pixels in from the still's edges (stillSubject).
  const box = subjectBox(subject.alpha, size);
  return {
    cut: sidesReached(box, size, 3),
    backScale: 1,
    planes: (grow, back, dir) => cutPlanes(still, subject, box, size, back, grow, dir),
  };
}

/**
 * Whether the subject's window, anywhere along the path, shows a side of the still its subject is cut at: a
 * person cut at the waist whose plane a dolly-out shrinks, or a parallax slides sideways, would show the cut
 * floating in the frame. Such a clip is made flat (the depth moves without depth).
 */
export function showsCutEdge(keys: readonly Key[], cut: Sides, still: Size, frame: Size): boolean {
  const wide = Math.min(still.width / frame.width, still.height / frame.height);
  const shows = (v: View) => {
    const half = { x: (frame.width * wide) / v.zoom / 2, y: (frame.height * wide) / v.zoom / 2 };
    const centre = { x: still.width / 2 + v.x, y: still.height / 2 + v.y };
    // Half a pixel: the bilinear window's last column reads the still's edge, not past it.
    return (
      (cut.left && centre.x - half.x < -0.5) ||
      (cut.right && centre.x + half.x > still.width + 0.5) ||
      (cut.top && centre.y - half.y < -0.5) ||
      (cut.bottom && centre.y + half.y > still.height + 0.5)
    );
  };
  // Within a move the zoom and the offsets share one progress: the window's edges are checked along it.
  for (let k = 1; k < keys.length; k++) {
    const a = (keys[k - 1] as Key).front;
    const b = (keys[k] as Key).front;
    for (let step = 0; step <= 8; step++) {
      const p = step / 8;
      const view = { zoom: a.zoom * (b.zoom / a.zoom) ** p, x: a.x + (b.x - a.x) * p, y: a.y + (b.y - a.y) * p };
      if (shows(view)) return true;
    }
  }
  return false;
}
