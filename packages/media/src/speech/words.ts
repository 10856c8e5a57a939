import { chineseWords } from '../script/chineseWords.js';
import { hanCount, isCjk, wordCount } from '../script/language.js';

/** When the voice says one word, in seconds: from the engine's timestamps, an alignment, or an estimate. */
export interface WordTiming {
  /** The word as the script writes it, with the punctuation that clings to it ("yours.", "冬季，"). */
  word: string;
  start: number;
  end: number;
}

const CJK_RUN = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+/gu;

/**
 * The words of a line in the order they are said: Latin text by its spaces, Chinese by its dictionary words
 * (冬季 and 牛仔裤 stay one word). Punctuation joins the word before it, so a caption shows what the script says.
 */
export function spokenWords(text: string): string[] {
  const words: string[] = [];
  for (const chunk of text.replace(CJK_RUN, (run) => ` ${run} `).split(/\s+/u)) {
    if (!chunk) continue;
    const parts = isCjk(chunk[0] as string) ? chineseWords(chunk) : [chunk];
    for (const part of parts) {
      const last = words.length - 1;
      // A mark with no letter or figure is not said: it rides on the word before it.
      if (!/[\p{L}\p{N}]/u.test(part) && last >= 0) words[last] += part;
      else words.push(part);
    }
  }
  return words;
}

/** How long a word takes relative to others: its Han characters, or its Latin syllables roughly by letters. */
export const wordWeight = (word: string) =>
  hanCount(word) * 1.6 + (wordCount(word) > 0 ? 1 + word.replace(/[^\p{L}\p{N}]/gu, '').length * 0.12 : 0) || 0.3;

/**
 * Words spread over `start`–`end` by their weights: the estimate used for an engine that gives no timings and
 * within a voiced stretch of an alignment.
 */
export function spreadWords(words: string[], start: number, end: number): WordTiming[] {
  const weights = words.map(wordWeight);
  const total = weights.reduce((sum, w) => sum + w, 0) || 1;
  let at = start;
  return words.map((word, i) => {
    const from = at;
    at = i === words.length - 1 ? end : at + ((end - start) * (weights[i] as number)) / total;
    return { word, start: round(from), end: round(at) };
  });
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
