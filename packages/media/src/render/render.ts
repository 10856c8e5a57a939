/**
 * Renders a planned timeline to an MP4: H.264 + AAC, yuv420p, 25 fps, faststart, with burnt-in subtitles and
 * a poster. The video is made as independent pieces (one per scene) run a core each, so all cores encode,
 * then joined without re-encoding and muxed with the audio, which was encoded once beside them. Measured
 * choices and figures: the decisions "Plan then render" to "Render costs".
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrandLook, DEFAULT_BRAND } from '../brand/look.js';
import { posterFrame } from '../poster.js';
import { type RunOptions, runTool } from '../run.js';
import { locateTools, type MediaTools } from '../tools.js';
import { trimHeaderDurations } from './movieDuration.js';
import { type Encoding, type PieceJob, pieceArgs } from './piece.js';
import { runAll } from './pool.js';
import { kindOf, prepareScene, type SceneSource } from './scene/kinds.js';
import type { Frame } from './scene/types.js';
import { withMotionMargin } from './stills.js';
import { frameSize, type Timeline } from './timeline.js';

export type RenderQuality = 'preview' | 'export';

export interface RenderOptions {
  /**
   * The mixed soundtrack (voice + ducked music), WAV or AAC; padded with silence or cut to the timeline. It may
   * still be mixing: only the audio's encode, after the pieces, waits for it.
   */
  audio: string | Promise<string>;
  /** ASS subtitles timed on the whole video; none means no captions. */
  ass?: string | undefined;
  /** Fonts libass may use beyond the system's (e.g. a CJK font). */
  fontsDir?: string | undefined;
  quality: RenderQuality;
  outFile: string;
  /** Where to write a PNG poster frame, if wanted. */
  posterFile?: string | undefined;
  /** Where pre-scaled stills are kept between renders (default: a directory under the system temp dir). */
  cacheDir?: string | undefined;
  /** The brand the template is coloured by, and whose logo the end card carries; absent, the default look. */
  brand?: BrandLook | undefined;
  /** Tags written into the file's metadata (e.g. the "AI-generated" label: decision "AI-generated label"). */
  metadata?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  /** ffmpeg and ffprobe; located as `locateTools()` does when not given. */
  tools?: MediaTools | undefined;
}

export interface RenderedVideo {
  outFile: string;
  posterFile?: string | undefined;
  width: number;
  height: number;
  seconds: number;
}

/** 25 fps rather than 30: a sixth fewer frames to encode, and slow camera moves look just as smooth. */
export const FPS = 25;

/**
 * Previews are 540p and exports 1080p. veryfast is x264's best size for the time here (faster costs twice the
 * CPU for a few percent; superfast doubles the file); previews accept a higher CRF since they are watched small.
 */
const QUALITY: Record<RenderQuality, { shortSide: number; crf: number }> = {
  preview: { shortSide: 540, crf: 26 },
  export: { shortSide: 1080, crf: 23 },
};
const PRESET = 'veryfast';

/** The short side of a render of `quality`, in pixels: what the captions and cards are laid out for. */
export const shortSideOf = (quality: RenderQuality) => QUALITY[quality].shortSide;

const frameAt = (seconds: number) => Math.round(seconds * FPS);

export async function renderVideo(timeline: Timeline, options: RenderOptions): Promise<RenderedVideo> {
  const tools = options.tools ?? locateTools();
  const { shortSide, crf } = QUALITY[options.quality];
  const { width, height } = frameSize(timeline.aspectRatio, shortSide);
  const frame: Frame = { width, height, fps: FPS };
  const stillSize = withMotionMargin(frame);
  const cacheDir = options.cacheDir ?? join(tmpdir(), 'reelsmith-stills');
  const template = timeline.look;
  const brand = options.brand ?? DEFAULT_BRAND;
  const run: RunOptions = { timeoutMs: 10 * 60_000, signal: options.signal };
  const work = await mkdtemp(join(tmpdir(), 'reelsmith-render-'));
  try {
    const transitionFrames = frameAt(timeline.transition);
    const ass = options.ass ? { file: options.ass, fontsDir: options.fontsDir } : undefined;
    // Each piece's frames, frame-exact, so the pieces add up to the timeline's length with no drift.
    const frames = timeline.scenes.map((scene, i) => {
      const next = timeline.scenes[i + 1];
      return (next ? frameAt(next.start) : frameAt(timeline.seconds)) - frameAt(scene.start);
    });
    // A piece's weight is its CPU: its frames and the next scene's fading in, each at its kind's cost, so the
    // pool starts the zooms first instead of leaving one to run alone on one core at the end.
    const cost = (scene: Timeline['scenes'][number]) => kindOf(scene.media).frameCost(scene);
    const weights = timeline.scenes.map((scene, i) => {
      const next = timeline.scenes[i + 1];
      return (frames[i] as number) * cost(scene) + (next ? transitionFrames * cost(next) : 0);
    });
    // Pieces start as soon as their two scenes are ready instead of after all of them: scenes whose kind runs the
    // subject model are made here one at a time (it runs on one thread), in the order the pool takes the pieces
    // (heaviest first), while the other core already encodes. A 15 s export's stills took about 2 s of one core
    // before any piece.
    const order = timeline.scenes.map((_, i) => i).sort((a, b) => (weights[b] as number) - (weights[a] as number));
    const sourceOf = new Map<number, Promise<SceneSource>>();
    let making: Promise<unknown> = Promise.resolve();
    const source = (i: number): Promise<SceneSource> => {
      let made = sourceOf.get(i);
      if (!made) {
        const scene = timeline.scenes[i] as Timeline['scenes'][number];
        const context = {
          frame,
          stillSize,
          motionFrames: (i === 0 ? 0 : transitionFrames) + (frames[i] as number),
          aspectRatio: timeline.aspectRatio,
          look: template,
          brand,
          cacheDir,
          tools,
        };
        if (kindOf(scene.media).preparesInTurn) {
          made = making.catch(() => undefined).then(() => prepareScene(scene, context));
          making = made;
        } else made = prepareScene(scene, context);
        sourceOf.set(i, made);
      }
      return made;
    };
    for (const i of order) {
      source(i).catch(() => undefined);
      if (i + 1 < timeline.scenes.length) source(i + 1).catch(() => undefined);
    }
    const job = async (i: number): Promise<PieceJob> => {
      const next = timeline.scenes[i + 1];
      const firstFrame = frameAt((timeline.scenes[i] as Timeline['scenes'][number]).start);
      return {
        scene: await source(i),
        leadFrames: i === 0 ? 0 : transitionFrames,
        frames: frames[i] as number,
        next: next ? await source(i + 1) : undefined,
        transitionFrames: next ? transitionFrames : 0,
        transitionKind: timeline.transitionKind,
        firstFrame,
        ass,
      };
    };
    // As many pieces at once as there are cores, each with one x264 thread: separate encoders spend less CPU on
    // the same frames than threads inside one (about a tenth less here).
    const cores = availableParallelism();
    const encoding: Encoding = { preset: PRESET, crf, threads: 1 };
    const pieceFiles = timeline.scenes.map((_, i) => join(work, `piece-${i}.mp4`));
    const audioFile = join(work, 'audio.m4a');
    const renderPiece = async (i: number) =>
      runTool(tools.ffmpeg, pieceArgs(await job(i), frame, stillSize, encoding, pieceFiles[i] as string), run);
    const { posterFile } = options;
    const tasks = [
      ...timeline.scenes.map((_, i) => ({
        weight: weights[i] as number,
        // The poster comes from the first piece (the hook) while other pieces still encode.
        run:
          i === 0 && posterFile
            ? () =>
                renderPiece(0).then(() =>
                  posterFrame(tools, pieceFiles[0] as string, posterFile, Math.min(1, (frames[0] as number) / FPS / 2), run),
                )
            : () => renderPiece(i),
      })),
      { weight: 0, run: async () => encodeAudio(tools, await options.audio, timeline.seconds, audioFile, run) },
    ];
    await runAll(tasks, cores);
    await joinPieces(tools, pieceFiles, audioFile, timeline.seconds, options.outFile, work, run, options.metadata ?? {});
    return { outFile: options.outFile, posterFile: options.posterFile, width, height, seconds: timeline.seconds };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * AAC at 128 kb/s stereo, exactly `seconds` long: a short soundtrack is padded with silence. The "fast" coder
 * takes half the CPU of the default "twoloop" at the same size, and the sample rate is kept (no resampling).
 */
function encodeAudio(tools: MediaTools, audio: string, seconds: number, out: string, run: RunOptions) {
  return runTool(
    tools.ffmpeg,
    [
      '-v',
      'error',
      '-y',
      '-i',
      audio,
      '-vn',
      '-af',
      'apad',
      '-t',
      String(seconds),
      '-c:a',
      'aac',
      '-aac_coder',
      'fast',
      '-b:a',
      '128k',
      '-ac',
      '2',
      out,
    ],
    run,
  );
}

/** Joins the pieces with the concat demuxer (no re-encode) and adds the audio, index first for streaming. */
async function joinPieces(
  tools: MediaTools,
  pieceFiles: string[],
  audioFile: string,
  seconds: number,
  out: string,
  work: string,
  run: RunOptions,
  metadata: Record<string, string>,
) {
  const list = join(work, 'pieces.txt');
  await writeFile(list, pieceFiles.map((f) => `file '${f.replaceAll("'", "'\\''")}'\n`).join(''));
  await runTool(
    tools.ffmpeg,
    [
      '-v',
      'error',
      '-y',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      '-i',
      audioFile,
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-c',
      'copy',
      '-t',
      String(seconds),
      ...Object.entries(metadata).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]),
      // use_metadata_tags keeps tags the MP4 muxer has no atom for (a custom key) instead of dropping them.
      // write_colr puts BT.709 in the sample description's colr box as well as in the H.264 stream: 5.1 writes it
      // anyway, the npm ffmpeg 4.1 only when asked (decisions "BT.709 exports", "Both ffmpeg builds").
      '-movflags',
      '+faststart+use_metadata_tags+write_colr',
      out,
    ],
    run,
  );
  // The npm ffmpeg's headers count AAC's priming in the file's length; 5.1's already agree (decision "Both ffmpeg builds").
  await trimHeaderDurations(out);
}
