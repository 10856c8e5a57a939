// Speech from OpenAI's speech API (POST /audio/speech) or a server that speaks it (issue 5 pipeline 3): one request a
// line, so each segment keeps its real duration and captions and scenes follow the voice as with the local engine.
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { locateTools, MediaToolError, probe, runTool, type Synthesizer } from '@reelsmith/media';
import { AppError } from '../../errors.js';
import type { Settings } from '../../settings.js';
import type { Voice } from '../provider.js';
import { ProviderError, post } from './http.js';
import { providerVoice } from './voices.js';

type TtsSettings = NonNullable<Settings['tts']>;

/** OpenAI's speech comes at 24 kHz; every line is made that, mono 16-bit, so the lines of a script join sample by sample. */
const SAMPLE_RATE = 24_000;

async function speak(api: TtsSettings, text: string, voiceId: string, outFile: string, tools = locateTools(), signal?: AbortSignal) {
  const audio = await post(
    api,
    '/audio/speech',
    { model: api.model, voice: providerVoice(voiceId, api.voices), input: text, response_format: 'wav' },
    signal,
  );
  if (audio.length === 0) throw new ProviderError(`${api.baseUrl}/audio/speech answered no audio`);
  const download = `${outFile}.download`;
  await writeFile(download, audio);
  try {
    // OpenAI's WAV leaves its length unknown in the header and some compatible servers answer MP3 whatever was asked:
    // ffmpeg reads either and writes the one format the voice track joins.
    await runTool(
      tools.ffmpeg,
      ['-v', 'error', '-y', '-i', download, '-ac', '1', '-ar', String(SAMPLE_RATE), '-c:a', 'pcm_s16le', outFile],
      {
        signal,
      },
    );
  } catch (error) {
    if (error instanceof MediaToolError && !signal?.aborted)
      throw new ProviderError('the speech provider answered audio ffmpeg cannot read', undefined, { cause: error });
    throw error;
  } finally {
    await rm(download, { force: true });
  }
  const { duration } = await probe(tools, outFile);
  if (!(duration > 0)) throw new ProviderError('the speech provider answered silence of no length');
  return { file: outFile, seconds: duration };
}

/** The remote voice. A failed line fails the task (decision "No provider fallback"): one video must not mix two engines' voices. */
export function openAiVoice(api: TtsSettings): Voice {
  const setup = JSON.stringify([api.baseUrl, api.model, api.voices]);
  return {
    engine: `tts-${createHash('sha256').update(setup).digest('hex').slice(0, 12)}`,
    synthesizer(signal): Synthesizer {
      return async (text, { voiceId, outFile, tools }) => {
        try {
          return await speak(api, text, voiceId, outFile, tools, signal);
        } catch (error) {
          if (error instanceof ProviderError) throw new AppError('voiceFailed', {}, { cause: error });
          throw error;
        }
      };
    },
  };
}
