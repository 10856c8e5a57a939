// No English left in the Chinese and Portuguese catalogues: a value equal to the English one, with words in it, is
// a string someone forgot to translate ("Prompt" on a pt screen). Read from the files themselves, with the service's
// error table, so a catalogue added anywhere is walked too.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERRORS } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Values that are the same word in the other language, or names: brand and product names, an example address,
 * and Portuguese words spelled as in English.
 */
const SAME_IN: Record<'zh' | 'pt', ReadonlySet<string>> = {
  zh: new Set(['Reelsmith', 'you@example.com']),
  pt: new Set(['Reelsmith', 'you@example.com', 'Status', 'Perfume', 'Avatar', 'Pro']),
};

type Tree = { [key: string]: Tree | string | string[] };

function leaves(tree: Tree | string | string[], prefix = ''): [string, string][] {
  if (typeof tree === 'string') return [[prefix, tree]];
  if (Array.isArray(tree)) return tree.map((value, i) => [`${prefix}.${i}`, value]);
  return Object.entries(tree).flatMap(([key, value]) => leaves(value, prefix ? `${prefix}.${key}` : key));
}

/** Every folder under src that holds a locales/en.json. */
function catalogueDirs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory()) return [];
    const path = join(dir, entry.name);
    return entry.name === 'locales' ? [path] : catalogueDirs(path);
  });
}

const read = (dir: string, locale: string) => JSON.parse(readFileSync(join(dir, `${locale}.json`), 'utf8')) as Tree;
/** Words, once placeholders are taken out: a value of numbers and symbols needs no translation. */
const hasWords = (value: string) => /[A-Za-z]{2,}/.test(value.replace(/\{\{[^}]+\}\}/g, ''));

function untranslated(locale: 'zh' | 'pt'): string[] {
  const found: string[] = [];
  for (const dir of catalogueDirs(SRC)) {
    const english = new Map(leaves(read(dir, 'en')));
    for (const [path, value] of leaves(read(dir, locale))) {
      if (value === english.get(path) && hasWords(value) && !SAME_IN[locale].has(value))
        found.push(`${relative(SRC, dir)}:${path} "${value}"`);
    }
  }
  const errors: [string, Record<'en' | 'zh' | 'pt', string>][] = Object.entries(ERRORS);
  for (const [key, entry] of errors) {
    if (entry[locale] === entry.en && hasWords(entry.en)) found.push(`errors:${key} "${entry.en}"`);
  }
  return found;
}

describe('no English left in the other catalogues', () => {
  it('walks the catalogues of every feature', () => {
    expect(catalogueDirs(SRC).length).toBeGreaterThan(10);
  });

  it.each(['zh', 'pt'] as const)('%s has no value left in English', (locale) => {
    expect(untranslated(locale)).toEqual([]);
  });
});
