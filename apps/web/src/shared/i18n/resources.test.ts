import { LOCALES } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';
import { namespaces, resources } from './resources';

/** Every leaf of a message tree as a dotted path; an array is one leaf (its length may differ by language). */
function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) {
    found.set(prefix, tree);
    return found;
  }
  for (const [key, value] of Object.entries(tree)) {
    for (const [path, leaf] of leaves(value, prefix ? `${prefix}.${key}` : key)) found.set(path, leaf);
  }
  return found;
}

describe('i18n resources', () => {
  it('has the namespaces of every feature, including the service errors', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['shared', 'app', 'auth', 'shell', 'link-to-video', 'policy', 'errors']));
  });

  it.each(LOCALES)('%s has every namespace', (locale) => {
    expect(Object.keys(resources[locale]).sort()).toEqual([...namespaces].sort());
  });

  // Customers are told what they get; what to configure is the operator's, said in the README and at start-up
  // (decision "Stand-ins are free"). The terms of use name the operator as a party, so they are not walked.
  it.each(LOCALES)('%s tells users nothing meant for the operator: no setting, no README', (locale) => {
    const forOperators = /README|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\boperator\b|运营方|\boperador\b/;
    const found = namespaces
      .filter((namespace) => namespace !== 'policy')
      .flatMap((namespace) =>
        [...leaves(resources[locale][namespace])]
          .filter(([, leaf]) => forOperators.test(String(leaf)))
          .map(([path]) => `${namespace}:${path}`),
      );
    expect(found).toEqual([]);
  });

  describe.each(namespaces)('namespace %s', (namespace) => {
    const english = leaves(resources.en[namespace]);

    it.each(LOCALES.filter((locale) => locale !== 'en'))('%s has exactly the English keys', (locale) => {
      expect([...leaves(resources[locale][namespace]).keys()].sort()).toEqual([...english.keys()].sort());
    });

    it.each(LOCALES)('%s has no empty text', (locale) => {
      for (const [path, leaf] of leaves(resources[locale][namespace])) {
        const empty = leaf === '' || (Array.isArray(leaf) && leaf.length === 0);
        expect(empty, `${locale}:${namespace}:${path}`).toBe(false);
      }
    });
  });
});
