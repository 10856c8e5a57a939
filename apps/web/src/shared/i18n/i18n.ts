import { DEFAULT_LOCALE } from '@reelsmith/contract';
import dayjs from 'dayjs';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import 'dayjs/locale/pt';
import 'dayjs/locale/zh-cn';
import { LANGUAGES, readSavedLocale } from './locale';
import { namespaces, resources } from './resources';

/** Chosen once per page load: switching language saves the choice and reloads (spec "Screens and routes"). */
export const locale = readSavedLocale();

const DAYJS_LOCALES = { en: 'en', zh: 'zh-cn', pt: 'pt' } as const;

i18n.use(initReactI18next).init({
  lng: locale,
  fallbackLng: DEFAULT_LOCALE,
  resources,
  ns: namespaces,
  defaultNS: 'shared',
  initAsync: false,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
});

document.documentElement.lang = LANGUAGES[locale].htmlLang;
dayjs.locale(DAYJS_LOCALES[locale]);

export { i18n };
