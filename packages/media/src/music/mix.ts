import { rm } from 'node:fs/promises';
import { runTool } from '../run.js';
import { locateTools, type MediaTools } from '../tools.js';
import { LOOP_LUFS } from './bed.js';
import { measureLoudness } from './loudness.js';

export interface MixOptions {
  /** The voice track (speakScript's voice.wav): mono or stereo, at any sample rate (eSpeak's 22.05 kHz, 24 or 48 kHz). */
  voice: string;
  /** The music bed, at least `seconds` long (musicBed); without one the voice alone is levelled and mastered. */
  music?: string | undefined;
  /** The video's length: the voice is padded with silence or cut to it. */
  seconds: number;
  /** `.wav` gives 16-bit PCM; anything else AAC (e.g. `.m4a`). */
  outFile: string;
  tools?: MediaTools | undefined;
}

/** Integrated loudness of the finished mix: what TikTok and Reels normalise to, so the ad is neither turned down nor up. */
export const MIX_LUFS = -14;
/** The platforms' true-peak ceiling (dBTP). */
export const MIX_TRUE_PEAK = -1;
/**
 * The limiter aims under the ceiling, leaving room for what AAC encoding adds to the peaks: the renderer's 128 kb/s
 * "fast" AAC raised them by up to 1.4 dB in the mixes measured (decision "SoundFont music").
 */
const LIMIT_DBTP = -3;
/** The voice is levelled to this before mixing, so music sits the same distance under any voice or engine. */
const VOICE_LUFS = -16;
/** The music in the gaps between sentences, under the voice's level (the loops are levelled to LOOP_LUFS). */
const MUSIC_UNDER_VOICE = 5;
/** Mixes whose loudness lands this close to MIX_LUFS are kept; further off, the gain is corrected once more. */
const TOLERANCE = 0.4;

/**
 * The soundtrack of an ad: the voice levelled and gently compressed, the music under it ducking while someone
 * speaks (a sidechain compressor keyed by the voice), the whole measured and then brought to MIX_LUFS with a
 * true-peak limiter (measure, then apply: one-pass loudnorm guesses on a clip this short).
 */
export async function mixAudio({ voice, music, seconds, outFile, tools = locateTools() }: MixOptions): Promise<string> {
  const spoken = await measureLoudness(voice, tools);
  // A silent voice (no speech) is mixed as it is; the music then carries the ad alone.
  const voiceGain = Number.isFinite(spoken.integrated) && spoken.integrated > -60 ? VOICE_LUFS - spoken.integrated : 0;
  const musicGain = VOICE_LUFS - MUSIC_UNDER_VOICE - LOOP_LUFS;
  const premix = `${outFile}.premix.wav`;
  // Any rate and layout in: aformat resamples to 48 kHz stereo.
  const levelled =
    `[0:a]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo,volume=${voiceGain.toFixed(2)}dB,` +
    `acompressor=threshold=0.1:ratio=3:attack=5:release=120,apad,atrim=0:${seconds}`;
  const graph = music
    ? [
        `${levelled},asplit=2[voice][key]`,
        `[1:a]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo,atrim=0:${seconds},volume=${musicGain.toFixed(2)}dB[bed]`,
        '[bed][key]sidechaincompress=threshold=0.015:ratio=6:attack=20:release=400:knee=4[ducked]',
        // amix halves each input; the gain after measuring sets the level either way.
        '[voice][ducked]amix=inputs=2:duration=first:dropout_transition=0[out]',
      ].join(';')
    : `${levelled}[out]`;
  try {
    await runTool(
      tools.ffmpeg,
      [
        '-v',
        'error',
        '-y',
        '-i',
        voice,
        ...(music ? ['-i', music] : []),
        '-filter_complex',
        graph,
        '-map',
        '[out]',
        '-t',
        String(seconds),
        '-c:a',
        'pcm_f32le',
        premix,
      ],
      {
        timeoutMs: 120_000,
      },
    );
    const measured = await measureLoudness(premix, tools);
    let gain = MIX_LUFS - measured.integrated;
    for (let attempt = 0; attempt < 3; attempt++) {
      await master(premix, gain, seconds, outFile, tools);
      // The limiter takes a little off where it works: measured again, and the gain corrected by what is missing.
      const { integrated } = await measureLoudness(outFile, tools);
      if (Math.abs(integrated - MIX_LUFS) <= TOLERANCE) break;
      gain += MIX_LUFS - integrated;
    }
  } finally {
    await rm(premix, { force: true });
  }
  return outFile;
}

/**
 * The measured gain, then a limiter that sees inter-sample peaks (it runs at four times the rate), then 48 kHz.
 */
function master(premix: string, gain: number, seconds: number, outFile: string, tools: MediaTools): Promise<string> {
  const limit = 10 ** (LIMIT_DBTP / 20);
  const chain = [
    `volume=${gain.toFixed(2)}dB`,
    'aresample=192000',
    `alimiter=limit=${limit.toFixed(4)}:attack=2:release=60:level=0`,
    'aresample=48000',
    'aformat=sample_fmts=fltp:channel_layouts=stereo',
  ].join(',');
  const codec = outFile.endsWith('.wav') ? ['-c:a', 'pcm_s16le'] : ['-c:a', 'aac', '-b:a', '160k'];
  return runTool(tools.ffmpeg, ['-v', 'error', '-y', '-i', premix, '-af', chain, '-t', String(seconds), ...codec, outFile], {
    timeoutMs: 120_000,
  });
}
