/**
 * Image to video without a generative model: camera moves over the still, H.264 in an MP4 with the index first,
 * and a poster. The prompt chooses the moves (cameraPrompt.ts), several in a row; without a motion word the
 * picture does (a push-in on a centred subject, a pan along a wide frame, a parallax around a subject off centre).
 * Decision "Prompted camera moves".
 *
 * The camera is a window over the still, its size and place computed per frame to a fraction of a pixel with the
 * renderer's speed profile (`progressExpr`, decision "Smooth motion") and resampled by `perspective`, as the
 * renderer's zooms are: one path through several moves, each starting where the one before stopped. Moves with
 * depth (parallax, orbit, dolly) split the still in two planes, the cut-out subject and the background filled
 * behind it, each with its own window: the subject, nearer, moves more than its background.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { progressExpr, RAMP_SECONDS } from '../render/piece.js';
import { MOTION_MARGIN, prepareStill, type StillPlanes, stillPlanes } from '../render/stills.js';
import { type RunOptions, runTool } from '../run.js';
import { NEUTRAL_GRADE } from '../templates/catalogue.js';
import { locateTools, type MediaTools } from '../tools.js';
import { type CameraMove, type CameraMoveKind, type CameraSpeed, cameraMovesOf } from './cameraPrompt.js';
import { subjectMask } from './cutout.js';
import { withAlpha } from './open.js';
import { maskBox, type ShareBox, saliencyBox } from './subject.js';

export type { CameraMove, CameraMoveKind, CameraSpeed } from './cameraPrompt.js';
export { cameraMovesOf } from './cameraPrompt.js';

export interface ImageToVideoOptions {
  seconds: 5 | 10;
  width: number;
  height: number;
  /** What the user asked for: its motion words choose the moves (cameraPrompt.ts). */
  prompt?: string | undefined;
  /** One move, instead of what the prompt or the picture would choose. */
  motion?: CameraMoveKind | undefined;
  /** Where to write the PNG poster; beside `out` (…poster.png) when absent. */
  posterFile?: string | undefined;
  tools?: MediaTools | undefined;
  signal?: AbortSignal | undefined;
}

export const IMAGE_VIDEO_FPS = 24;
/** Exports' quality (render.ts): these are finished videos, not previews. */
const CRF = 23;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** One plane's window: its zoom over the widest window of the frame's shape, and its centre's offset from the still's (px). */
export interface View {
  zoom: number;
  x: number;
  y: number;
}
/** Where both planes' windows are at the end of a move (the same when the clip has no depth). */
export interface Key {
  back: View;
  front: View;
}

const SPEED: Record<CameraSpeed, number> = { slow: 0.6, normal: 1, fast: 1.7 };
/** Per second at normal speed: zoom in log terms, pans in shares of the frame's width. */
const ZOOM_RATE = 0.045;
const PAN_RATE = 0.03;
/** The largest zoom over the widest window: past it the still is enlarged too far to stay sharp. */
const MAX_ZOOM = 1.8;

export const DEPTH_MOVES: readonly CameraMoveKind[] = ['parallax', 'orbit-left', 'orbit-right', 'dolly-in', 'dolly-out'];

/**
 * The moves' path: where each plane's window is at the start and at the end of each move. Moves split the clip
 * evenly. `depth` says whether the subject is a plane of its own; without one, the depth moves are made flat
 * (a dolly zooms, an orbit or a parallax pans). `still` and `frame` are sizes; offsets are in still pixels.
 */
export function cameraPath(
  moves: readonly CameraMove[],
  seconds: number,
  still: { width: number; height: number },
  frame: { width: number; height: number },
  depth: boolean,
): Key[] {
  const T = seconds / Math.max(1, moves.length);
  const wide = Math.min(still.width / frame.width, still.height / frame.height) * frame.width;
  let key: Key = { back: { zoom: 1, x: 0, y: 0 }, front: { zoom: 1, x: 0, y: 0 } };
  const keys: Key[] = [key];
  const zoomed = (v: View, by: number): View => ({ ...v, zoom: v.zoom * Math.exp(by) });
  const moved = (v: View, dx: number, dy: number): View => ({ ...v, x: v.x + dx * wide, y: v.y + dy * wide });
  for (const move of moves) {
    const m = SPEED[move.speed] * T;
    const z = ZOOM_RATE * m;
    const d = PAN_RATE * m;
    const { back, front } = key;
    switch (move.kind) {
      case 'zoom-in':
      case 'zoom-out': {
        const by = move.kind === 'zoom-in' ? z : -z;
        key = { back: zoomed(back, by), front: zoomed(front, by) };
        break;
      }
      case 'pan-left':
      case 'pan-right':
      case 'pan-up':
      case 'pan-down': {
        const dx = move.kind === 'pan-left' ? -d : move.kind === 'pan-right' ? d : 0;
        const dy = move.kind === 'pan-up' ? -d : move.kind === 'pan-down' ? d : 0;
        key = { back: moved(back, dx, dy), front: moved(front, dx, dy) };
        break;
      }
      case 'dolly-in':
      case 'dolly-out': {
        // The camera travels toward the subject: the near plane grows three times as fast as the far one.
        const by = move.kind === 'dolly-in' ? z : -z;
        key = depth
          ? { back: zoomed(back, by * 0.45), front: zoomed(front, by * 1.35) }
          : { back: zoomed(back, by), front: zoomed(front, by) };
        break;
      }
      case 'orbit-left':
      case 'orbit-right': {
        // Around the subject: it holds its place while its background slides behind it, closing in a little.
        const dx = (move.kind === 'orbit-right' ? d : -d) * 0.5;
        const by = z * 0.2;
        key = depth
          ? { back: zoomed(moved(back, dx, 0), by), front: zoomed(front, by) }
          : { back: zoomed(moved(back, dx, 0), by), front: zoomed(moved(front, dx, 0), by) };
        break;
      }
      case 'parallax': {
        // The camera travels sideways: the near subject crosses the frame faster than its background.
        key = depth
          ? { back: moved(back, d * 0.35, 0), front: moved(front, d, 0) }
          : { back: moved(back, d, 0), front: moved(front, d, 0) };
        break;
      }
    }
    keys.push(key);
  }
  return fitted(keys, still, { width: wide, height: wide * (frame.height / frame.width) });
}

/**
 * The path centred on the still (each plane's offsets about the middle of their range, so the photo stands as
 * it is halfway through) and zoomed in as little as keeps the background's window inside the still throughout.
 */
function fitted(keys: Key[], still: { width: number; height: number }, window: { width: number; height: number }): Key[] {
  const centre = (plane: 'back' | 'front', axis: 'x' | 'y') => {
    const values = keys.map((k) => k[plane][axis]);
    return (Math.min(...values) + Math.max(...values)) / 2;
  };
  const shift = { back: { x: centre('back', 'x'), y: centre('back', 'y') }, front: { x: centre('front', 'x'), y: centre('front', 'y') } };
  const centred = keys.map((k) => ({
    back: { ...k.back, x: k.back.x - shift.back.x, y: k.back.y - shift.back.y },
    front: { ...k.front, x: k.front.x - shift.front.x, y: k.front.y - shift.front.y },
  }));
  // The window (wide/zoom across) must keep within the still: zoom ≥ wide / (width − 2|x|), and so down.
  const need = Math.max(
    1 / Math.min(...centred.map((k) => k.back.zoom)),
    ...centred.map((k) => window.width / Math.max(1, still.width - 2 * Math.abs(k.back.x)) / k.back.zoom),
    ...centred.map((k) => window.height / Math.max(1, still.height - 2 * Math.abs(k.back.y)) / k.back.zoom),
  );
  // A hair more, so the bilinear window never samples the still's last column; never past MAX_ZOOM.
  const most = Math.max(...centred.map((k) => Math.max(k.back.zoom, k.front.zoom)));
  const by = Math.min(Math.max(1, need * 1.002), MAX_ZOOM / most);
  return centred.map((k) => ({ back: { ...k.back, zoom: k.back.zoom * by }, front: { ...k.front, zoom: k.front.zoom * by } }));
}

/**
 * The value of one plane's view property along the path, per frame (`n`: `in` in `perspective`, `n` in `overlay`),
 * eased within each move.
 */
function pathExpr(values: number[], frames: number, fps: number, log: boolean, n = 'in'): string {
  const moves = values.length - 1;
  const ramp = Math.round(RAMP_SECONDS * fps);
  let expr = '';
  for (let i = moves - 1; i >= 0; i--) {
    const start = Math.round((i * (frames - 1)) / moves);
    const end = Math.round(((i + 1) * (frames - 1)) / moves);
    const a = values[i] as number;
    const b = values[i + 1] as number;
    const p = progressExpr(`${n}-${start}`, end - start, ramp);
    const value = a === b ? `${a}` : log ? `${a}*pow(${b / a},${p})` : `(${a}+${b - a}*${p})`;
    expr = i === moves - 1 ? value : `if(lt(${n},${end}),${value},${expr})`;
  }
  return expr;
}

type Size = { width: number; height: number };

/** One plane's path over a clip: its window at each key, over `frames` frames, and the still's and frame's sizes. */
interface PlanePath {
  views: View[];
  frames: number;
  fps: number;
  still: Size;
  frame: Size;
}

/**
 * A plane's window over the still per frame, as expressions of the frame number `n`: its left and top edges
 * (`x0`, `y0`, still px), its size (`ww`, `wh`) and its scale (`s`, frame px per still px).
 */
function windowExprs({ views, frames, fps, still, frame }: PlanePath, n = 'in') {
  const { width: W, height: H } = still;
  const { width: w, height: h } = frame;
  const wide = Math.min(W / w, H / h);
  const along = (values: number[], log: boolean) => pathExpr(values, frames, fps, log, n);
  const zoom = along(
    views.map((v) => v.zoom),
    true,
  );
  const cx = along(
    views.map((v) => v.x + W / 2),
    false,
  );
  const cy = along(
    views.map((v) => v.y + H / 2),
    false,
  );
  const ww = `(${(w * wide).toFixed(3)}/${zoom})`;
  const wh = `(${(h * wide).toFixed(3)}/${zoom})`;
  return { x0: `(${cx}-${ww}/2)`, y0: `(${cy}-${wh}/2)`, s: `(${w}/${ww})`, ww, wh };
}

/** `perspective` taking the quad with corners x0, y0 (top left) and x1, y1 (bottom right) to the whole output. */
const quad = (x0: string, y0: string, x1: string, y1: string) =>
  `perspective=x0='${x0}':y0='${y0}':x1='${x1}':y1='${y0}':x2='${x0}':y2='${y1}':x3='${x1}':y3='${y1}':eval=frame`;

/**
 * `perspective` options placing a plane's window over the still on the frame's top-left (the crop after keeps
 * it): the quad is the window grown so that the window itself lands on the frame, as the renderer's zooms do.
 */
function windowFilter(path: PlanePath) {
  const { width: W, height: H } = path.still;
  const { width: w, height: h } = path.frame;
  const { x0, y0, ww, wh } = windowExprs(path);
  return `${quad(x0, y0, `(${x0}+${ww}*${W / w})`, `(${y0}+${wh}*${H / h})`)},crop=${w}:${h}:0:0`;
}

/** Where a plane cropped to its subject lies on the still: its top-left corner (even) and size (even), still px. */
export interface PlaneCrop {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The subject's plane cropped to its box, resampled as the whole plane would be and laid on the frame by
 * `overlay`: only its box is resampled and blended each frame, not the whole still (most of it transparent).
 * Each frame the crop's corner lands at an even frame pixel (overlay places yuv420 pictures on even pixels) and
 * `perspective` takes the rest, so every frame pixel samples the very still point it would in the whole plane.
 */
function croppedWindow(path: PlanePath, crop: PlaneCrop) {
  // The same window in both filters' frame numbers: the corner's frame pixel, floored to even.
  const at = (n: string) => {
    const e = windowExprs(path, n);
    return {
      ...e,
      kx: `(2*floor((${crop.left}-${e.x0})*${e.s}/2))`,
      ky: `(2*floor((${crop.top}-${e.y0})*${e.s}/2))`,
    };
  };
  const p = at('in');
  const o = at('n');
  const x0 = `(${p.x0}-${crop.left}+${p.kx}/${p.s})`;
  const y0 = `(${p.y0}-${crop.top}+${p.ky}/${p.s})`;
  return { filter: quad(x0, y0, `(${x0}+${crop.width}/${p.s})`, `(${y0}+${crop.height}/${p.s})`), x: o.kx, y: o.ky };
}

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
interface DepthPlanes {
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

/**
 * The two planes of a clip with depth from the set the still was drawn on (framing put the product there): the
 * set's own background, with nothing to fill, and the product with its contact shadow, so its shadow travels
 * with it and the planes are the still itself, taken apart.
 */
async function setPlanes(planes: StillPlanes, backSize: Size, grow: number, dir: string): Promise<DepthPlanes> {
  const back = join(dir, 'back.jpg');
  const front = join(dir, 'front.png');
  const [crop] = await Promise.all([
    sharp(planes.product)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) =>
        subjectPlane({ rgba: data, width: info.width, height: info.height, left: planes.left, top: planes.top }, grow, front),
      ),
    sharp(planes.background).resize(backSize.width, backSize.height, { fit: 'fill' }).jpeg({ quality: 90 }).toFile(back),
  ]);
  return { back, front, crop };
}

function x264(out: string, threads: number): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    String(CRF),
    '-x264-params',
    'me=dia:subme=1',
    '-threads',
    String(threads),
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(IMAGE_VIDEO_FPS),
    '-an',
    '-movflags',
    '+faststart',
    out,
  ];
}

/** The still's sides a subject plane reaches: a subject the photo cuts there (a person from the waist up). */
type Sides = { left: boolean; top: boolean; right: boolean; bottom: boolean };

/** Where a clip with depth gets its planes, and the still's sides its subject is cut at. */
interface DepthSource {
  cut: Sides;
  /**
   * The share of the frame's size its background plane is resampled at. A set's background (a studio sweep, or the
   * photo blurred from a 48 px field) has no detail a half-size plane loses, and `perspective`'s work goes with
   * the pixels it makes: enlarged after, it looks the same.
   */
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

async function depthSource(still: string, size: Size): Promise<DepthSource | null> {
  const set = await stillPlanes(still);
  if (set) {
    const { width, height } = await sharp(set.product).metadata();
    return {
      cut: sidesReached({ left: set.left, top: set.top, width, height }, size, 1),
      backScale: 0.5,
      planes: (grow, back, dir) => setPlanes(set, back, grow, dir),
    };
  }
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

/**
 * The moves a clip makes: the one asked for, else the prompt's, else the picture's. The picture's are chosen from
 * where its salient part is (no model): the cut-out model runs only for a move with depth, as its memory and time
 * are only worth it then (decision "Prompted camera moves", bounded work).
 */
async function chooseMoves(options: ImageToVideoOptions, still: string, frame: { width: number; height: number }) {
  if (options.motion) return [{ kind: options.motion, speed: 'normal' } as CameraMove];
  const asked = cameraMovesOf(options.prompt);
  if (asked.length > 0) return asked;
  return movesByContent(frame, await saliencyBox(still));
}

export async function imageToVideo(
  input: string,
  options: ImageToVideoOptions,
  out: string,
): Promise<{ outFile: string; posterFile: string; width: number; height: number; seconds: number; moves: CameraMove[] }> {
  const tools = options.tools ?? locateTools();
  const frame = { width: even(options.width), height: even(options.height) };
  const fps = IMAGE_VIDEO_FPS;
  const frames = options.seconds * fps;
  const run: RunOptions = { timeoutMs: 5 * 60_000, signal: options.signal };
  const threads = 2;
  const work = await mkdtemp(join(tmpdir(), 'reelsmith-motion-'));
  try {
    const cacheDir = join(work, 'stills');
    await mkdir(cacheDir);
    const still = await prepareStill(input, frame.width, frame.height, cacheDir, { grade: NEUTRAL_GRADE }, { sweepPlanes: true });
    const size = { width: even(frame.width * MOTION_MARGIN), height: even(frame.height * MOTION_MARGIN) };
    const moves = await chooseMoves(options, still, frame);
    const wantsDepth = moves.some((m) => DEPTH_MOVES.includes(m.kind));
    // A set (framing stood the product on one) comes apart in its own planes; any other still is cut by the model.
    const depth = wantsDepth ? await depthSource(still, size) : null;
    let keys = cameraPath(moves, options.seconds, size, frame, depth !== null);
    const separate = depth !== null && !showsCutEdge(keys, depth.cut, size, frame);
    if (depth && !separate) keys = cameraPath(moves, options.seconds, size, frame, false);
    // Each still is decoded once and its frame repeated (`loop`), never re-read per frame.
    const repeated = (index: number, format: string) =>
      `[${index}:v]format=${format},loop=loop=${frames - 1}:size=1:start=0,setpts=N/${fps}/TB`;
    const pathOf = (plane: 'back' | 'front'): PlanePath => ({ views: keys.map((k) => k[plane]), frames, fps, still: size, frame });
    let stills: string[];
    let graph: string[];
    if (depth && separate) {
      // The background plane is kept at the frame's size, not the still's (or at half of it, a set's: backScale):
      // `perspective` works (and computes its map) over its whole input each frame, and a background seen behind a
      // nearer subject loses nothing a viewer would miss at the frame's own resolution. Its offsets scale with it;
      // zooms are shares, unchanged.
      const backSize = { width: even(frame.width * depth.backScale), height: even(frame.height * depth.backScale) };
      const enlarged = depth.backScale < 1 ? `,scale=${frame.width}:${frame.height}:flags=bicubic` : '';
      const back = `${windowFilter({
        ...pathOf('back'),
        views: keys.map(({ back: v }) => ({
          zoom: v.zoom,
          x: (v.x * backSize.width) / size.width,
          y: (v.y * backSize.height) / size.height,
        })),
        still: backSize,
        frame: backSize,
      })}${enlarged}`;
      const wide = Math.min(size.width / frame.width, size.height / frame.height);
      const grow = Math.max(...keys.map((k) => k.front.zoom)) / wide;
      const planes = await depth.planes(grow, backSize, work);
      const front = croppedWindow(pathOf('front'), planes.crop);
      stills = [planes.back, planes.front];
      graph = [
        `${repeated(0, 'yuv420p')},${back}[back]`,
        `${repeated(1, 'yuva420p')},${front.filter}[front]`,
        `[back][front]overlay=x='${front.x}':y='${front.y}':eval=frame:format=yuv420:eof_action=repeat,setsar=1,format=yuv420p[clip]`,
      ];
    } else {
      const back = windowFilter(pathOf('back'));
      stills = [still];
      graph = [`${repeated(0, 'yuv420p')},${back},setsar=1,format=yuv420p[clip]`];
    }
    // The poster is the clip's first frame, written by the same run (a second ffmpeg decoding the clip cost
    // about 0.3 s of a 3 s budget).
    graph.push('[clip]split[v][poster]');
    const posterFile = options.posterFile ?? out.replace(/(\.\w+)?$/, '.poster.png');
    const args = [
      '-v',
      'error',
      '-y',
      '-filter_complex_threads',
      String(threads),
      ...stills.flatMap((s) => ['-framerate', String(fps), '-i', s]),
      '-filter_complex',
      graph.join(';'),
      '-map',
      '[v]',
      '-frames:v',
      String(frames),
      ...x264(out, threads),
      '-map',
      '[poster]',
      '-frames:v',
      '1',
      '-f',
      'image2',
      '-c:v',
      'png',
      posterFile,
    ];
    await runTool(tools.ffmpeg, args, run);
    return { outFile: out, posterFile, ...frame, seconds: options.seconds, moves };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
