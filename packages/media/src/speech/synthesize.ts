import type { Language } from '../script/language.js';
import { locateTools, type MediaTools } from '../tools.js';
import { alignSpeech } from './align.js';
import { espeakWav, SpeechEngineError } from './espeak.js';
import { polishEspeak } from './polish.js';
import { localVoice } from './voices.js';
import type { WordTiming } from './words.js';

export interface SynthesizeOptions {
  voiceId: string;
  /** The script's language; a voice of another language is refused rather than reading it with the wrong accent. */
  language?: Language | undefined;
  /** Where the WAV goes. */
  outFile: string;
  tools?: MediaTools | undefined;
}

export interface Speech {
  file: string;
  /** The real length of the file, as ffprobe reads it. */
  seconds: number;
  /**
   * When each word is said, on the file's clock: the engine's own timestamps where it gives them. Absent, the
   * voice track estimates them from the speech's length (track.ts).
   */
  words?: WordTiming[] | undefined;
}

/** Speaks one line into a 16-bit PCM WAV file: this module's offline engine, or a speech provider's client. */
export type Synthesizer = (text: string, options: SynthesizeOptions) => Promise<Speech>;

/** Speaks one line with a catalogue voice into a WAV file, offline. */
export async function synthesize(text: string, { voiceId, language, outFile, tools = locateTools() }: SynthesizeOptions): Promise<Speech> {
  const voice = localVoice(voiceId);
  if (language && voice.language !== language) throw new RangeError(`voice ${voiceId} speaks ${voice.language}, not ${language}`);
  if (!text.trim()) throw new RangeError('there is nothing to say');
  const wav = await espeakWav(text, voice.espeak);
  // The length is the polished samples' own: asking ffprobe for it took a tenth of a second a line.
  const seconds = await polishEspeak(wav, outFile, tools);
  if (seconds <= 0) throw new SpeechEngineError(`espeak-ng wrote no audio for ${voiceId}`);
  // eSpeak's command line tells no word timings (its word events reach only programs linking the library), so the
  // line is aligned to its own audio (align.ts).
  return { file: outFile, seconds, words: alignSpeech(text, wav) };
}
