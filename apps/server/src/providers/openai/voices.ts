// Which provider voice reads for a catalogue voice. The catalogue stays ours (ids, names, samples, the editor's
// filters and stored projects keep working when TTS is switched on or off); OpenAI's voices speak every language,
// so gender and recommended-or-other are what the choice follows. TTS_VOICES overrides it for servers with other
// voice names (Kokoro's af_bella…), by catalogue id first, then by gender.
import { VOICES } from '@reelsmith/media';

/** OpenAI's voices: the recommended voice of each gender, then the other one. */
const OPENAI_VOICES = { female: ['nova', 'shimmer'], male: ['onyx', 'echo'] } as const;

export function providerVoice(voiceId: string, overrides: Record<string, string>): string {
  const voice = VOICES.find((v) => v.voiceId === voiceId);
  if (!voice) throw new RangeError(`unknown voice ${voiceId}`);
  return overrides[voiceId] ?? overrides[voice.gender] ?? OPENAI_VOICES[voice.gender][voice.recommended ? 0 : 1];
}
