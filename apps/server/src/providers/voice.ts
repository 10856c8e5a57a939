// What every remote voice shares (OpenAI-compatible, ElevenLabs, Azure): the vendor's audio made into the one WAV
// format the voice track joins, each word's timing (the vendor's own, else the line aligned to its audio), the
// engine's name for cached samples, and a failed line failing the task (decision "No provider fallback": one video
// must not mix two engines' voices).
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import {
  alignSpeech,
  locateTools,
  MediaToolError,
  type MediaTools,
  probe,
  runTool,
  type Synthesizer,
  VOICES,
  type VoiceInfo,
  type WordTiming,
} from '@reelsmith/media';
import { AppError } from '../errors.js';
import { ProviderError } from './http.js';
import type { Voice } from './provider.js';

/** Remote speech is made 24 kHz mono 16-bit, whatever the vendor sends, so the lines of a script join sample by sample. */
export const REMOTE_SAMPLE_RATE = 24_000;

/** One line to speak, as an adapter gets it. */
export interface VoiceLine {
  text: string;
  voiceId: string;
  /** Where the 16-bit WAV goes (writeVoiceWav). */
  outFile: string;
  tools: MediaTools;
  signal?: AbortSignal | undefined;
}

/**
 * Writes the vendor's audio as the voice track's WAV: ffmpeg reads WAV, MP3 or, given `input` (e.g. `-f s16le`),
 * raw PCM. Audio ffmpeg cannot read is the provider's failure.
 */
export async function writeVoiceWav(audio: Uint8Array, { outFile, tools, signal }: VoiceLine, input: string[] = []): Promise<void> {
  if (audio.length === 0) throw new ProviderError('the speech provider answered no audio');
  const download = `${outFile}.download`;
  await writeFile(download, audio);
  try {
    await runTool(
      tools.ffmpeg,
      ['-v', 'error', '-y', ...input, '-i', download, '-ac', '1', '-ar', String(REMOTE_SAMPLE_RATE), '-c:a', 'pcm_s16le', outFile],
      { signal },
    );
  } catch (error) {
    if (error instanceof MediaToolError && !signal?.aborted)
      throw new ProviderError('the speech provider answered audio ffmpeg cannot read', undefined, { cause: error });
    throw error;
  } finally {
    await rm(download, { force: true });
  }
}

/**
 * The remote voice whose `speak` writes each line's WAV and answers the vendor's word timings, if it gives them;
 * `setup` (without secrets) names the engine, so samples cached for one setup are never served for another.
 */
export function remoteVoice(setup: unknown, speak: (line: VoiceLine) => Promise<WordTiming[] | undefined>): Voice {
  return {
    engine: `tts-${createHash('sha256').update(JSON.stringify(setup)).digest('hex').slice(0, 12)}`,
    offline: false,
    synthesizer(signal): Synthesizer {
      return async (text, { voiceId, outFile, tools = locateTools() }) => {
        try {
          const own = await speak({ text, voiceId, outFile, tools, signal });
          const { duration } = await probe(tools, outFile);
          if (!(duration > 0)) throw new ProviderError('the speech provider answered silence of no length');
          // A vendor without timestamps: the known line aligned to the audio (media's align.ts).
          const words = own ?? alignSpeech(text, await readFile(outFile));
          // A vendor's timings may run a little past the audio as ffmpeg wrote it: held inside the file.
          const inside = (t: number) => Math.min(Math.max(t, 0), duration);
          return { file: outFile, seconds: duration, words: words.map((w) => ({ ...w, start: inside(w.start), end: inside(w.end) })) };
        } catch (error) {
          if (error instanceof ProviderError) throw new AppError('voiceFailed', {}, { cause: error });
          throw error;
        }
      };
    },
  };
}

/**
 * Which vendor voice reads for a catalogue voice. The catalogue stays ours (ids, names, samples, the editor's filters
 * and stored projects keep working when TTS is switched on or off); TTS_VOICES overrides the vendor's default by
 * catalogue id first, then by gender.
 */
export function vendorVoice(voiceId: string, overrides: Record<string, string>, fallback: (voice: VoiceInfo) => string): string {
  const voice = VOICES.find((v) => v.voiceId === voiceId);
  if (!voice) throw new RangeError(`unknown voice ${voiceId}`);
  return overrides[voiceId] ?? overrides[voice.gender] ?? fallback(voice);
}
