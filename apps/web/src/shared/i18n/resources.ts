import { LOCALES, type Locale } from '@reelsmith/contract';
import { errorsIn, type Messages, namespaceOf } from './catalogues';

export type { Messages };

/**
 * Every catalogue of every language at once, for the tests that compare languages. The app itself loads one language
 * through catalogues.ts (decision "First-load bundle split").
 */
const files = import.meta.glob<Messages>('/src/**/locales/*.json', { eager: true, import: 'default' });

export const resources = {} as Record<Locale, Record<string, Messages>>;
for (const locale of LOCALES) resources[locale] = { errors: errorsIn(locale) };

for (const [file, messages] of Object.entries(files)) {
  const { namespace, locale } = namespaceOf(file);
  const bundle = resources[locale as Locale];
  if (!bundle) throw new Error(`Locale file ${file} is for an unsupported locale`);
  bundle[namespace] = messages;
}

export const namespaces = Object.keys(resources.en);
