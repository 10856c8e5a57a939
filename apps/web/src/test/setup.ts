import { afterEach, vi } from 'vitest';

// The web tests share modules between files (isolate: false): no test leaves fake timers to the next.
afterEach(() => {
  vi.useRealTimers();
});
