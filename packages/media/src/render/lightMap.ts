/**
 * What stands behind the cards (decision "Readable cards"): a coarse map of a scene's still, per cell of the frame
 * the lightest and the darkest relative luminance any window of the still's move shows there. The cards choose
 * their backing from it; it is read from the still the render uses anyway, so it costs no pass over the video.
 */
import sharp from 'sharp';
import { luminanceOf } from '../imaging/contrast.js';
import { FPS } from './render.js';
import type { PrepareContext } from './scene/kind.js';
import { kindOf } from './scene/kinds.js';
import type { TimelineScene } from './scene/types.js';
import { withMotionMargin } from './stills.js';

/** Cells of a frame: `columns` × `rows`, row by row, each the lightest and darkest luminance seen in it. */
export interface LightMap {
  columns: number;
  rows: number;
  light: Float32Array;
  dark: Float32Array;
}

/** Cells across the frame's short side: about 14 px at 540p, finer than a card's smallest letters. */
const CELLS = 40;

/** The luminance of each 8-bit value of a grey, to read a picture by table. */
const LUMINANCE = Float32Array.from({ length: 256 }, (_, v) => luminanceOf([v, v, v]));

/**
 * The light map of a `frame` showing `still` (the frame with its motion margin, or longer for a pan along it): a
 * frame pixel at x shows a still pixel between x and x plus the still's extra width whatever the move (a pan, or a
 * push-in from the whole still to its middle), and likewise down.
 */
export async function stillLightMap(still: string, frame: { width: number; height: number }): Promise<LightMap> {
  const { data, info } = await sharp(still).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const cell = Math.min(frame.width, frame.height) / CELLS;
  const columns = Math.ceil(frame.width / cell);
  const rows = Math.ceil(frame.height / cell);
  // The still in blocks of a cell's size first, each its lightest and darkest pixel.
  const bw = Math.ceil(info.width / cell);
  const bh = Math.ceil(info.height / cell);
  const blockLight = new Float32Array(bw * bh);
  const blockDark = new Float32Array(bw * bh).fill(1);
  for (let y = 0; y < info.height; y++) {
    const row = Math.floor(y / cell) * bw;
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      const r = LUMINANCE[data[i] as number] as number;
      const g = LUMINANCE[data[i + 1] as number] as number;
      const b = LUMINANCE[data[i + 2] as number] as number;
      // The channels' luminances weighed as WCAG weighs them: the table is of greys, whose channels are equal.
      const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      const k = row + Math.floor(x / cell);
      if (l > (blockLight[k] as number)) blockLight[k] = l;
      if (l < (blockDark[k] as number)) blockDark[k] = l;
    }
  }
  const extraX = Math.max(0, info.width - frame.width);
  const extraY = Math.max(0, info.height - frame.height);
  const light = new Float32Array(columns * rows);
  const dark = new Float32Array(columns * rows).fill(1);
  for (let cy = 0; cy < rows; cy++) {
    const [y0, y1] = [cy, Math.min(bh - 1, Math.floor(((cy + 1) * cell + extraY - 1) / cell))];
    for (let cx = 0; cx < columns; cx++) {
      const [x0, x1] = [cx, Math.min(bw - 1, Math.floor(((cx + 1) * cell + extraX - 1) / cell))];
      const k = cy * columns + cx;
      for (let by = y0; by <= y1; by++) {
        for (let bx = x0; bx <= x1; bx++) {
          const b = by * bw + bx;
          if ((blockLight[b] as number) > (light[k] as number)) light[k] = blockLight[b] as number;
          if ((blockDark[b] as number) < (dark[k] as number)) dark[k] = blockDark[b] as number;
        }
      }
    }
  }
  return { columns, rows, light, dark };
}

/**
 * The light map of a scene in a `frame`, from the still it shows (made now or found in the cache, where the render
 * then finds it); undefined for a kind that holds no still (a clip, a presenter), whose cards assume any picture.
 */
export async function sceneLightMap(
  scene: TimelineScene,
  context: Omit<PrepareContext, 'frame' | 'stillSize' | 'motionFrames'> & { frame: { width: number; height: number } },
  read: Map<string, Promise<LightMap>> = new Map(),
): Promise<LightMap | undefined> {
  const kind = kindOf(scene.media);
  if (!kind.picture) return undefined;
  const frame = { ...context.frame, fps: FPS };
  const still = await kind.picture(scene as never, { ...context, frame, stillSize: withMotionMargin(frame), motionFrames: 0 });
  // A photo shown in several scenes is one still: read once (`read` is the ad's, by still).
  let map = read.get(still);
  if (!map) {
    map = stillLightMap(still, frame);
    read.set(still, map);
  }
  return map;
}
