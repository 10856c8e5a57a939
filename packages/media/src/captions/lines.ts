import { isCjk } from '../script/language.js';

/** Widths of glyphs in Noto Sans SC Bold, in ems: close enough to break lines before libass sets them. */
const em = (char: string) => (isCjk(char) ? 1 : char === ' ' ? 0.26 : /[A-ZMW0-9mw@%]/.test(char) ? 0.64 : 0.54);
export const textWidth = (text: string) => [...text].reduce((sum, char) => sum + em(char), 0);

/** Chinese punctuation that may not begin a line (kinsoku): it stays on the line before. */
const NO_LINE_START = /^[，。！？、；：）」』】》…,.!?;:)]/u;

/** Chinese words as ICU's dictionary finds them (冬季, 保暖): a line breaks between words, never inside one. */
const CHINESE_WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

/** A place a line may break before, and whether the text had a space there (kept when the line goes on). */
interface Token {
  text: string;
  spaced: boolean;
}

/**
 * Words (en, pt; and Chinese words in any CJK run, each punctuation mark its own): the places a line may break.
 * The "the 冬季" of mixed text keeps its space; Chinese words join without one.
 */
function tokens(text: string): Token[] {
  const runs = text.matchAll(
    /(\s*)([\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+|[^\s\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+)/gu,
  );
  return [...runs].flatMap(([, space = '', run = '']) =>
    isCjk(run[0] as string)
      ? [...CHINESE_WORDS.segment(run)].map((s, i) => ({ text: s.segment, spaced: i === 0 && space.length > 0 }))
      : [{ text: run, spaced: space.length > 0 }],
  );
}

/** Fills each line up to `limit` ems, at the allowed break points. */
function fill(words: Token[], limit: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const { text: word, spaced } of words) {
    const candidate = line + (line && spaced ? ' ' : '') + word;
    if (!line || textWidth(candidate) <= limit || NO_LINE_START.test(word)) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  return line ? [...lines, line] : lines;
}

/**
 * Breaks a caption into lines no wider than `maxEms`: at spaces between words, between Chinese words (never
 * inside one: 冬季 stays whole), never before closing punctuation; a word wider than a line gets a line of its own. The lines are
 * as even as their count allows (`lines` asks for more than the fewest), so none is an orphan word.
 */
export function breakLines(text: string, maxEms: number, lines?: number): string[] {
  const words = tokens(text.replace(/\s+/g, ' ').trim());
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
