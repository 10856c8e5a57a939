// Speech from ElevenLabs' "text to speech with timestamps" (POST /v1/text-to-speech/{voice_id}/with-timestamps): one
// request a line, its audio as base64 16-bit PCM at 24 kHz and the start and end of every character, which give each
// word's timing. Where the characters do not spell the line (the vendor normalised it), the line is aligned to its
// audio instead (providers/voice.ts).
import { spokenWords, type WordTiming } from '@reelsmith/media';
import type { Settings } from '../../settings.js';
import { ProviderError, sendJson } from '../http.js';
import type { Voice } from '../provider.js';
import { REMOTE_SAMPLE_RATE, remoteVoice, vendorVoice, writeVoiceWav } from '../voice.js';

type ElevenLabsTts = Extract<NonNullable<Settings['tts']>, { vendor: 'elevenlabs' }>;

/** ElevenLabs' premade voices, which speak every language of the multilingual models: Rachel, Sarah; Adam, Brian. */
const ELEVENLABS_VOICES = {
  female: ['21m00Tcm4TlvDq8ikWAM', 'EXAVITQu4vr4xnSDxMaL'],
  male: ['pNInz6obpgDQGcFmaJgB', 'nPczCjzI2devNBz1zQrb'],
} as const;

export const elevenLabsVoiceOf = (voiceId: string, overrides: Record<string, string>): string =>
  vendorVoice(voiceId, overrides, (voice) => ELEVENLABS_VOICES[voice.gender][voice.recommended ? 0 : 1]);

/** A 429 (too many concurrent requests) or 503 is tried again twice before the line fails. */
const RETRIES = 2;

interface Alignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

function answerOf(body: unknown): { audio: Uint8Array; alignment: Alignment | undefined } {
  const { audio_base64: audio, alignment } = (body ?? {}) as { audio_base64?: unknown; alignment?: Partial<Alignment> | null };
  if (typeof audio !== 'string' || audio.length === 0) throw new ProviderError('ElevenLabs answered no audio_base64');
  const usable =
    alignment &&
    Array.isArray(alignment.characters) &&
    Array.isArray(alignment.character_start_times_seconds) &&
    Array.isArray(alignment.character_end_times_seconds) &&
    alignment.characters.length === alignment.character_start_times_seconds.length &&
    alignment.characters.length === alignment.character_end_times_seconds.length &&
    alignment.character_start_times_seconds.every((t) => typeof t === 'number' && Number.isFinite(t)) &&
    alignment.character_end_times_seconds.every((t) => typeof t === 'number' && Number.isFinite(t));
  return { audio: Buffer.from(audio, 'base64'), alignment: usable ? (alignment as Alignment) : undefined };
}

/**
 * Each of the line's words (spokenWords) from the characters' timings: from its first character's start to its last
 * letter's or figure's end (a full stop's time runs into the pause after it). Undefined when the characters do not
 * spell the words in order.
 */
export function wordsFromCharacters(text: string, alignment: Alignment): WordTiming[] | undefined {
  const spelled = alignment.characters.join('');
  // Which character each UTF-16 unit of `spelled` belongs to (a character may be two units, an emoji).
  const owner: number[] = [];
  alignment.characters.forEach((c, i) => {
    for (let k = 0; k < c.length; k++) owner.push(i);
  });
  const words: WordTiming[] = [];
  let cursor = 0;
  for (const word of spokenWords(text)) {
    const at = spelled.indexOf(word, cursor);
    if (at < 0) return undefined;
    const said = word.replace(/[^\p{L}\p{N}]+$/u, '') || word;
    const first = owner[at] as number;
    const last = owner[at + said.length - 1] as number;
    const start = Math.max(alignment.character_start_times_seconds[first] as number, words.at(-1)?.end ?? 0);
    const end = Math.max(alignment.character_end_times_seconds[last] as number, start);
    words.push({ word, start: Math.round(start * 1000) / 1000, end: Math.round(end * 1000) / 1000 });
    cursor = at + word.length;
  }
  return words;
}

/** The ElevenLabs voice. A failed line fails the task (decision "No provider fallback"). */
export function elevenLabsVoice(api: ElevenLabsTts): Voice {
  const endpoint = { baseUrl: api.baseUrl, headers: { 'xi-api-key': api.apiKey ?? '' }, timeoutMs: api.timeoutMs, retries: RETRIES };
  return remoteVoice(['elevenlabs', api.baseUrl, api.model, api.voices], async (line) => {
    const voice = encodeURIComponent(elevenLabsVoiceOf(line.voiceId, api.voices));
    const body = await sendJson(endpoint, `/v1/text-to-speech/${voice}/with-timestamps?output_format=pcm_${REMOTE_SAMPLE_RATE}`, {
      json: { text: line.text, model_id: api.model },
      signal: line.signal,
    });
    const { audio, alignment } = answerOf(body);
    if (audio.length % 2 !== 0) throw new ProviderError('ElevenLabs answered PCM of an odd number of bytes');
    await writeVoiceWav(audio, line, ['-f', 's16le', '-ar', String(REMOTE_SAMPLE_RATE), '-ac', '1']);
    return alignment && wordsFromCharacters(line.text, alignment);
  });
}
