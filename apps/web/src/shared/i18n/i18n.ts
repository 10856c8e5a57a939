import dayjs from 'dayjs';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import 'dayjs/locale/pt';
import 'dayjs/locale/zh-cn';
import { catalogueBackend, STARTUP_NAMESPACES } from './catalogues';
import { LANGUAGES, readSavedLocale } from './locale';

/** Chosen once per page load: switching language saves the choice and reloads (spec "Screens and routes"). */
export const locale = readSavedLocale();

const DAYJS_LOCALES = { en: 'en', zh: 'zh-cn', pt: 'pt' } as const;

/**
 * Resolves when the chosen language's startup catalogues are in; the app renders after it. Only that language is
 * fetched: no fallback language, since every language has exactly the English keys (resources.test.ts).
 */
export const i18nReady = i18n
  .use(initReactI18next)
  .use(catalogueBackend)
  .init({
    lng: locale,
    fallbackLng: false,
    ns: STARTUP_NAMESPACES,
    defaultNS: 'shared',
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });

document.documentElement.lang = LANGUAGES[locale].htmlLang;
dayjs.locale(DAYJS_LOCALES[locale]);

export { i18n };
