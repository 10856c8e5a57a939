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

/** A currency sign written apart from its amount ("R$ 59,90", "US$ 20", "€ 15"): the two are one thing to read. */
const LONE_CURRENCY = /^\p{Lu}{0,2}[$€£¥￥]$/u;
/** Joins a sign to its amount so no line, group or single-word caption ever shows one without the other. */
const NO_BREAK_SPACE = '\u00a0';

/** Each lone currency sign joined to the amount after it: shown from the sign being said to the amount's end. */
function withAmounts(words: CaptionWord[]): CaptionWord[] {
  const joined: CaptionWord[] = [];
  for (const word of words) {
    const before = joined.at(-1);
    if (before && LONE_CURRENCY.test(before.word.trim()) && /^\p{N}/u.test(word.word.trim())) {
      joined[joined.length - 1] = {
        ...before,
        word: `${before.word.trim()}${word.spaced ? NO_BREAK_SPACE : ''}${word.word.trim()}`,
        text: `${before.text}${word.spaced ? NO_BREAK_SPACE : ''}${word.text}`,
        end: word.end,
        key: before.key || word.key,
      };
    } else joined.push(word);
  }
  return joined;
}

/**
 * The words of a segment as the captions show them, on the video's clock: the engine's timings when given (clamped
 * to the segment), else the segment's words spread over it by weight. A currency sign and its amount are one word.
 */
export function captionWords(segment: CaptionSegment, isKey: (word: string) => boolean): CaptionWord[] {
  const timed = segment.words?.length ? segment.words : spreadWords(spokenWords(segment.text), segment.start, segment.end);
  const clamp = (t: number) => Math.min(segment.end, Math.max(segment.start, t));
  const said = timed.filter((w) => w.word.trim());
  const spaced = spacing(
    segment.text,
    said.map((w) => w.word.trim()),
  );
  return withAmounts(
    said.map((w, i) => ({
      word: w.word,
      text: assText(w.word.trim()),
      start: clamp(w.start),
      end: Math.max(clamp(w.start), clamp(w.end)),
      spaced: spaced[i] as boolean,
      key: isKey(w.word),
    })),
  );
}
