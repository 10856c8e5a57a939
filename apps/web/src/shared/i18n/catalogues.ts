import { ERRORS, isLocale, type Locale } from '@reelsmith/contract';
import type { BackendModule, ReadCallback } from 'i18next';

export type Messages = { [key: string]: unknown };

/**
 * Every `locales/{en,zh,pt}.json` under src is one namespace, named after the folder that holds it
 * (`features/auth/locales/zh.json` is namespace `auth`), so a feature brings its own texts. Each file is its own
 * chunk, fetched when its language and namespace are needed (decision "First-load bundle split").
 */
const files = import.meta.glob<Messages>('/src/**/locales/*.json', { import: 'default' });

export function namespaceOf(file: string): { namespace: string; locale: string } {
  const match = /([^/]+)\/locales\/([^/]+)\.json$/.exec(file);
  if (!match?.[1] || !match[2]) throw new Error(`Unexpected locale file ${file}`);
  return { namespace: match[1], locale: match[2] };
}

/** The service's error table is the `errors` namespace, so messages the client checks itself read exactly as the server's. */
export const errorsIn = (locale: Locale): Messages =>
  Object.fromEntries(Object.entries(ERRORS).map(([key, error]) => [key, error[locale]]));

const loaders = new Map(
  Object.entries(files).map(([file, load]) => {
    const { namespace, locale } = namespaceOf(file);
    return [`${locale}/${namespace}`, load];
  }),
);

/**
 * Namespaces only their own pages read, loaded when one of them first asks (react-i18next suspends the page until
 * then, as it waits for the page's code): the policies, and the tools and account pages no other page draws from.
 * The namespaces of link to video and of what its pages borrow (generation, avatar, brand kit, assets) load at
 * start, as the landing page needs them (decision "First-load bundle split").
 */
const ON_DEMAND = new Set(['policy', 'batch', 'billing', 'developers', 'webhooks', 'image', 'image-edit', 'invite', 'video']);

/** What the app loads before its first render: every namespace of the chosen language but the on-demand ones. */
export const STARTUP_NAMESPACES = [
  'errors',
  ...new Set([...loaders.keys()].map((key) => key.split('/')[1] ?? '').filter((ns) => ns && !ON_DEMAND.has(ns))),
];

/** An i18next backend reading the catalogues above. */
export const catalogueBackend: BackendModule = {
  type: 'backend',
  init: () => {},
  read(language: string, namespace: string, callback: ReadCallback) {
    if (namespace === 'errors' && isLocale(language)) return callback(null, errorsIn(language));
    const load = loaders.get(`${language}/${namespace}`);
    if (!load) return callback(new Error(`no catalogue ${language}/${namespace}`), false);
    load().then(
      (messages) => callback(null, messages),
      (error: Error) => callback(error, false),
    );
  },
};
