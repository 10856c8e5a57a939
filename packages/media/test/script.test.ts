import { describe, expect, it } from 'vitest';
import { descriptionScript, MAX_VARIANTS, scriptSeconds, shortName, speechSeconds, splitScript, writeScripts } from '../src/index.js';

const EN =
  'Keeps drinks cold for 24 hours and hot for 12 hours. Made of 18/8 stainless steel, it is BPA free and leak proof. The powder coat finish is sweat free and easy to grip. Fits most cup holders. Free shipping on orders over $50.';
const ZH = '24小时保冷，12小时保温。采用18/8不锈钢，不含双酚A，防漏设计。粉末涂层表面防滑好握。适合大多数杯架。';
const PT =
  'Mantém bebidas geladas por 24 horas e quentes por 12 horas. Feita de aço inoxidável, é livre de BPA e não vaza. O acabamento é antiderrapante e fácil de segurar.';
const DESCRIPTIONS = { en: EN, zh: ZH, pt: PT } as const;

describe('splitting the user’s own script', () => {
  it('numbers trimmed lines from 1 and drops blank ones, whatever the line ends', () => {
    expect(splitScript('  First line \n\n\t\nSecond\r\n\r\nThird  \rFourth')).toEqual([
      { segId: 1, segText: 'First line' },
      { segId: 2, segText: 'Second' },
      { segId: 3, segText: 'Third' },
      { segId: 4, segText: 'Fourth' },
    ]);
  });

  it('gives nothing for blank text and keeps a single line whole', () => {
    expect(splitScript(' \n \r\n ')).toEqual([]);
    expect(splitScript('只有一行，不拆开。还是一行')).toEqual([{ segId: 1, segText: '只有一行，不拆开。还是一行' }]);
  });
});

describe('speaking-time estimate', () => {
  it('reads 2.5 words a second in en/pt and 4 Han characters a second in zh', () => {
    expect(speechSeconds('one two three four five', 'en')).toBeCloseTo(2);
    expect(speechSeconds('um dois três quatro cinco', 'pt')).toBeCloseTo(2);
    expect(speechSeconds('一二三四五六七八', 'zh')).toBeCloseTo(2);
    expect(speechSeconds('这是USB-C接口', 'zh')).toBeCloseTo(4 / 4 + 1 / 2.5);
  });
});

describe('product description as script', () => {
  it('reads the description sentence by sentence until the video is full', () => {
    const segments = descriptionScript({ productName: 'Bottle', productDescription: EN }, { language: 'en', videoLength: 15 });
    expect(segments.map((s) => s.segText)).toEqual([
      'Keeps drinks cold for 24 hours and hot for 12 hours.',
      'Made of 18/8 stainless steel, it is BPA free and leak proof.',
      'The powder coat finish is sweat free and easy to grip.',
    ]);
    expect(scriptSeconds(segments, 'en')).toBeLessThanOrEqual(15);
    const all = descriptionScript({ productName: 'Bottle', productDescription: EN }, { language: 'en', videoLength: 45 });
    expect(all.map((s) => s.segId)).toEqual([1, 2, 3, 4, 5]);
  });

  it('splits Chinese at its own full stops and falls back to the name without a description', () => {
    expect(
      descriptionScript({ productName: '杯子', productDescription: ZH }, { language: 'zh', videoLength: 30 }).map((s) => s.segText),
    ).toEqual(['24小时保冷，12小时保温。', '采用18/8不锈钢，不含双酚A，防漏设计。', '粉末涂层表面防滑好握。', '适合大多数杯架。']);
    expect(descriptionScript({ productName: ' Bottle ', productDescription: '  ' }, { language: 'en', videoLength: 15 })).toEqual([
      { segId: 1, segText: 'Bottle' },
    ]);
  });
});

describe('the local script writer', () => {
  for (const language of ['en', 'zh', 'pt'] as const) {
    for (const videoLength of [15, 30, 45] as const) {
      it(`writes distinct ${language} variants sized to ${videoLength} s`, () => {
        const variants = writeScripts({
          productName: 'HydroPeak Bottle - 32 oz',
          productDescription: DESCRIPTIONS[language],
          language,
          videoLength,
          count: 3,
        });
        expect(variants).toHaveLength(3);
        expect(new Set(variants.map((v) => v.scriptId)).size).toBe(3);
        expect(new Set(variants.map((v) => v.segments[0]?.segText)).size).toBe(3);
        for (const { segments } of variants) {
          expect(segments.map((s) => s.segId)).toEqual(segments.map((_, i) => i + 1));
          expect(scriptSeconds(segments, language)).toBeGreaterThanOrEqual(videoLength * 0.8);
          expect(scriptSeconds(segments, language)).toBeLessThanOrEqual(videoLength * 1.2);
          expect(segments[0]?.segText).toContain('HydroPeak Bottle');
        }
      });
    }
  }

  it('draws benefits from the description’s facts, figures first, and leaves shop notices out', () => {
    const [first, second] = writeScripts({ productName: 'HydroPeak', productDescription: EN, language: 'en', videoLength: 30, count: 2 });
    const lines = first?.segments.map((s) => s.segText) ?? [];
    expect(lines[1]).toMatch(/24 hours|18\/8/);
    expect(lines).toContain('Fits most cup holders.');
    expect(lines.join(' ')).not.toMatch(/shipping/i);
    expect(second?.segments[1]?.segText).not.toBe(lines[1]);
  });

  it('writes Chinese without spaces between Chinese words, and does not put English facts in a Chinese script', () => {
    const [variant] = writeScripts({ productName: '保温杯', productDescription: EN, language: 'zh', videoLength: 15, count: 1 });
    const text = variant?.segments.map((s) => s.segText).join('') ?? '';
    expect(text).toMatch(/^[^a-z]*保温杯/);
    expect(text).not.toMatch(/[\u4e00-\u9fff] [\u4e00-\u9fff]/);
    expect(text).not.toMatch(/hours|steel/);
  });

  it('says a short name and refuses a count it cannot make distinct', () => {
    expect(shortName('Acme Bottle - 1L Stainless Steel, BPA free', 'en')).toBe('Acme Bottle');
    expect(shortName('', 'pt')).toBe('este produto');
    expect(() =>
      writeScripts({ productName: 'X', productDescription: '', language: 'en', videoLength: 15, count: MAX_VARIANTS + 1 }),
    ).toThrow(RangeError);
  });
});
