import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool } from '../run.js';
import { writeWav } from '../speech/wav.js';
import { locateTools, type MediaTools } from '../tools.js';
import { loopSamples, MUSIC_RATE } from './beats.js';
import { measureLoudness } from './loudness.js';
import { scoreChannels, scoreMidi } from './score.js';
import { type Rendered, releaseSynth, renderMidi } from './synth.js';
import { type Composition, MUSIC, musicComposition } from './tracks.js';

/**
 * Bumped when the compositions or their rendering change, so caches made by an older version (loops here, the
 * catalogue's audition samples) are not reused.
 */
export const MUSIC_VERSION = 5;
/** Every loop is levelled to this loudness, so the tracks sound alike in loudness and the mix balances them the same. */
export const LOOP_LUFS = -18;
/** The loop's sample peak stays under this (-1 dBFS), whatever its loudness asks for. */
const LOOP_PEAK = 0.89;
const FADE_IN = 0.5;
const FADE_OUT = 1.5;

/**
 * One seamless interleaved stereo loop of `frames` from a rendering that runs past it: what rings on after the
 * loop's end (reverb, held notes) is added onto its start, where it would sound when the loop repeats.
 */
function foldLoop({ left, right }: Rendered, frames: number): Float32Array {
  const loop = new Float32Array(frames * 2);
  for (let i = 0; i < left.length; i++) {
    const at = (i % frames) * 2;
    loop[at] = (loop[at] as number) + (left[i] as number);
    loop[at + 1] = (loop[at + 1] as number) + (right[i] as number);
  }
  return loop;
}

/** A part quieter than this over its whole loop made no sound worth the name (the quietest part measures about -45). */
const SILENT_PART_DB = -70;

/**
 * Every part of the composition sounded, with the instrument it asked for: a SoundFont without a program or kit
 * would otherwise fall back to another one, or to silence, and the track would sound finished and wrong.
 */
export function checkParts(musicId: string, composition: Composition, rendered: Rendered): void {
  for (const { channel, program, drums } of scoreChannels(composition)) {
    const part = rendered.parts[channel];
    const what = drums ? `drum kit ${program}` : `program ${program}`;
    if (!part?.preset || part.preset.program !== program || part.preset.drums !== drums) {
      throw new Error(`${musicId}: the SoundFont has no ${what} (channel ${channel + 1} played ${part?.preset?.name ?? 'nothing'})`);
    }
    if (part.db < SILENT_PART_DB) throw new Error(`${musicId}: ${what} on channel ${channel + 1} made no sound (${part.db.toFixed(0)} dB)`);
  }
}

const toPcm = (loop: Float32Array, scale: number) => Int16Array.from(loop, (v) => Math.round(v * scale * 32_767));

/**
 * The loop of a track, rendered on first use into `cacheDir` and reused after: its MIDI is rendered by the synthesiser,
 * folded into a seamless loop and levelled to LOOP_LUFS; written under a temporary name and renamed, so two
 * workers making it at once never read half a file.
 */
export function musicLoop(musicId: string, cacheDir: string, tools: MediaTools = locateTools()): Promise<string> {
  const file = join(cacheDir, `music-${musicId}-v${MUSIC_VERSION}.wav`);
  if (existsSync(file)) return Promise.resolve(file);
  // One rendering per loop in a process: the start-up warm-up and a preview asking at once share it.
  let making = inFlight.get(file);
  if (!making) {
    making = makeLoop(musicId, file, cacheDir, tools).finally(() => inFlight.delete(file));
    inFlight.set(file, making);
  }
  return making;
}

const inFlight = new Map<string, Promise<string>>();

async function makeLoop(musicId: string, file: string, cacheDir: string, tools: MediaTools): Promise<string> {
  const composition = musicComposition(musicId);
  await mkdir(cacheDir, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.part`;
  try {
    const rendered = await renderMidi(scoreMidi(composition));
    checkParts(musicId, composition, rendered);
    const loop = foldLoop(rendered, loopSamples(composition.bpm, composition.chords.length));
    const fullScale = LOOP_PEAK / (loop.reduce((max, v) => Math.max(max, Math.abs(v)), 0) || 1);
    const wav = (scale: number) => writeWav({ sampleRate: MUSIC_RATE, channels: 2, samples: toPcm(loop, scale) });
    // Measured at full scale, then levelled down to LOOP_LUFS (never up past the peak).
    await writeFile(partial, wav(fullScale));
    const { integrated } = await measureLoudness(partial, tools);
    const level = Math.min(1, 10 ** ((LOOP_LUFS - integrated) / 20));
    await writeFile(partial, wav(fullScale * level));
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  return file;
}

/**
 * Renders every track's loop not yet in the cache, one after another. A server does it at start, so no user's
 * first preview waits for its music (a track takes 1-4 s of one core to render, once per cache version).
 */
export async function warmMusic(cacheDir: string, tools: MediaTools = locateTools()): Promise<void> {
  try {
    for (const { musicId } of MUSIC) await musicLoop(musicId, cacheDir, tools);
  } finally {
    // Every loop is cached: the thread's memory is given back now, not when it has idled out.
    releaseSynth();
  }
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
