import { configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { i18n, i18nReady } from '../shared/i18n/i18n';
import { resources } from '../shared/i18n/resources';

// The app renders once its language's catalogues are in (main.tsx); the tests also read every other language and
// the on-demand namespaces at once, as they did before catalogues were loaded per language.
await i18nReady;
for (const [locale, bundles] of Object.entries(resources)) {
  for (const [namespace, messages] of Object.entries(bundles)) i18n.addResourceBundle(locale, namespace, messages);
}

// The web tests share modules between files (isolate: false): no test leaves fake timers to the next.
afterEach(() => {
  vi.useRealTimers();
});

// A page's first render in a file loads and transforms its route's code: in CI, with the other projects running
// beside them on two cores, that can pass findBy's default second. findBy waits up to 5 s, as a person would.
configure({ asyncUtilTimeout: 5_000 });
