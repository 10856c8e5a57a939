// What a caption may never part: a currency sign from its amount, in every style's chunks.
import { describe, expect, it } from 'vitest';
import { lineChunks, singleWords, wordGroups } from '../src/captions/chunks.js';
import { captionWords } from '../src/captions/timedWords.js';

const NBSP = '\u00a0';
const segment = (text: string) => ({ text, start: 0, end: 4 });
const shown = (chunks: ReturnType<typeof lineChunks>) => chunks.map((chunk) => chunk.lines.map((line) => line.map((w) => w.text)));

describe('caption words', () => {
  it('keep a currency sign written apart from its amount with it: one word, said from the sign to the amount', () => {
    const words = captionWords(segment('Agora por apenas R$ 59,90 na loja.'), () => false);
    expect(words.map((w) => w.text)).toEqual(['Agora', 'por', 'apenas', `R$${NBSP}59,90`, 'na', 'loja.']);
    const price = words[3];
    expect(price?.start).toBeLessThan(price?.end ?? 0);
    expect(price?.end).toBeLessThanOrEqual(words[4]?.start ?? 0);
  });

  it('never show "R$" on a line, in a group or alone without its amount, however narrow the caption', () => {
    const words = captionWords(segment('Só hoje: de R$ 89,90 por R$ 59,90, e US$ 12 no frete.'), () => false);
    for (const chunks of [lineChunks(words, 6, 0, 4), wordGroups(words, 6, 0, 4), singleWords(words, 0, 4)]) {
      for (const lines of shown(chunks)) {
        for (const line of lines) {
          for (const text of line) if (/\$/.test(text)) expect(text).toMatch(/\$\u00a0\d/u);
        }
      }
    }
  });

  it('leave a sign written against its amount, and a sign with no amount after it, as they are', () => {
    expect(captionWords(segment('Só R$59,90 hoje'), () => false).map((w) => w.text)).toEqual(['Só', 'R$59,90', 'hoje']);
    expect(captionWords(segment('Pague em R$ ou US$'), () => false).map((w) => w.text)).toEqual(['Pague', 'em', 'R$', 'ou', 'US$']);
  });
});
