import { isCjk } from '../script/language.js';
import { spokenWords, spreadWords, type WordTiming } from '../speech/words.js';
import { assText } from './assDocument.js';
import type { LineWord } from './lines.js';

/** A spoken segment's text and when the voice says it, in seconds on the video's clock. */
export interface CaptionSegment {
  text: string;
  start: number;
  end: number;
  /** Each word on the same clock (the voice track's `SpokenSegment.words`); absent, spread over the segment by weight. */
  words?: WordTiming[] | undefined;
}

/** A word as a caption shows it: its timing, whether a space comes before it, and whether it is a key word. */
export interface CaptionWord extends LineWord, WordTiming {
  key: boolean;
}

/** Chinese touches Chinese without a space (冬季保暖); anything else keeps one ("the 冬季 jacket"). */
const spacedBetween = (before: string, after: string) => !(isCjk(before.slice(-1)) && isCjk(after.slice(0, 1)));

/**
 * Whether each word has a space before it: as the script writes it where the words are found in it in order
 * (24小时 keeps no space, "the 冬季 jacket" keeps its two), else by whether Chinese touches Chinese.
 */
function spacing(text: string, words: readonly string[]): boolean[] {
  let at = 0;
  return words.map((word, i) => {
    const found = text.indexOf(word, at);
    if (found < 0) return i > 0 && spacedBetween(words[i - 1] as string, word);
    at = found + word.length;
    return i > 0 && /\s/u.test(text[found - 1] ?? '');
  });
}

/** A word reduced to what is compared: lower case, letters and figures only. */
const bare = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Prices and figures: a word with a digit ($19, 54,90, 24小时, 50%) or a currency sign standing alone (R$ 54,90). */
const FIGURE = /\p{N}|^\p{Lu}{0,2}[$€£¥]$/u;

/**
 * Whether a word is a key word: one of `keyWords`' own words (the product's name, its price), or a price or figure
 * of the script. A Chinese word counts when it is part of a Chinese key word (保温 in 保温杯).
 */
export function keyWordTest(keyWords: readonly string[]): (word: string) => boolean {
  // Each key whole too: a Chinese name (极光杯) is several dictionary words, and its one-character ones count.
  const keys = keyWords
    .flatMap((k) => [k, ...spokenWords(k)])
    .map(bare)
    .filter((k) => k.length >= 2);
  return (word) => {
    const b = bare(word);
    if (FIGURE.test(word.trim())) return true;
    if (b.length < 2 && !isCjk(b)) return false;
    return keys.some((k) => k === b || (isCjk(b.slice(0, 1)) && k.length >= 2 && k.includes(b)));
  };
}

/**
 * The words of a segment as the captions show them, on the video's clock: the engine's timings when given (clamped
 * to the segment), else the segment's words spread over it by weight.
 */
export function captionWords(segment: CaptionSegment, isKey: (word: string) => boolean): CaptionWord[] {
  const timed = segment.words?.length ? segment.words : spreadWords(spokenWords(segment.text), segment.start, segment.end);
  const clamp = (t: number) => Math.min(segment.end, Math.max(segment.start, t));
  const said = timed.filter((w) => w.word.trim());
  const spaced = spacing(
    segment.text,
    said.map((w) => w.word.trim()),
  );
  return said.map((w, i) => ({
    word: w.word,
    text: assText(w.word.trim()),
    start: clamp(w.start),
    end: Math.max(clamp(w.start), clamp(w.end)),
    spaced: spaced[i] as boolean,
    key: isKey(w.word),
  }));
}
