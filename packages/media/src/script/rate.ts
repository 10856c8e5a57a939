import { hanCount, type Language, wordCount } from './language.js';

/** A natural advertising read: about 150 words a minute in English and Portuguese, 4 characters a second in Mandarin. */
export const WORDS_PER_SECOND = 2.5;
export const HAN_PER_SECOND = 4;
/** The breath the voice track leaves after each segment, so a cut or caption change does not clip a word. */
export const SEGMENT_PAUSE = 0.3;

/**
 * How long a line takes to say, estimated from its Han characters and its Latin words. Both count in every
 * language, so a Chinese line with a brand name ("USB-C") or an English line with a Chinese name is fair too;
 * `language` is kept so a provider-specific rate can be added without changing callers.
 */
export function speechSeconds(text: string, _language: Language): number {
  return hanCount(text) / HAN_PER_SECOND + wordCount(text) / WORDS_PER_SECOND;
}

/** How long a whole script runs in the voice track: its lines and the pause after each. */
export function scriptSeconds(segments: { segText: string }[], language: Language): number {
  return segments.reduce((sum, { segText }) => sum + speechSeconds(segText, language) + SEGMENT_PAUSE, 0);
}
