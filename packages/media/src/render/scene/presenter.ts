/**
 * The presenter on camera (decision "Presenter in link to video"): their portrait framed to the ad's shape about
 * their face, held still in previews and, at export, the lip-synced clip a talking-presenter model made of that same
 * framed portrait saying the scene's words. It shows no product: the offer card goes on a product scene.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { aroundFace, findFaces } from '../../imaging/faces.js';
import { BT709 } from '../filters.js';
import type { DrawAt, PreparedScene, SceneDrawing, SceneKind } from './kind.js';
import type { FrameBox, PresenterMedia } from './types.js';

type Presenter = PresenterMedia;

/** A presenter made ready: the framed portrait and its face, and at export the take they talk in from `from` on. */
export interface PresenterScene extends PreparedScene {
  kind: 'presenter';
  clip?: string | undefined;
  from?: number | undefined;
  face?: FrameBox | undefined;
}

/** The face's height in the frame a presenter scene aims for: head and shoulders, a medium close-up. */
const FACE_HEIGHT = 0.22;
/** Where the face's middle sits down the frame: a little above the middle, room for the captions below. */
const FACE_LEVEL = 0.36;
/** A portrait is never enlarged more than this to frame the face closer: past it the picture goes soft. */
const MOST_ENLARGED = 2;

/** The cached framing of a portrait: its identity, the frame, and this module's version of the framing. */
async function framingKey(file: string, width: number, height: number): Promise<string> {
  const { size, mtimeMs } = await stat(file);
  return createHash('sha256').update(`${file}\0${size}\0${mtimeMs}\0${width}x${height}\0presenter-1`).digest('hex').slice(0, 32);
}

/** Where the crop of aspect `aspect` falls in a `W`×`H` picture to frame `face` (shares of it), in pixels. */
function cropAbout(face: FrameBox | undefined, W: number, H: number, frameHeight: number, aspect: number) {
  const widest = Math.min(W, H * aspect);
  const most = widest / aspect;
  // Closer when the face is small in the picture, down to the least crop the enlargement allows.
  const least = Math.min(most, frameHeight / MOST_ENLARGED);
  const height = face ? Math.max(least, Math.min(most, (face.h * H) / FACE_HEIGHT)) : most;
  const width = height * aspect;
  const centre = face ? { x: (face.x + face.w / 2) * W, y: (face.y + face.h / 2) * H } : { x: W / 2, y: H * 0.3 };
  const clamp = (v: number, hi: number) => Math.round(Math.max(0, Math.min(hi, v)));
  return {
    left: clamp(centre.x - width / 2, W - width),
    top: clamp(centre.y - FACE_LEVEL * height, H - height),
    width: Math.min(W, Math.round(width)),
    height: Math.min(H, Math.round(height)),
  };
}

/**
 * The portrait `file` framed for a `width`×`height` frame about its face (the largest face found), with the face's
 * box in the frame; kept in `cacheDir`, so the face is looked for once a portrait and shape. A portrait without a
 * face found is framed about its upper middle.
 */
export async function framePortrait(file: string, frame: { width: number; height: number }, cacheDir: string): Promise<Presenter> {
  const key = join(cacheDir, await framingKey(file, frame.width, frame.height));
  const [framed, facts] = [`${key}.png`, `${key}.json`];
  const kept = await readFile(facts, 'utf8').catch(() => undefined);
  if (kept !== undefined) return { kind: 'presenter', file: framed, face: (JSON.parse(kept) as { face?: FrameBox }).face };
  await mkdir(cacheDir, { recursive: true });
  const found = [...(await findFaces(file))].sort((a, b) => b.box.w * b.box.h - a.box.w * a.box.h)[0];
  const { data, info } = await sharp(file, { limitInputPixels: 100_000_000 }).rotate().toBuffer({ resolveWithObject: true });
  const crop = cropAbout(found?.box, info.width, info.height, frame.height, frame.width / frame.height);
  const face = found && {
    x: (found.box.x * info.width - crop.left) / crop.width,
    y: (found.box.y * info.height - crop.top) / crop.height,
    w: (found.box.w * info.width) / crop.width,
    h: (found.box.h * info.height) / crop.height,
  };
  const part = `${framed}.part.png`;
  await sharp(data).extract(crop).resize(frame.width, frame.height, { fit: 'fill' }).png().toFile(part);
  await rename(part, framed);
  await writeFile(facts, JSON.stringify({ face }));
  return { kind: 'presenter', file: framed, face };
}

/** The face's height in a box smaller than the frame (a corner, a half) the presenter is cropped to: closer. */
const FACE_IN_BOX = 0.28;
/** Where the face's middle sits down such a box. */
const FACE_LEVEL_IN_BOX = 0.38;

/**
 * The part of a `frame`-sized framed portrait showing the presenter in a box of `box`'s shape, about the face, in
 * pixels of the frame: the whole frame when the box has its shape.
 */
export function boxAbout(face: FrameBox | undefined, frame: { width: number; height: number }, box: { width: number; height: number }) {
  const { width: W, height: H } = frame;
  const aspect = box.width / box.height;
  if (Math.abs(aspect - W / H) < 0.01) return { x: 0, y: 0, width: W, height: H };
  // As close as the face asks, never past the frame.
  let height = face ? Math.min(H, (face.h * H) / FACE_IN_BOX) : H;
  let width = height * aspect;
  if (width > W) [width, height] = [W, W / aspect];
  const even = (v: number) => Math.max(2, Math.floor(v / 2) * 2);
  [width, height] = [even(width), even(height)];
  const centre = face ? { x: (face.x + face.w / 2) * W, y: (face.y + face.h / 2) * H } : { x: W / 2, y: H * 0.3 };
  const clamp = (v: number, hi: number) => Math.round(Math.max(0, Math.min(hi, v)));
  return { x: clamp(centre.x - width / 2, W - width), y: clamp(centre.y - FACE_LEVEL_IN_BOX * height, H - height), width, height };
}

/** What drawing the presenter needs: the framed portrait, its face, and the take from `from` seconds on. */
export type PresenterSource = Pick<PresenterScene, 'file' | 'clip' | 'from' | 'face'>;

/**
 * The presenter's frames in a `box`-sized picture (the whole frame, a corner, a half) from input `index`: the
 * portrait held, or the take played from where the scene's fade-in left it and held on its last frame.
 */
export function drawPresenter(
  source: PresenterSource,
  { index, lead, frames, frame, output }: Omit<DrawAt, 'stillSize'>,
  box: { width: number; height: number } = frame,
): SceneDrawing {
  const { width: w, height: h, fps } = frame;
  const part = boxAbout(source.face, frame, box);
  const toBox =
    part.width === w && part.height === h
      ? `setsar=1`
      : `crop=${part.width}:${part.height}:${part.x}:${part.y},scale=${box.width}:${box.height},setsar=1`;
  const fit = `scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},${toBox}`;
  const end = `trim=end_frame=${frames},setpts=N/${fps}/TB${output}`;
  if (!source.clip) {
    return { input: ['-loop', '1', '-framerate', String(fps), '-i', source.file], inputs: 1, graph: `[${index}:v]${fit},${BT709},${end}` };
  }
  return {
    input: ['-ss', ((source.from ?? 0) + lead / fps).toFixed(3), '-i', source.clip],
    inputs: 1,
    graph: `[${index}:v]${fit},fps=${fps},${BT709},tpad=stop_mode=clone:stop_duration=${(frames / fps).toFixed(3)},${end}`,
  };
}

export const presenter: SceneKind<Presenter, PresenterScene> = {
  preparesInTurn: false,
  // One take: shots would restart the clip.
  shots: false,
  // The layout places the presenter; the hook picture and the end card stay the product's.
  opens: false,
  showsProduct: false,
  frameCost: (scene) => (scene.media.clip ? 2 : 1),
  prepare: async (scene, { motionFrames }) => ({
    kind: 'presenter',
    file: scene.media.file,
    clip: scene.media.clip,
    from: scene.media.from,
    face: scene.media.face,
    motion: 'none',
    motionFrames,
  }),
  // The captions and the hook's title keep off the face, the mouth above all.
  subject: async (scene) => {
    const { face } = scene.media;
    if (!face) return undefined;
    const box = aroundFace(face);
    return { left: box.x, top: box.y, right: box.x + box.w, bottom: box.y + box.h, head: true };
  },
  draw: (source, at) => drawPresenter(source, at),
};
