import { describe, expect, it } from 'vitest';
import { emptyProduct, newProject, type Project } from '../project/types';
import { videoLanguage } from './defaults';

const project = (name: string, pageLanguage?: string, chosen?: 'en' | 'zh' | 'pt'): Project => ({
  ...newProject('p1', 'https://shop.example/p'),
  editorConfig: chosen ? { language: chosen } : {},
  product: { ...emptyProduct(), productName: name, productFacts: pageLanguage ? { language: pageLanguage } : null },
});

describe('the language a video is spoken in', () => {
  it("is the editor's choice, else the page's own language when we speak it, else the product text's", () => {
    expect(videoLanguage(project('Running Shoe', 'pt'))).toBe('pt');
    expect(videoLanguage(project('Running Shoe', 'pt', 'en'))).toBe('en');
    // A language we do not speak leaves it to the text.
    expect(videoLanguage(project('女士高腰修身牛仔裤', 'ja'))).toBe('zh');
    expect(videoLanguage(project('The running shoe for your daily miles'))).toBe('en');
  });
});
