// The language a link-video is spoken in (decision "Product facts"): the editor's, else the page's when we speak it,
// else the one its text is written in.
import { describe, expect, it } from 'vitest';
import { languageOf } from '../src/modules/link-video/video/scripts.js';
import type { VideoSettings } from '../src/modules/link-video/video/source.js';

const settings = (language?: 'en' | 'zh' | 'pt') => ({ language }) as VideoSettings;
const product = (productName: string, language?: string) => ({
  productName,
  productDescription: '',
  ...(language && { productFacts: { language } }),
});

describe('languageOf', () => {
  it("takes the editor's choice, then the page's language, then the text's", () => {
    expect(languageOf(product('Running Shoe', 'pt'), settings())).toBe('pt');
    expect(languageOf(product('Running Shoe', 'pt'), settings('zh'))).toBe('zh');
    expect(languageOf(product('女士高腰修身牛仔裤', 'ja'), settings())).toBe('zh');
    expect(languageOf(product('The running shoe for your daily miles'), settings())).toBe('en');
  });
});
