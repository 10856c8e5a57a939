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
import { type CameraMove, type CameraMoveKind, cameraMovesOf } from '../../imaging/cameraPrompt.js';
import { NEUTRAL_GRADE } from '../../imaging/grade.js';
import { saliencyBox } from '../../imaging/subject.js';
import { type RunOptions, runTool } from '../../run.js';
import { locateTools, type MediaTools } from '../../tools.js';
import { prepareStill, withMotionMargin } from '../stills.js';
import { cameraPath, croppedWindow, DEPTH_MOVES, even, type PlanePath, windowFilter } from './cameraPath.js';
import { depthSource, movesByContent, showsCutEdge } from './depthPlanes.js';

export type { CameraMove, CameraMoveKind, CameraSpeed } from '../../imaging/cameraPrompt.js';
export { cameraMovesOf } from '../../imaging/cameraPrompt.js';

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
    const size = withMotionMargin(frame);
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
