import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool } from '../run.js';
import { writeWav } from '../speech/wav.js';
import { locateTools, type MediaTools } from '../tools.js';
import { composeLoop } from './compose.js';
import { musicComposition } from './tracks.js';

/** Bumped when the compositions change, so caches made by an older version are not reused. */
const LOOP_VERSION = 1;
const FADE_IN = 0.5;
const FADE_OUT = 1.5;

/**
 * The loop of a track, composed on first use into `cacheDir` and reused after: written under a temporary
 * name and renamed, so two workers making it at once never read half a file.
 */
export async function musicLoop(musicId: string, cacheDir: string): Promise<string> {
  const file = join(cacheDir, `music-${musicId}-v${LOOP_VERSION}.wav`);
  if (existsSync(file)) return file;
  const composition = musicComposition(musicId);
  await mkdir(cacheDir, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.part`;
  await writeFile(partial, writeWav(composeLoop(composition)));
  await rename(partial, file);
  return file;
}

/** A music bed exactly `seconds` long (16-bit stereo WAV, 44.1 kHz): the loop repeated, faded in and out. */
export async function musicBed(
  musicId: string,
  seconds: number,
  outFile: string,
  cacheDir: string,
  tools: MediaTools = locateTools(),
): Promise<string> {
  if (!(seconds > 0)) throw new RangeError('a music bed needs a length');
  const loop = await musicLoop(musicId, cacheDir);
  const fadeOut = Math.min(FADE_OUT, seconds / 3);
  await runTool(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-stream_loop', '-1', '-i', loop],
    // A touch of echo gives the dry synthesis some room; fades so the ad does not start or stop on a hard edge.
    ...[
      '-af',
      `aecho=0.8:0.6:90|170:0.25|0.15,afade=t=in:d=${Math.min(FADE_IN, seconds / 3)},afade=t=out:st=${seconds - fadeOut}:d=${fadeOut}`,
    ],
    ...['-t', String(seconds), '-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le', outFile],
  ]);
  return outFile;
}
