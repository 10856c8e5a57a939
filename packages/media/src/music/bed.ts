import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool } from '../run.js';
import { readWav, writeWav } from '../speech/wav.js';
import { locateTools, type MediaTools } from '../tools.js';
import { loopSamples, MUSIC_RATE } from './beats.js';
import { measureLoudness } from './loudness.js';
import { scoreMidi } from './score.js';
import { renderMidi } from './synth.js';
import { musicComposition } from './tracks.js';

/**
 * Bumped when the compositions or their rendering change, so caches made by an older version (loops here, the
 * catalogue's audition samples) are not reused.
 */
export const MUSIC_VERSION = 4;
/** Every loop is levelled to this loudness, so the tracks sound alike in loudness and the mix balances them the same. */
export const LOOP_LUFS = -18;
/** The loop's sample peak stays under this (-1 dBFS), whatever its loudness asks for. */
const LOOP_PEAK = 0.89;
const FADE_IN = 0.5;
const FADE_OUT = 1.5;

/**
 * One seamless loop from a rendering that runs past it: what rings on after the loop's end (reverb, held notes)
 * is added onto its start, where it would sound when the loop repeats.
 */
function foldLoop(rendered: Int16Array, length: number): Float32Array {
  const loop = new Float32Array(length);
  for (let i = 0; i < rendered.length; i++) loop[i % length] = (loop[i % length] as number) + (rendered[i] as number) / 32_768;
  return loop;
}

const toPcm = (loop: Float32Array, scale: number) => Int16Array.from(loop, (v) => Math.round(v * scale * 32_767));

/**
 * The loop of a track, rendered on first use into `cacheDir` and reused after: its MIDI is rendered by FluidSynth,
 * folded into a seamless loop and levelled to LOOP_LUFS; written under a temporary name and renamed, so two
 * workers making it at once never read half a file.
 */
export async function musicLoop(musicId: string, cacheDir: string, tools: MediaTools = locateTools()): Promise<string> {
  const file = join(cacheDir, `music-${musicId}-v${MUSIC_VERSION}.wav`);
  if (existsSync(file)) return file;
  const composition = musicComposition(musicId);
  await mkdir(cacheDir, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.part`;
  try {
    await writeFile(`${partial}.mid`, scoreMidi(composition));
    await renderMidi(`${partial}.mid`, `${partial}.render.wav`);
    const rendered = readWav(await readFile(`${partial}.render.wav`));
    if (rendered.sampleRate !== MUSIC_RATE) throw new Error(`fluidsynth rendered at ${rendered.sampleRate} Hz, not ${MUSIC_RATE}`);
    const loop = foldLoop(rendered.samples, loopSamples(composition.bpm, composition.chords.length) * rendered.channels);
    const fullScale = LOOP_PEAK / (loop.reduce((max, v) => Math.max(max, Math.abs(v)), 0) || 1);
    // Measured at full scale, then levelled down to LOOP_LUFS (never up past the peak).
    await writeFile(partial, writeWav({ ...rendered, samples: toPcm(loop, fullScale) }));
    const { integrated } = await measureLoudness(partial, tools);
    const level = Math.min(1, 10 ** ((LOOP_LUFS - integrated) / 20));
    await writeFile(partial, writeWav({ ...rendered, samples: toPcm(loop, fullScale * level) }));
    await rename(partial, file);
  } finally {
    await Promise.all([partial, `${partial}.mid`, `${partial}.render.wav`].map((f) => rm(f, { force: true })));
  }
  return file;
}

/** A music bed exactly `seconds` long (16-bit stereo WAV, 44.1 kHz): the loop repeated from its first beat, faded in and out. */
export async function musicBed(
  musicId: string,
  seconds: number,
  outFile: string,
  cacheDir: string,
  tools: MediaTools = locateTools(),
): Promise<string> {
  if (!(seconds > 0)) throw new RangeError('a music bed needs a length');
  const loop = await musicLoop(musicId, cacheDir, tools);
  const fadeOut = Math.min(FADE_OUT, seconds / 3);
  await runTool(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-stream_loop', '-1', '-i', loop],
    // Fades so the ad does not start or stop on a hard edge; the beats stay where musicBeats says.
    ...['-af', `afade=t=in:d=${Math.min(FADE_IN, seconds / 3)},afade=t=out:st=${seconds - fadeOut}:d=${fadeOut}`],
    ...['-t', String(seconds), '-ac', '2', '-ar', String(MUSIC_RATE), '-c:a', 'pcm_s16le', outFile],
  ]);
  return outFile;
}
