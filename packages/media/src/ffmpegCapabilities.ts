/**
 * Whether an ffmpeg build has what the media engine asks of it (decision "Both ffmpeg builds"): the filters and
 * encoders it names, looked up in the program's own lists rather than guessed from its version, and whether the
 * ffprobe beside it runs. Meant for a server's start-up check: a build without libass or libx264 then says so once,
 * by name, instead of failing every render later.
 */
import { runTool } from './run.js';
import type { MediaTools } from './tools.js';

/** The filters the engine uses, by where (the music synthesiser's own processing aside). */
export const REQUIRED_FILTERS = [
  // The ad renderer's pieces (render/piece.ts): stills, moves, hand-overs, BT.709, captions.
  'scale',
  'format',
  'setparams',
  'setsar',
  'loop',
  'setpts',
  'perspective',
  'crop',
  'split',
  'convolution',
  'hstack',
  'vstack',
  'overlay',
  'fade',
  'gblur',
  'concat',
  'trim',
  'fps',
  // Burnt-in captions and cards; both exist only in a build with libass.
  'ass',
  'subtitles',
  // The soundtrack (render/render.ts, music/mix.ts, music/loudness.ts) and the local voice (speech/polish.ts, speech/fit.ts).
  'apad',
  'aformat',
  'aresample',
  'atrim',
  'asplit',
  'amix',
  'volume',
  'acompressor',
  'sidechaincompress',
  'alimiter',
  'ebur128',
  'highpass',
  'lowpass',
  'equalizer',
  'atempo',
  // The caption preview's backdrop (captions/frame.ts) and the template thumbnail's frame pick (templates/thumbnail.ts).
  'color',
  'select',
] as const;

/** The encoders: x264 and AAC for videos, PNG and JPEG for posters and thumbnails, PCM for the work files. */
export const REQUIRED_ENCODERS = ['libx264', 'aac', 'png', 'mjpeg', 'pcm_s16le', 'pcm_f32le'] as const;

export interface FfmpegCheck {
  ok: boolean;
  /** What is missing, one entry each: "filter ass", "encoder libx264", "soxr resampler", "ffprobe: <why>". */
  missing: string[];
}

/** The names in ffmpeg's `-filters` listing: a line is flags (three characters), the name, then `in->out`. */
export function listedFilters(listing: string): Set<string> {
  return new Set([...listing.matchAll(/^ [A-Z.|]{3} (\w\S*)\s+\S*->\S*/gm)].map((m) => m[1] as string));
}

/** The names in ffmpeg's `-encoders` listing: a line is six flag characters (V, A or S first), then the name (the legend's lines have `=`). */
export function listedEncoders(listing: string): Set<string> {
  return new Set([...listing.matchAll(/^ [VAS][A-Z.]{5} (\w\S*)/gm)].map((m) => m[1] as string));
}

const reason = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

async function check(tools: MediaTools): Promise<FfmpegCheck> {
  const [filters, encoders, soxr, ffprobe] = await Promise.allSettled([
    runTool(tools.ffmpeg, ['-hide_banner', '-filters']),
    runTool(tools.ffmpeg, ['-hide_banner', '-encoders']),
    // The local voice resamples with soxr (speech/polish.ts), a library option of aresample that no listing shows:
    // a twentieth of a second of silence through it says whether the build has it.
    runTool(tools.ffmpeg, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'anullsrc',
      '-t',
      '0.05',
      '-af',
      'aresample=48000:resampler=soxr',
      '-f',
      'null',
      '-',
    ]),
    runTool(tools.ffprobe, ['-v', 'error', '-version']),
  ]);
  const missing: string[] = [];
  if (filters.status === 'rejected') missing.push(`ffmpeg: ${reason(filters.reason)}`);
  else {
    const have = listedFilters(filters.value);
    missing.push(...REQUIRED_FILTERS.filter((name) => !have.has(name)).map((name) => `filter ${name}`));
  }
  if (encoders.status === 'fulfilled') {
    const have = listedEncoders(encoders.value);
    missing.push(...REQUIRED_ENCODERS.filter((name) => !have.has(name)).map((name) => `encoder ${name}`));
  } else if (filters.status === 'fulfilled') {
    missing.push(`ffmpeg -encoders: ${reason(encoders.reason)}`);
  }
  // Said only of an ffmpeg that runs: a program that cannot start is already reported above.
  if (soxr.status === 'rejected' && filters.status === 'fulfilled') missing.push('soxr resampler');
  if (ffprobe.status === 'rejected') missing.push(`ffprobe: ${reason(ffprobe.reason)}`);
  return { ok: missing.length === 0, missing };
}

const checks = new Map<string, Promise<FfmpegCheck>>();

/**
 * Checks a pair of programs once per process (the answer is cached by their paths): whether ffmpeg has every
 * filter and encoder the engine uses and ffprobe runs. Never throws; a program that cannot start is reported in
 * `missing`.
 */
export function checkFfmpeg(tools: MediaTools): Promise<FfmpegCheck> {
  const key = `${tools.ffmpeg}\n${tools.ffprobe}`;
  let answer = checks.get(key);
  if (!answer) {
    answer = check(tools);
    checks.set(key, answer);
  }
  return answer;
}
