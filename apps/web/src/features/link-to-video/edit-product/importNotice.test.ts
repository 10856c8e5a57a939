import type { MediaImportReport } from '@reelsmith/contract';
import i18next, { type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import pt from '../locales/pt.json';
import zh from '../locales/zh.json';
import { importNotice } from './importNotice';

const CATALOGUES = { en, zh, pt };

async function tIn(language: keyof typeof CATALOGUES): Promise<TFunction<'link-to-video'>> {
  const instance = i18next.createInstance();
  await instance.init({ lng: language, ns: ['link-to-video'], resources: { [language]: { 'link-to-video': CATALOGUES[language] } } });
  return instance.getFixedT(language, 'link-to-video');
}

const report = (change: Partial<MediaImportReport>): MediaImportReport => ({
  imagesFound: 0,
  imagesFailed: 0,
  videosFound: 0,
  videosFailed: 0,
  ...change,
});

describe('what an analysis could not import', () => {
  it('says how many pictures, videos or both, and why, in each language', async () => {
    const [t, tZh, tPt] = await Promise.all([tIn('en'), tIn('zh'), tIn('pt')]);
    const refused = report({ imagesFound: 3, imagesFailed: 3, failure: 'refused' });
    expect(importNotice(refused, false, t)).toBe('3 pictures could not be imported: the shop refused the download.');
    expect(importNotice(refused, false, tZh)).toBe('3 张图片无法导入：商店拒绝了下载。');
    expect(importNotice(refused, false, tPt)).toBe('3 imagens não puderam ser importadas: a loja recusou o download.');
    expect(importNotice(report({ imagesFound: 2, imagesFailed: 1, failure: 'storageFull' }), true, t)).toBe(
      '1 picture could not be imported: your storage is full.',
    );
    expect(importNotice(report({ videosFound: 1, videosFailed: 1, failure: 'unreachable' }), false, t)).toBe(
      '1 video could not be imported: the shop could not be reached.',
    );
    expect(
      importNotice(report({ imagesFound: 4, imagesFailed: 2, videosFound: 1, videosFailed: 1, failure: 'unusable' }), false, tPt),
    ).toBe(
      '3 imagens e vídeos não puderam ser importados: não são imagens que possam ser usadas (formato, tamanho ou arquivo danificado).',
    );
  });

  it('says the page had no pictures while the product has none, and nothing when all came or nothing was analysed', async () => {
    const t = await tIn('en');
    expect(importNotice(report({}), false, t)).toBe('The page has no pictures.');
    expect(importNotice(report({}), true, t)).toBeNull();
    expect(importNotice(report({ imagesFound: 4 }), false, t)).toBeNull();
    expect(importNotice(null, false, t)).toBeNull();
  });
});
