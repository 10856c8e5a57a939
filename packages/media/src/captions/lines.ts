import { isCjk } from '../script/language.js';

/** Widths of glyphs in Noto Sans SC Bold, in ems: close enough to break lines before libass sets them. */
const em = (char: string) => (isCjk(char) ? 1 : char === ' ' ? 0.26 : /[A-ZMW0-9mw@%]/.test(char) ? 0.64 : 0.54);
export const textWidth = (text: string) => [...text].reduce((sum, char) => sum + em(char), 0);

/** Chinese punctuation that may not begin a line (kinsoku): it stays on the line before. */
const NO_LINE_START = /^[，。！？、；：）」』】》…,.!?;:)]/u;

/** Words (en, pt) or single characters (zh, and any CJK run inside other text): the places a line may break. */
function tokens(text: string): string[] {
  return (
    text.match(
      /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]|[^\s\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+/gu,
    ) ?? []
  );
}

/** Fills each line up to `limit` ems, at the allowed break points. */
function fill(words: string[], limit: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const joiner = line && !isCjk(word) && !isCjk(line.at(-1) as string) ? ' ' : '';
    const candidate = line + joiner + word;
    if (!line || textWidth(candidate) <= limit || NO_LINE_START.test(word)) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  return line ? [...lines, line] : lines;
}

/**
 * Breaks a caption into lines no wider than `maxEms`: at spaces between words, between any two Chinese
 * characters, never before closing punctuation; a word wider than a line gets a line of its own. The lines are
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
