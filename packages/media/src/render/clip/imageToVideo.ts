/**
 * Image to video without a generative model: camera moves over the photo as it is, H.264 in an MP4 with the index
 * first, and a poster. The prompt chooses the moves (the contract's cameraPrompt.ts), several in a row; without a motion word the
 * picture does (a push-in on a centred subject, a pan along a wide frame, a parallax around a subject off centre).
 * Decision "Prompted camera moves".
 *
 * The photo is the clip: brought to the frame's shape about its subject (cropped, or carried outward from its own
 * background where no crop holds the subject), never cut out and stood on a set, and the zooms close in on its
 * subject. Decision "Image to video moves the photo".
 *
 * The camera is a window over the still, its size and place computed per frame to a fraction of a pixel with the
 * renderer's speed profile (`progressExpr`, decision "Smooth motion") and resampled by `perspective`, as the
 * renderer's zooms are: one path through several moves, each starting where the one before stopped. Moves with
 * depth (parallax, orbit, dolly), when depth is asked for, split the photo in two planes, the cut-out subject and
 * the photo behind it filled where the subject stood, each with its own window: the subject, nearer, moves more
 * than its background.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CameraMove, type CameraMoveKind, cameraMovesOf } from '@reelsmith/contract/camera-prompt';
import { subjectMask } from '../../imaging/cutout.js';
import { extendImage } from '../../imaging/extend.js';
import { openImage } from '../../imaging/open.js';
import { FRAMING_SIDE, findSubject, type ShareBox, saliencyBox } from '../../imaging/subject.js';
import { type RunOptions, runTool } from '../../run.js';
import { locateTools, type MediaTools } from '../../tools.js';
import { withMotionMargin } from '../stills.js';
import { cameraPath, croppedWindow, DEPTH_MOVES, even, type PlanePath, type Size, windowFilter } from './cameraPath.js';
import { depthSource, movesByContent, showsCutEdge } from './depthPlanes.js';

export type { CameraMove, CameraMoveKind, CameraSpeed } from '@reelsmith/contract/camera-prompt';
export { cameraMovesOf } from '@reelsmith/contract/camera-prompt';

export interface ImageToVideoOptions {
  seconds: 5 | 10;
  width: number;
  height: number;
  /** What the user asked for: its motion words choose the moves (the contract's cameraPrompt.ts). */
  prompt?: string | undefined;
  /** One move, instead of what the prompt or the picture would choose. */
  motion?: CameraMoveKind | undefined;
  /**
   * Whether the subject is a plane of its own in front of the photo for the depth moves (parallax, orbit, dolly):
   * a template that wants depth says so. Absent, only a parallax the prompt names ("parallax", "3D", "depth",
   * "视差", "profundidade"…) or `motion` asks for has it; other depth moves are made flat.
   */
  depth?: boolean | undefined;
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

/** The photo's subject (the cut-out model's box at framing's size, else the saliency map's), as shares of the photo. */
async function photoSubject(input: string, size: Size): Promise<ShareBox> {
  return (await findSubject(input, size, await subjectMask(input, { side: FRAMING_SIDE }))).box;
}

/** The room kept about the subject when the photo is cropped: a share of the crop's length on each side. */
const ROOM = 0.04;
/** The room about a subject no crop holds, carried outward to the frame's shape: a share of its span's length. */
const CARRIED_ROOM = 0.08;

/**
 * The photo brought to the still's size (`size`, the frame's shape), about its subject: the largest crop of that
 * shape, centred on the subject as far as the photo allows, when it holds the subject with a little room; else
 * the subject's span with that room, carried outward to the frame's shape from the photo's own background
 * (extend.ts, the image tool's extension). Answers the subject's box in the still (shares).
 */
async function photoStill(input: string, photo: Size, subject: ShareBox, size: Size, work: string, out: string): Promise<ShareBox> {
  const ratio = size.width / size.height;
  const wide = photo.width / photo.height > ratio;
  const axis = wide
    ? { length: photo.width, low: subject.left, high: subject.right }
    : { length: photo.height, low: subject.top, high: subject.bottom };
  const cropLength = Math.min(axis.length, Math.round(wide ? photo.height * ratio : photo.width / ratio));
  const [low, high] = [axis.low * axis.length, axis.high * axis.length];
  const room = cropLength * ROOM;
  // A side of the subject the photo already cuts needs no room.
  const need = high - low + (axis.low > 0.01 ? room : 0) + (axis.high < 0.99 ? room : 0);
  const place = (length: number) => Math.round(Math.min(Math.max((low + high) / 2 - length / 2, 0), Math.max(0, axis.length - length)));
  if (need <= cropLength + 0.5) {
    const start = place(cropLength);
    const region = wide
      ? { left: start, top: 0, width: cropLength, height: photo.height }
      : { left: 0, top: start, width: photo.width, height: cropLength };
    await openImage(input)
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .extract(region)
      .resize(size.width, size.height, { fit: 'fill' })
      .jpeg({ quality: 92 })
      .toFile(out);
    const across = (share: number) => Math.min(1, Math.max(0, (share * photo.width - region.left) / region.width));
    const down = (share: number) => Math.min(1, Math.max(0, (share * photo.height - region.top) / region.height));
    return { left: across(subject.left), top: down(subject.top), right: across(subject.right), bottom: down(subject.bottom) };
  }
  // Carried outward, the subject gets more room: it fills the frame across, and a zoom in closing on it (a slow
  // one by 1.15) cut it at both sides with 4 % (seen on a mug in a tall frame). The span is brought to the still's
  // size first, so the extension works at the still's size, not the photo's.
  const length = Math.min(axis.length, Math.ceil((high - low) / (1 - 2 * CARRIED_ROOM)));
  const start = place(length);
  const region = wide
    ? { left: start, top: 0, width: length, height: photo.height }
    : { left: 0, top: start, width: photo.width, height: length };
  const k = wide ? size.width / region.width : size.height / region.height;
  const scaled = {
    width: wide ? size.width : Math.min(size.width, Math.round(region.width * k)),
    height: wide ? Math.min(size.height, Math.round(region.height * k)) : size.height,
  };
  const canvas = {
    ...size,
    left: Math.floor((size.width - scaled.width) / 2),
    top: Math.floor((size.height - scaled.height) / 2),
  };
  const part = join(work, 'span.png');
  await openImage(input)
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .extract(region)
    .resize(scaled.width, scaled.height, { fit: 'fill' })
    .png({ compressionLevel: 1 })
    .toFile(part);
  await extendImage(part, canvas, out);
  const across = (share: number) => Math.min(1, Math.max(0, ((share * photo.width - region.left) * k + canvas.left) / size.width));
  const down = (share: number) => Math.min(1, Math.max(0, ((share * photo.height - region.top) * k + canvas.top) / size.height));
  return { left: across(subject.left), top: down(subject.top), right: across(subject.right), bottom: down(subject.bottom) };
}

/**
 * The moves a clip makes, and whether they are made with depth: the one asked for, else the prompt's, else the
 * picture's, chosen from where its salient part is (no model). Depth only when asked for (`depth`), or when the
 * move asked for or the prompt is a parallax: the moves the picture chooses are made flat.
 */
async function chooseMoves(options: ImageToVideoOptions, still: string, frame: Size): Promise<{ moves: CameraMove[]; depth: boolean }> {
  const asked = options.motion ? [{ kind: options.motion, speed: 'normal' } as CameraMove] : cameraMovesOf(options.prompt);
  const depth = options.depth ?? asked.some((m) => m.kind === 'parallax');
  if (asked.length > 0) return { moves: asked, depth };
  return { moves: movesByContent(frame, await saliencyBox(still)), depth };
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
    const size = withMotionMargin(frame);
    const { autoOrient } = await openImage(input).metadata();
    const photo = { width: autoOrient.width, height: autoOrient.height };
    const still = join(work, 'still.jpg');
    const box = await photoStill(input, photo, await photoSubject(input, photo), size, work, still);
    const focus = {
      x: ((box.left + box.right) / 2 - 0.5) * size.width,
      y: ((box.top + box.bottom) / 2 - 0.5) * size.height,
    };
    const { moves, depth: wantsDepth } = await chooseMoves(options, still, frame);
    const depth = wantsDepth && moves.some((m) => DEPTH_MOVES.includes(m.kind)) ? await depthSource(still, size) : null;
    let keys = cameraPath(moves, options.seconds, size, frame, depth !== null, focus);
    const separate = depth !== null && !showsCutEdge(keys, depth.cut, size, frame);
    if (depth && !separate) keys = cameraPath(moves, options.seconds, size, frame, false, focus);
    // Each still is decoded once and its frame repeated (`loop`), never re-read per frame.
    const repeated = (index: number, format: string) =>
      `[${index}:v]format=${format},loop=loop=${frames - 1}:size=1:start=0,setpts=N/${fps}/TB`;
    const pathOf = (plane: 'back' | 'front'): PlanePath => ({ views: keys.map((k) => k[plane]), frames, fps, still: size, frame });
    let stills: string[];
    let graph: string[];
    if (depth && separate) {
      // The background plane is kept at the frame's size, not the still's: `perspective` works (and computes its
      // map) over its whole input each frame, and a background seen behind a nearer subject loses nothing a
      // viewer would miss at the frame's own resolution. Its offsets scale with it; zooms are shares, unchanged.
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
