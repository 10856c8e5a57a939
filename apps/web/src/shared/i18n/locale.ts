import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE_DAYS, type Locale, localeKey } from '@reelsmith/contract';
import Cookies from 'js-cookie';
import { apiPrefix } from '../prefix';

/** How each language names itself in the switch, and the tag for `<html lang>`. */
export const LANGUAGES: Record<Locale, { name: string; htmlLang: string }> = {
  en: { name: 'English', htmlLang: 'en' },
  zh: { name: '简体中文', htmlLang: 'zh-CN' },
  pt: { name: 'Português', htmlLang: 'pt' },
};

/** The first supported locale among the candidates (a region such as `zh-CN` counts as its language), else the default. */
export function resolveLocale(...candidates: (string | null | undefined)[]): Locale {
  for (const candidate of candidates) {
    const language = candidate?.trim().toLowerCase().split('-')[0];
    if (isLocale(language)) return language;
  }
  return DEFAULT_LOCALE;
}

/** The saved choice: the cookie first (the server reads it too), then local storage. */
export function readSavedLocale(): Locale {
  const key = localeKey(apiPrefix());
  return resolveLocale(Cookies.get(key), localStorage.getItem(key));
}

export function saveLocale(locale: Locale): void {
  const key = localeKey(apiPrefix());
  Cookies.set(key, locale, { expires: LOCALE_COOKIE_DAYS, path: '/', sameSite: 'Lax' });
  localStorage.setItem(key, locale);
}
