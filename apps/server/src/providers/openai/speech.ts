// Speech from OpenAI's speech API (POST /audio/speech) or a server that speaks it, Kokoro-FastAPI among them
// (decision "OpenAI-compatible speech"): one request a line, so each segment keeps its real duration and captions
// and scenes follow the voice as with the local engine. The API gives no word timings: the line is aligned to its
// audio (providers/voice.ts).
import type { Settings } from '../../settings.js';
import { send } from '../http.js';
import type { Voice } from '../provider.js';
import { remoteVoice, writeVoiceWav } from '../voice.js';
import { bearerEndpoint } from './http.js';
import { providerVoice } from './voices.js';

type OpenAiTts = Extract<NonNullable<Settings['tts']>, { vendor: 'openai' }>;

/** A 429 or 503 is tried again twice (providers/http.ts) before the line fails. */
const RETRIES = 2;

/** The remote voice. A failed line fails the task (decision "No provider fallback"). */
export function openAiVoice(api: Omit<OpenAiTts, 'vendor'>): Voice {
  const endpoint = { ...bearerEndpoint(api), retries: RETRIES };
  return remoteVoice(['openai', api.baseUrl, api.model, api.voices], async (line) => {
    const { bytes } = await send(endpoint, '/audio/speech', {
      json: { model: api.model, voice: providerVoice(line.voiceId, api.voices), input: line.text, response_format: 'wav' },
      signal: line.signal,
    });
    // OpenAI's WAV leaves its length unknown in the header and some compatible servers answer MP3 whatever was asked:
    // ffmpeg reads either.
    await writeVoiceWav(bytes, line);
    return undefined;
  });
}
