import { configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// The web tests share modules between files (isolate: false): no test leaves fake timers to the next.
afterEach(() => {
  vi.useRealTimers();
});

// A page's first render in a file loads and transforms its route's code: in CI, with the other projects running
// beside them on two cores, that can pass findBy's default second. findBy waits up to 5 s, as a person would.
configure({ asyncUtilTimeout: 5_000 });
