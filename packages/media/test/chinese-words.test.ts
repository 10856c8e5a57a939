// Chinese is cut and broken between words only: a caption line, a card title and a spoken name never end inside
// 牛仔裤 or 连衣裙 (decision "Chinese words").
import { describe, expect, it } from 'vitest';
import { breakLines } from '../src/captions/lines.js';
import { chineseWords } from '../src/script/chineseWords.js';
import { shortName } from '../src/script/name.js';
import { spokenWords } from '../src/speech/words.js';
import { fitText } from '../src/templates/cardText.js';

/** Garment and product nouns a reader sees broken at once when a line or a cut parts them. */
const WHOLE = ['牛仔裤', '连衣裙', '保温杯', '不锈钢', '大容量'];
const partsAWord = (pieces: string[]) =>
  WHOLE.some((word) => pieces.join('').includes(word) && !pieces.some((piece) => piece.includes(word)));

describe('Chinese words', () => {
  it('are the dictionary’s words: 牛仔裤 and 连衣裙 whole, and together the text', () => {
    for (const text of ['修身高腰弹力牛仔裤', '法式荷叶边一字肩连衣裙', '不锈钢保温杯大容量']) {
      const words = chineseWords(text);
      expect(words.join('')).toBe(text);
      expect(partsAWord(words)).toBe(false);
    }
  });

  it('are what the voice says and the captions show, one by one', () => {
    expect(spokenWords('这条修身牛仔裤，现在只要¥59')).toEqual(['这', '条', '修身', '牛仔裤，', '现在', '只要', '¥59']);
  });

  it('break caption lines between them, never inside one, however narrow the line', () => {
    for (const ems of [3, 4, 5, 6, 7]) {
      const lines = breakLines('这条修身高腰弹力牛仔裤和法式一字肩连衣裙现在都只要五十九元', ems);
      expect(partsAWord(lines), lines.join('|')).toBe(false);
    }
  });

  it('cut a long name to its last whole words as the voice says it: 一字肩连衣裙, not 边一字肩连衣裙', () => {
    expect(shortName('法式荷叶边一字肩连衣裙', 'zh')).toBe('一字肩连衣裙');
    expect(shortName('修身高腰弹力牛仔裤女', 'zh')).toBe('高腰弹力牛仔裤女');
  });

  it('cut a card title between words when it must be cut', () => {
    const type = { face: 'noto-sans' as const, spacing: 0 };
    for (const maxWidth of [300, 400, 500, 600]) {
      const fitted = fitText('法式荷叶边一字肩连衣裙修身高腰弹力牛仔裤', { em: 100, maxWidth, maxLines: 1, type, cutFirst: true });
      const title = fitted.lines.join('');
      expect(title.length).toBeGreaterThan(0);
      // What is kept ends where a word ends.
      const ends = new Set<number>();
      let at = 0;
      for (const word of chineseWords('法式荷叶边一字肩连衣裙修身高腰弹力牛仔裤')) {
        at += word.length;
        ends.add(at);
      }
      expect(ends.has(title.length), title).toBe(true);
    }
  });
});
