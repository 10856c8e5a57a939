/**
 * Image to video without a generative model: a camera move over the still, H.264 in an MP4 with the index
 * first, and a poster. Zooms and pans reuse the renderer's motion filters on a still scaled once with sharp
 * (render/stills.ts); "parallax" splits the frame into two layers that move against each other: the picture,
 * fitted whole, drifting one way over a blurred, enlarged copy of itself panning the other way.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { posterFrame } from '../poster.js';
import { motionFilter } from '../render/piece.js';
import { MOTION_MARGIN, prepareStill } from '../render/stills.js';
import type { Motion } from '../render/timeline.js';
import { type RunOptions, runTool } from '../run.js';
import { NEUTRAL_GRADE } from '../templates/catalogue.js';
import { locateTools, type MediaTools } from '../tools.js';
import { openImage } from './open.js';

export type CameraMotion = Exclude<Motion, 'none'> | 'parallax';
export const CAMERA_MOTIONS: readonly CameraMotion[] = ['zoom-in', 'zoom-out', 'pan-left', 'pan-right', 'pan-up', 'pan-down', 'parallax'];

export interface ImageToVideoOptions {
  seconds: 5 | 10;
  width: number;
  height: number;
  /** The camera move; parallax when absent. */
  motion?: CameraMotion | undefined;
  /** Where to write the PNG poster; beside `out` (…poster.png) when absent. */
  posterFile?: string | undefined;
  tools?: MediaTools | undefined;
  signal?: AbortSignal | undefined;
}

const FPS = 25;
/** Exports' quality (render.ts): these are finished videos, not previews. */
const CRF = 23;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The two layers of the parallax move: a blurred backdrop larger than the frame, and the picture fitted within it. */
async function parallaxLayers(input: string, width: number, height: number, dir: string) {
  const backdrop = join(dir, 'backdrop.jpg');
  const subject = join(dir, 'subject.png');
  const margin = 1.2;
  await openImage(input)
    .removeAlpha()
    .resize(even(width * margin), even(height * margin), { fit: 'cover' })
    .blur(Math.max(width, height) / 60)
    .modulate({ brightness: 0.8 })
    .jpeg({ quality: 88 })
    .toFile(backdrop);
  // The picture takes 88 % of the frame, so its drift never reaches the frame's edge.
  const fitted = await openImage(input)
    .resize(even(width * 0.88), even(height * 0.88), { fit: 'inside' })
    .png()
    .toFile(subject);
  return { backdrop, subject, subjectSize: { width: fitted.width, height: fitted.height }, margin };
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
    String(FPS),
    '-an',
    '-movflags',
    '+faststart',
    out,
  ];
}

export async function imageToVideo(
  input: string,
  options: ImageToVideoOptions,
  out: string,
): Promise<{ outFile: string; posterFile: string; width: number; height: number; seconds: number }> {
  const tools = options.tools ?? locateTools();
  const width = even(options.width);
  const height = even(options.height);
  const frames = options.seconds * FPS;
  const motion = options.motion ?? 'parallax';
  const run: RunOptions = { timeoutMs: 5 * 60_000, signal: options.signal };
  const threads = 2;
  const work = await mkdtemp(join(tmpdir(), 'reelsmith-motion-'));
  try {
    let stills: string[];
    let graph: string[];
    // Each still is decoded once and its frame repeated (`loop`), never re-read per frame.
    const repeated = (index: number, format: string) =>
      `[${index}:v]format=${format},loop=loop=${frames - 1}:size=1:start=0,setpts=N/${FPS}/TB`;
    if (motion === 'parallax') {
      const { backdrop, subject, subjectSize, margin } = await parallaxLayers(input, width, height, work);
      const dx = even(width * (margin - 1));
      const dy = even(height * (margin - 1));
      // Eased in and out, so the move starts and ends gently.
      const e = `(0.5-0.5*cos(PI*n/${frames - 1}))`;
      const drift = Math.round(width * 0.04);
      const bx = (width - subjectSize.width) / 2;
      const by = (height - subjectSize.height) / 2;
      stills = [backdrop, subject];
      graph = [
        `${repeated(0, 'yuv420p')},crop=${width}:${height}:x='${dx}*(1-${e})':y='${dy / 2}',setsar=1[bg]`,
        `${repeated(1, 'yuva420p')}[fg]`,
        `[bg][fg]overlay=x='${bx - drift}+${2 * drift}*${e}':y='${by}-${Math.round(height * 0.01)}*${e}':eval=frame:format=yuv420,format=yuv420p[v]`,
      ];
    } else {
      const cacheDir = join(work, 'stills');
      await mkdir(cacheDir);
      const still = await prepareStill(input, width, height, cacheDir, { grade: NEUTRAL_GRADE });
      const stillSize = { width: even(width * MOTION_MARGIN), height: even(height * MOTION_MARGIN) };
      const filter = motionFilter({ kind: 'image', file: still, motion, motionFrames: frames }, 0, { width, height, fps: FPS }, stillSize);
      stills = [still];
      graph = [`${repeated(0, 'yuv420p')},${filter},setsar=1,format=yuv420p[v]`];
    }
    const args = [
      '-v',
      'error',
      '-y',
      '-filter_complex_threads',
      '1',
      ...stills.flatMap((still) => ['-framerate', String(FPS), '-i', still]),
      '-filter_complex',
      graph.join(';'),
      '-map',
      '[v]',
      '-frames:v',
      String(frames),
      ...x264(out, threads),
    ];
    await runTool(tools.ffmpeg, args, run);
    const posterFile = options.posterFile ?? out.replace(/(\.\w+)?$/, '.poster.png');
    await posterFrame(tools, out, posterFile, 0, run);
    return { outFile: out, posterFile, width, height, seconds: options.seconds };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
