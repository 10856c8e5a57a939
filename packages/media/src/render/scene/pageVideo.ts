/**
 * A clip from the product page: cropped to the frame's shape about its subjects (videoFraming.ts), played from
 * where its scene's fade-in left it, looped when shorter than its slot. It holds its own motion, so the camera
 * does not move over it, and it is never cut into shots (each would restart it).
 */
import { BT709 } from '../filters.js';
import { videoFocus } from '../videoFraming.js';
import type { DrawAt, PreparedScene, SceneDrawing, SceneKind } from './kind.js';
import type { TimelineMedia } from './types.js';

type Clip = Extract<TimelineMedia, { kind: 'video' }>;

/** A clip made ready: where it is cropped to the frame's shape, about its subject; the middle when absent. */
export interface ClipScene extends PreparedScene {
  kind: 'video';
  focus?: { x: number; y: number } | undefined;
}

/** Frames past the slot are never decoded (-frames on the output); a clip shorter than its slot loops. */
function draw(source: ClipScene, { index, lead, frames, frame, output }: DrawAt): SceneDrawing {
  const { width: w, height: h, fps } = frame;
  const skip = lead / fps;
  const focus = source.focus ?? { x: 0.5, y: 0.5 };
  return {
    input: ['-stream_loop', '-1', '-ss', skip.toFixed(3), '-i', source.file],
    inputs: 1,
    graph: `[${index}:v]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h}:'(iw-ow)*${focus.x.toFixed(4)}':'(ih-oh)*${focus.y.toFixed(4)}',setsar=1,fps=${fps},${BT709},trim=end_frame=${frames},setpts=N/${fps}/TB${output}`,
  };
}

export const pageVideo: SceneKind<Clip, ClipScene> = {
  // Its subjects are found on a few frames beside the stills being made.
  preparesInTurn: false,
  shots: false,
  opens: false,
  showsProduct: true,
  // Decoding and scaling a clip's every frame costs about twice a still's.
  frameCost: () => 2,
  prepare: async (scene, { frame, motionFrames, cacheDir, tools }) => ({
    kind: 'video',
    file: scene.media.file,
    motion: scene.motion,
    motionFrames,
    focus: await videoFocus(scene.media.file, scene.media.seconds, frame.width / frame.height, cacheDir, tools),
  }),
  // The captions keep to their usual place over a clip: its subject moves.
  subject: async () => undefined,
  draw,
};
