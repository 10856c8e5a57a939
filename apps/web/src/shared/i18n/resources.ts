import { ERRORS, LOCALES, type Locale } from '@reelsmith/contract';

export type Messages = { [key: string]: unknown };

/**
 * Every `locales/{en,zh,pt}.json` under src is one namespace, named after the folder that holds it
 * (`features/auth/locales/zh.json` is namespace `auth`), so a feature brings its own texts.
 */
const files = import.meta.glob<Messages>('/src/**/locales/*.json', { eager: true, import: 'default' });

function namespaceOf(file: string): { namespace: string; locale: string } {
  const match = /([^/]+)\/locales\/([^/]+)\.json$/.exec(file);
  if (!match?.[1] || !match[2]) throw new Error(`Unexpected locale file ${file}`);
  return { namespace: match[1], locale: match[2] };
}

/** The service's error table is the `errors` namespace, so messages the client checks itself read exactly as the server's. */
const errorsIn = (locale: Locale): Messages => Object.fromEntries(Object.entries(ERRORS).map(([key, error]) => [key, error[locale]]));

export const resources = {} as Record<Locale, Record<string, Messages>>;
for (const locale of LOCALES) resources[locale] = { errors: errorsIn(locale) };

for (const [file, messages] of Object.entries(files)) {
  const { namespace, locale } = namespaceOf(file);
  const bundle = resources[locale as Locale];
  if (!bundle) throw new Error(`Locale file ${file} is for an unsupported locale`);
  bundle[namespace] = messages;
}

export const namespaces = Object.keys(resources.en);
