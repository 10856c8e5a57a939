import { chineseWords } from '../script/chineseWords.js';
import { isCjk } from '../script/language.js';

/** Widths of glyphs in Noto Sans SC Bold, in ems: close enough to break lines before libass sets them. */
const em = (char: string) => (isCjk(char) ? 1 : char === ' ' || char === '\u00a0' ? 0.26 : /[A-ZMW0-9mw@%]/.test(char) ? 0.64 : 0.54);
export const textWidth = (text: string) => [...text].reduce((sum, char) => sum + em(char), 0);

/** Chinese punctuation that may not begin a line (kinsoku): it stays on the line before. */
const NO_LINE_START = /^[，。！？、；：）」』】》…,.!?;:)]/u;

/** A place a line may break before, and whether the text had a space there (kept when the line goes on). */
export interface LineWord {
  text: string;
  spaced: boolean;
  /** Set larger than the line's type (a key word), so it takes more of the line. */
  scale?: number | undefined;
}

/** A line's width in ems: its words at their scale and the spaces kept between them. */
export const lineWidth = (words: readonly LineWord[]) =>
  words.reduce((sum, w, i) => sum + textWidth(w.text) * (w.scale ?? 1) + (i > 0 && w.spaced ? em(' ') : 0), 0);

/** A line's text: its words with the spaces kept between them. */
export const lineText = (words: readonly LineWord[]) => words.map((w, i) => (i > 0 && w.spaced ? ` ${w.text}` : w.text)).join('');

/**
 * Words (en, pt; and Chinese words in any CJK run, each punctuation mark its own): the places a line may break.
 * The "the 冬季" of mixed text keeps its space; Chinese words join without one.
 */
function tokens(text: string): LineWord[] {
  const runs = text.matchAll(
    /(\s*)([\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+|[^\s\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+)/gu,
  );
  return [...runs].flatMap(([, space = '', run = '']) =>
    isCjk(run[0] as string)
      ? chineseWords(run).map((word, i) => ({ text: word, spaced: i === 0 && space.length > 0 }))
      : [{ text: run, spaced: space.length > 0 }],
  );
}

/** Fills each line up to `limit` ems, at the allowed break points. */
function fill<W extends LineWord>(words: readonly W[], limit: number): W[][] {
  const lines: W[][] = [];
  let line: W[] = [];
  for (const word of words) {
    if (!line.length || lineWidth([...line, word]) <= limit || NO_LINE_START.test(word.text)) line.push(word);
    else {
      lines.push(line);
      line = [word];
    }
  }
  return line.length ? [...lines, line] : lines;
}

/**
 * Breaks words into lines no wider than `maxEms`, as evenly as their count allows (`lines` asks for more than the
 * fewest), so none is an orphan word; a word wider than a line gets a line of its own.
 */
export function breakWords<W extends LineWord>(words: readonly W[], maxEms: number, lines?: number): W[][] {
  const count = Math.max(lines ?? 0, fill(words, maxEms).length);
  // The narrowest measure that still needs no more lines than `count` gives the most even lines.
  let [narrow, wide] = [0, maxEms];
  for (let step = 0; step < 16; step++) {
    const middle = (narrow + wide) / 2;
    if (fill(words, middle).length <= count) wide = middle;
    else narrow = middle;
  }
  return fill(words, wide);
}

/**
 * Breaks a caption into lines no wider than `maxEms`: at spaces between words, between Chinese words (never
 * inside one: 冬季 stays whole), never before closing punctuation; a word wider than a line gets a line of its own. The lines are
 * as even as their count allows (`lines` asks for more than the fewest), so none is an orphan word.
 */
export function breakLines(text: string, maxEms: number, lines?: number): string[] {
  return breakWords(tokens(text.replace(/\s+/g, ' ').trim()), maxEms, lines).map(lineText);
}
