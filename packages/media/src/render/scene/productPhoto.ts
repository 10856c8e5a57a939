/**
 * A product photo (decision "Framing"): shown as it is, cropped about its subject or stood on a studio set, moved
 * by a slow pan or push-in (its product held still over the set's background on a pan: decision "Parallax"),
 * graded by the template and, as the end card, drawn under the card's type.
 */
import sharp from 'sharp';
import { BT709 } from '../filters.js';
import { endCardStill, stillLook } from '../sceneLook.js';
import { type Along, MOTION_MARGIN, prepareStill, stillPlanes, stillSubject } from '../stills.js';
import type { AheadContext, DrawAt, PrepareContext, PreparedScene, SceneDrawing, SceneKind } from './kind.js';
import { type MotionRun, motionGraph, productPlace } from './stillMotion.js';
import { ASPECT, type AspectRatio, type Motion, type TimelineMedia, type TimelineScene } from './types.js';

type Photo = Extract<TimelineMedia, { kind: 'image' }>;

/** A product photo made ready: its still (or its set's background), and the product's plane on a pan over a set. */
export interface PhotoScene extends PreparedScene {
  kind: 'image';
  /** The still's size, when it differs from the renderer's usual one (a wide photo kept wide to pan along). */
  size?: { width: number; height: number } | undefined;
  /**
   * A set's product plane (a transparent PNG whose top-left corner stands at `left`, `top` of the still, then
   * the set's background): it holds still in the frame while the background pans behind it (decision
   * "Parallax"). Pans only.
   */
  product?: { file: string; left: number; top: number } | undefined;
}

/**
 * Stills of unknown size take turns through these, so consecutive scenes never move the same way. One push-in
 * in five: a zoom costs about 20 ms of CPU a frame at 1080×1920 and a pan next to nothing (decision "Smooth
 * motion"), so pans carry the rest.
 */
export const STILL_MOTIONS: Motion[] = ['zoom-in', 'pan-right', 'pan-up', 'pan-left', 'pan-down'];
/**
 * A picture twice the frame's width for its height (or twice its height) is panned along its long side rather
 * than pushed into: on a 9:16 frame a 4:3, 16:9 or 2.35:1 photo pans, a 1:1, 4:5 or 3:4 one is pushed into.
 */
const PAN_WHEN_LONGER = 2;

/**
 * The move a picture's content asks for: a pan along a photo much wider or taller than the frame (its long side
 * is where its content is), a slow push-in on anything close to the frame's shape (a product, or a product on a
 * set). When the scene before was a push-in, a gentle pan along the frame's long side (the still's margin, 12 %
 * of it) instead: two scenes never move alike, and a pan costs next to nothing where a zoom costs about 20 ms of
 * CPU a frame at 1080×1920 (decision "Smooth motion"; pull-outs were dropped for it). Without a size, stills
 * take turns through STILL_MOTIONS.
 */
export function motionByContent(media: { width: number; height: number }, aspectRatio: AspectRatio, previous: Motion | undefined): Motion {
  const shape = media.width / media.height / ASPECT[aspectRatio];
  if (shape >= PAN_WHEN_LONGER) return previous === 'pan-right' ? 'pan-left' : 'pan-right';
  if (shape <= 1 / PAN_WHEN_LONGER) return previous === 'pan-down' ? 'pan-up' : 'pan-down';
  if (previous !== 'zoom-in') return 'zoom-in';
  return aspectRatio === '16:9' ? 'pan-right' : 'pan-up';
}
/** A pan along a photo crosses this share of the frame's length a second: slow enough to take in what it shows. */
const ALONG_SPEED = 0.15;
/** A pan along a photo keeps this share of the photo's length at least, so its still is a crop that still holds the product. */
const ALONG_SHARE = 0.9;

/**
 * How many frame lengths farther than the still's usual margin a scene's pan travels: a pan along a photo at
 * least twice the frame's shape (a 16:9 or 2.35:1 photo in a 9:16 ad) crosses its width at ALONG_SPEED for the
 * scene's length, as far as the photo goes; any other move keeps to the margin (0). The end card holds its
 * picture steady under its type.
 */
export function panAlong(
  scene: Pick<TimelineScene, 'media' | 'motion' | 'seconds' | 'role'>,
  aspectRatio: AspectRatio,
  margin: number,
): number {
  const { media, motion } = scene;
  if (media.kind !== 'image' || !media.width || !media.height || scene.role === 'end') return 0;
  const shape = media.width / media.height / ASPECT[aspectRatio];
  const along = motion === 'pan-left' || motion === 'pan-right' ? shape : motion === 'pan-up' || motion === 'pan-down' ? 1 / shape : 0;
  if (along < PAN_WHEN_LONGER) return 0;
  return Math.max(0, Math.min(ALONG_SPEED * scene.seconds, ALONG_SHARE * along - margin));
}

/** The pan along the photo a scene makes, if any (`panAlong`): its still is that much longer. */
export function alongOf(scene: TimelineScene, aspectRatio: AspectRatio): Along | undefined {
  const extra = panAlong(scene, aspectRatio, MOTION_MARGIN);
  if (!(extra > 0)) return undefined;
  return { axis: scene.motion === 'pan-up' || scene.motion === 'pan-down' ? 'y' : 'x', extra };
}

/**
 * A frame's CPU by the still's move, relative to a still that does not move (1080×1920, encoding included,
 * measured with every scene of a 15 s export given one move): a pan's stack adds about a third, a zoom's
 * per-frame resampling more than twice (decision "Smooth motion").
 */
const FRAME_COST: Record<Motion, number> = {
  none: 1,
  'pan-left': 1.4,
  'pan-right': 1.4,
  'pan-up': 1.4,
  'pan-down': 1.4,
  'zoom-in': 3.4,
  'zoom-out': 3.4,
};

/**
 * The photo's drawing: its still decoded and converted once, then moved; a set's product plane laid over it. A
 * push's tail asked for is drawn from the same still and stack (and the same product plane).
 */
function draw(source: PhotoScene, { index, lead, frames, frame, stillSize, output, tail }: DrawAt): SceneDrawing {
  const { fps } = frame;
  const still = `[still${index}]`;
  const size = source.size ?? stillSize;
  const runs: [MotionRun, ...MotionRun[]] = [{ lead, frames, output: `[moved${index}]` }];
  if (tail) runs.push({ lead: tail.lead, frames: tail.frames, output: `[movedtail${index}]` });
  const moved = motionGraph({ ...source, size }, runs, frame, still);
  const outputs = tail ? [output, tail.output] : [output];
  const product = source.motion.startsWith('pan-') ? source.product : undefined;
  if (!product) {
    return {
      input: ['-framerate', String(fps), '-i', source.file],
      inputs: 1,
      graph: [`[${index}:v]${BT709}${still}`, moved, ...runs.map((run, k) => `${run.output}setsar=1${outputs[k]}`)].join(';'),
      tail: tail !== undefined,
    };
  }
  // The product plane is one picture, converted once and laid over every frame where it stands (overlay repeats
  // a finished input's last frame); only its own box is blended.
  const at = productPlace(source.motion, size, frame, product);
  const planes = runs.map((_, k) => `[product${index}${k === 0 ? '' : `_${k}`}]`);
  return {
    input: ['-framerate', String(fps), '-i', source.file, '-i', product.file],
    inputs: 2,
    graph: [
      `[${index}:v]${BT709}${still}`,
      moved,
      `[${index + 1}:v]scale=out_color_matrix=bt709:out_range=tv,format=yuva420p${tail ? `,split=2${planes.join('')}` : planes[0]}`,
      ...runs.map((run, k) => `${run.output}${planes[k]}overlay=x=${at.x}:y=${at.y}:format=yuv420:eof_action=repeat,setsar=1${outputs[k]}`),
    ].join(';'),
    tail: tail !== undefined,
  };
}

/** The photo's still for the frame in the template's look (a pan along a wide photo gets one as long as it travels). */
const framedStill = (scene: TimelineScene & { media: Photo }, { frame, aspectRatio, look, brand, cacheDir }: PrepareContext) =>
  prepareStill(scene.media.file, frame.width, frame.height, cacheDir, stillLook(look, brand, scene.grade), {
    along: alongOf(scene, aspectRatio),
  });

/** What the scene shows: its still, or as the end card that still darkened under the card's type. */
async function picture(scene: TimelineScene & { media: Photo }, context: PrepareContext): Promise<string> {
  const still = await framedStill(scene, context);
  const { stillSize, brand, look } = context;
  return scene.role === 'end' ? endCardStill(still, { width: stillSize.width, height: stillSize.height, brand, template: look }) : still;
}

/**
 * The still a photo will most likely show, made before its scene is planned: in the template's own grade, at the
 * frame with its margin. A photo much longer than the frame is left for later: it pans along a still as long as
 * its scene's seconds ask.
 */
function ahead(media: Photo, { frame, aspectRatio, look, brand, cacheDir }: AheadContext): Promise<unknown> {
  const shape = media.width && media.height ? media.width / media.height / ASPECT[aspectRatio] : 1;
  if (shape >= PAN_WHEN_LONGER || shape <= 1 / PAN_WHEN_LONGER) return Promise.resolve();
  return prepareStill(media.file, frame.width, frame.height, cacheDir, stillLook(look, brand, undefined));
}

export const productPhoto: SceneKind<Photo, PhotoScene> = {
  // Framing finds the photo's subject with the model, which runs on one thread.
  preparesInTurn: true,
  shots: true,
  opens: true,
  showsProduct: true,
  move: (media, aspectRatio, previous, turn) =>
    media.width && media.height
      ? motionByContent({ width: media.width, height: media.height }, aspectRatio, previous)
      : (STILL_MOTIONS[turn % STILL_MOTIONS.length] as Motion),
  frameCost: (scene) => FRAME_COST[scene.motion],
  async prepare(scene, context) {
    const { stillSize, motionFrames } = context;
    const still = await framedStill(scene, context);
    // A pan over a product on a blurred set turns about the product: its background slides behind it (decision
    // "Parallax"). The end card's type needs the picture still behind it.
    const planes = scene.role !== 'end' && scene.motion.startsWith('pan-') ? await stillPlanes(still) : undefined;
    const file = scene.role === 'end' ? await picture(scene, context) : (planes?.background ?? still);
    // Moves span the still as made (a header read): a still wider than the usual margin pans further.
    const { width = stillSize.width, height = stillSize.height } = await sharp(file).metadata();
    const product = planes && { file: planes.product, left: planes.left, top: planes.top };
    return { kind: 'image', file, motion: scene.motion, motionFrames, size: { width, height }, product };
  },
  picture,
  ahead,
  subject: (scene, { aspectRatio, frame, cacheDir }) => stillSubject(scene.media.file, frame, cacheDir, alongOf(scene, aspectRatio)),
  draw,
};
