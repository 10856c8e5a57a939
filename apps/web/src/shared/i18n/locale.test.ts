import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { readSavedLocale, resolveLocale, saveLocale } from './locale';

afterEach(() => {
  Cookies.remove('reelsmith-locale', { path: '/' });
  localStorage.clear();
});

describe('resolveLocale', () => {
  it('takes the first supported candidate', () => {
    expect(resolveLocale('zh', 'pt')).toBe('zh');
    expect(resolveLocale(undefined, 'pt')).toBe('pt');
    expect(resolveLocale('fr', null, 'pt')).toBe('pt');
  });

  it('reads a region tag or odd casing as its language', () => {
    expect(resolveLocale('zh-CN')).toBe('zh');
    expect(resolveLocale(' PT-br ')).toBe('pt');
  });

  it('falls back to English', () => {
    expect(resolveLocale()).toBe('en');
    expect(resolveLocale(undefined, null, '', 'de')).toBe('en');
  });
});

describe('saved locale', () => {
  it('prefers the cookie over local storage', () => {
    Cookies.set('reelsmith-locale', 'zh');
    localStorage.setItem('reelsmith-locale', 'pt');
    expect(readSavedLocale()).toBe('zh');
  });

  it('uses local storage when there is no cookie, else English', () => {
    localStorage.setItem('reelsmith-locale', 'pt');
    expect(readSavedLocale()).toBe('pt');
    localStorage.clear();
    expect(readSavedLocale()).toBe('en');
  });

  it('skips an unsupported cookie value', () => {
    Cookies.set('reelsmith-locale', 'xx');
    localStorage.setItem('reelsmith-locale', 'pt');
    expect(readSavedLocale()).toBe('pt');
  });

  it('saves to both the cookie and local storage under the prefixed key', () => {
    saveLocale('pt');
    expect(Cookies.get('reelsmith-locale')).toBe('pt');
    expect(localStorage.getItem('reelsmith-locale')).toBe('pt');
  });

  it('follows the api prefix of the page', () => {
    const meta = document.createElement('meta');
    meta.name = 'api-prefix';
    meta.content = 'acme';
    document.head.append(meta);
    try {
      saveLocale('zh');
      expect(localStorage.getItem('acme-locale')).toBe('zh');
      expect(readSavedLocale()).toBe('zh');
    } finally {
      Cookies.remove('acme-locale', { path: '/' });
      meta.remove();
    }
  });
});
