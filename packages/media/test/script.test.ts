import { describe, expect, it } from 'vitest';
import {
  descriptionScript,
  MAX_VARIANTS,
  planScripts,
  type ScriptBrief,
  scriptSeconds,
  shortName,
  speechSeconds,
  splitScript,
  writeScripts,
} from '../src/index.js';
import { COPY } from '../src/script/angles.js';

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
          // Three facts fill even 45 s to three quarters; the claim-free lines fill the rest.
          expect(scriptSeconds(segments, language)).toBeGreaterThanOrEqual(videoLength * 0.75);
          expect(scriptSeconds(segments, language)).toBeLessThanOrEqual(videoLength * 0.95);
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
    // Cut at whole words, before the details: a connector or a measure, never inside a Chinese word.
    expect(shortName('Moletom Feminino Cassia com Gola Funil', 'pt')).toBe('Moletom Feminino Cassia');
    expect(shortName('Camiseta Básica Masculina 100% Algodão', 'pt')).toBe('Camiseta Básica Masculina');
    expect(shortName('Apple iPhone 15 Pro Max 256GB', 'en')).toBe('Apple iPhone 15 Pro Max');
    expect(shortName("Women's High Waist Ripped Skinny Stretch Jeans", 'en')).toBe('Ripped Skinny Stretch Jeans');
    expect(shortName('女士高腰破洞修身牛仔裤', 'zh')).toBe('破洞修身牛仔裤');
    expect(() =>
      writeScripts({ productName: 'X', productDescription: '', language: 'en', videoLength: 15, count: MAX_VARIANTS + 1 }),
    ).toThrow(RangeError);
  });
});

/** A hoodie page as shops write them: a long sentence, a fragment, short bullets, a shop notice. */
const HOODIE =
  'Gray and black color blocking sets you apart as the Hero Hoodie keeps you warm on the bus, campus or cold mean streets. ' +
  'On colder-than-comfortable mornings. Slanted outsize front pockets keep your style real and convenient. ' +
  'Ribbed hem. Standard fit. Water-resistant coating. Free shipping and returns.';
const PAGES: Record<'en' | 'zh' | 'pt', Omit<ScriptBrief, 'videoLength' | 'count'>> = {
  en: { productName: 'Hero Hoodie - Full Zip', productDescription: HOODIE, productBrand: 'Luma', language: 'en' },
  zh: {
    productName: '女士高腰破洞修身牛仔裤',
    productDescription: '高腰修身版型，提臀显腿长。精选弹力棉质牛仔布，久坐不紧绷，洗后不变形。浅蓝、深蓝和烟灰三色可选。',
    productBrand: '蓝岸',
    language: 'zh',
  },
  pt: { productName: 'Calça Jeans Skinny Feminina', productDescription: PT, productBrand: 'Praia Norte', language: 'pt' },
};
const OFFER = {
  en: { price: '54.00', currency: 'USD', listPrice: '69.00' },
  zh: { price: '259.00', currency: 'CNY' },
  pt: { price: '59.90', currency: 'BRL' },
};
const RATING = { value: 4.6, count: 1284 };

/** Said words a line may carry from the page: "$54", "R$ 59,90", "4,6", "1.284". */
const normal = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\s.,，。、!！?？:：;；]+/gu, ' ')
    .trim();

describe('the local writer says only what the page says (decision "Scripts from page facts")', () => {
  for (const language of ['en', 'zh', 'pt'] as const) {
    it(`${language}: every line has a source, description lines are the page's own words, the rest claim nothing`, () => {
      const page = PAGES[language];
      const claimFree = new Set(
        [...COPY[language].fillers, ...COPY[language].angles.map((a) => a.callToAction)].map((t) => t.replace(/\{\w+\}.*$/u, '')),
      );
      for (const videoLength of [15, 30, 45] as const) {
        for (const { lines } of planScripts({ ...page, offer: OFFER[language], rating: RATING, videoLength, count: 5 })) {
          for (const line of lines) {
            expect(line.sources.length).toBeGreaterThan(0);
            if (line.sources.includes('description')) {
              // A fact, or a list of the page's bullets: every part of it is in the description.
              for (const part of line.text.split(/, | and | e |，/u)) expect(normal(page.productDescription)).toContain(normal(part));
            }
            if (line.sources.includes('none')) expect([...claimFree].some((start) => line.text.startsWith(start))).toBe(true);
          }
        }
      }
    });

    it(`${language}: no social proof without reviews, no price without an offer`, () => {
      const scripts = planScripts({ ...PAGES[language], videoLength: 45, count: 5 });
      const said = scripts.flatMap((s) => s.lines.map((l) => l.text)).join('\n');
      expect(scripts.map((s) => s.angle)).not.toContain('reviews');
      expect(scripts.map((s) => s.angle)).not.toContain('offer');
      expect(said).not.toMatch(/review|rated|avalia|nota \d|评价|评分|people|pessoas|大家|everyone|todo mundo/iu);
      expect(said).not.toMatch(/[$¥€]|R\$|USD|BRL|CNY|%/u);
      const rich = planScripts({ ...PAGES[language], offer: OFFER[language], rating: RATING, videoLength: 15, count: 5 });
      expect(rich.map((s) => s.angle)).toEqual(expect.arrayContaining(['problem', 'features', 'offer', 'reviews']));
      // The price is said in every script, the review summary in the social-proof one.
      for (const { lines } of rich) expect(lines.some((l) => l.sources.includes('offer'))).toBe(true);
      const reviews = rich.find((s) => s.angle === 'reviews')?.lines[0]?.text ?? '';
      expect(reviews).toMatch(language === 'pt' ? /4,6.*1\.284/u : /4\.6|1,284|1284/u);
    });
  }

  it('opens a sale with its price before and after, and says the discount', () => {
    const [sale] = planScripts({ ...PAGES.en, offer: OFFER.en, videoLength: 15, count: 1 });
    expect(sale?.angle).toBe('offer');
    expect(sale?.lines.slice(0, 2).map((l) => l.text)).toEqual(['Hero Hoodie, now $54 instead of $69.', 'That is 22% off.']);
  });

  it('says complete sentences: no fragment cut from a sentence, short bullets said together, shop notices left out', () => {
    const said = planScripts({ ...PAGES.en, videoLength: 45, count: 3 }).flatMap((s) => s.lines.map((l) => l.text));
    expect(said).not.toContain('On colder-than-comfortable mornings.');
    expect(said.join(' ')).not.toMatch(/campus or cold|shipping/u);
    expect(said).toContain('Ribbed hem, standard fit and water-resistant coating.');
    for (const line of said) expect(line).toMatch(/^[A-Z$].*[.?!]$/u);
  });

  it('keeps the grammar rules of each language (decision "Scripts from page facts")', () => {
    for (const language of ['en', 'zh', 'pt'] as const) {
      for (const videoLength of [15, 45] as const) {
        const page = { ...PAGES[language], offer: OFFER[language], rating: RATING, videoLength, count: 5 };
        const said = planScripts(page).flatMap((s) => s.lines.map((l) => l.text));
        if (language === 'pt') {
          // No article, pronoun or adjective that must agree with the product's gender, which the writer cannot know.
          const own = said.filter((line) => !normal(PT).includes(normal(line)));
          expect(own.join('\n')).not.toMatch(/\b(?:este é|esta é|o seu|a sua|o novo|a nova|ele|ela|garanta o|garanta a|dele|dela)\b/iu);
          expect(own.join('\n')).not.toMatch(/\btu\b|\bvós\b/iu);
        }
        if (language === 'zh') {
          const text = said.join('');
          expect(text).not.toMatch(/\s[，。！？：；、]/u);
          expect(text).not.toMatch(/[\u4e00-\u9fff] [\u4e00-\u9fff]/u);
          expect(text).not.toMatch(/[,.!?;:](?=[\u4e00-\u9fff])/u);
          expect(text).not.toContain('牛仔。');
        }
        for (const line of said) expect(line).not.toMatch(/\s{2}|\s[.,!?]/u);
      }
    }
  });

  it('fills a page rich in facts to the slot, and a page with none without repeating itself', () => {
    for (const language of ['en', 'zh', 'pt'] as const) {
      for (const videoLength of [15, 30, 45] as const) {
        const rich = writeScripts({ ...PAGES[language], offer: OFFER[language], videoLength, count: 3 });
        for (const { segments } of rich) {
          expect(scriptSeconds(segments, language)).toBeGreaterThanOrEqual(videoLength * 0.75);
          expect(scriptSeconds(segments, language)).toBeLessThanOrEqual(videoLength * 0.95);
        }
        const bare = writeScripts({ productName: 'X1', productDescription: '', language, videoLength, count: 3 });
        for (const { segments } of bare) {
          expect(new Set(segments.map((s) => s.segText)).size).toBe(segments.length);
          expect(scriptSeconds(segments, language)).toBeLessThanOrEqual(videoLength * 0.95);
        }
      }
    }
  });
});

describe('the local writer says the page facts link analysis found (decision "Product facts")', () => {
  const FACTS = {
    en: {
      features: ['LONG BATTERY: Plays for 30 hours on one charge.', 'Pairs with two phones at once.'],
      materials: ['Recycled aluminium', 'Silicone'],
    },
    zh: { features: ['【超长续航】一次充电可播放30小时。', '可同时连接两部手机。'], materials: ['再生铝', '硅胶'] },
    pt: {
      features: ['BATERIA LONGA: Toca por 30 horas com uma carga.', 'Conecta com dois celulares ao mesmo tempo.'],
      materials: ['Alumínio reciclado', 'Silicone'],
    },
  };
  const NAMES = { en: 'Pulse Mini Speaker', zh: '迷你蓝牙音箱', pt: 'Caixa de Som Pulse Mini' };

  for (const language of ['en', 'zh', 'pt'] as const) {
    it(`${language}: says the feature bullets, without their shouted heading, and what the product is made of`, () => {
      const brief = { productName: NAMES[language], productDescription: '', language, pageLanguage: language, ...FACTS[language] };
      for (const videoLength of [15, 30, 45] as const) {
        const scripts = planScripts({ ...brief, offer: OFFER[language], rating: RATING, videoLength, count: 5 });
        for (const { angle, lines } of scripts) {
          const features = lines.filter((l) => l.sources.includes('features'));
          // A feature tour says them at any length; at 30 s and more, every script does.
          if (angle === 'features' || videoLength > 15) expect(features.length).toBeGreaterThan(0);
          // Every feature line is the page's own words.
          for (const l of features) expect(FACTS[language].features.map(normal).join(' ')).toContain(normal(l.text));
          expect(lines.map((l) => l.text).join(' ')).not.toMatch(/LONG BATTERY|BATERIA LONGA|【/u);
        }
        const said = scripts.flatMap((s) => s.lines.map((l) => l.text));
        expect(said).toContain(
          { en: 'Plays for 30 hours on one charge.', zh: '一次充电可播放30小时。', pt: 'Toca por 30 horas com uma carga.' }[language],
        );
        if (videoLength === 45) {
          expect(said).toContain(
            {
              en: 'It is made of recycled aluminium and silicone.',
              zh: '材质：再生铝、硅胶。',
              pt: 'Material: alumínio reciclado e silicone.',
            }[language],
          );
        }
      }
    });
  }

  it("leaves out bullets and materials in another language than the script's, and says a description's fact once", () => {
    const english = planScripts({
      productName: '迷你音箱',
      productDescription: '',
      language: 'zh',
      pageLanguage: 'en',
      ...FACTS.en,
      videoLength: 45,
      count: 2,
    });
    for (const { lines } of english)
      expect(lines.some((l) => l.sources.includes('features') || l.sources.includes('materials'))).toBe(false);
    const twice = planScripts({
      productName: NAMES.en,
      productDescription: 'Plays for 30 hours on one charge. Pairs with two phones at once.',
      language: 'en',
      features: FACTS.en.features,
      videoLength: 45,
      count: 1,
    });
    const said = twice[0]?.lines.map((l) => l.text) ?? [];
    expect(said.filter((text) => text === 'Plays for 30 hours on one charge.')).toHaveLength(1);
  });
});
