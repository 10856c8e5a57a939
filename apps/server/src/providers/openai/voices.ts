// Which provider voice reads for a catalogue voice on an OpenAI-compatible server. OpenAI's voices speak every
// language, so gender and recommended-or-other are what the choice follows; TTS_VOICES overrides it for servers with
// other voice names (Kokoro's af_heart…), by catalogue id first, then by gender (providers/voice.ts).
import { vendorVoice } from '../voice.js';

/** OpenAI's voices: the recommended voice of each gender, then the other one. */
const OPENAI_VOICES = { female: ['nova', 'shimmer'], male: ['onyx', 'echo'] } as const;

export const providerVoice = (voiceId: string, overrides: Record<string, string>): string =>
  vendorVoice(voiceId, overrides, (voice) => OPENAI_VOICES[voice.gender][voice.recommended ? 0 : 1]);
