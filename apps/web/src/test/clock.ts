import { configure, getConfig } from '@testing-library/react';
import { vi } from 'vitest';

/** Taken before any test fakes the timers. */
const realSetTimeout = globalThis.setTimeout;

/** Real time each try of a waitFor under the fake clock lets pass, so a page still loading its code keeps up. */
const REAL_MS_PER_TRY = 10;

// testing-library moves a fake clock on by its interval (50 ms) on every try of waitFor/findBy; each try also
// waits a little real time, so a wait of 10 s still gives a page loading its code 2 real seconds.
const inAct = getConfig().unstable_advanceTimersWrapper;
configure({
  unstable_advanceTimersWrapper: async (advance) => {
    const result = await inAct(advance);
    await new Promise((resolve) => realSetTimeout(resolve, REAL_MS_PER_TRY));
    return result;
  },
});

/**
 * Fake timers for a rendered test that waits on polling (polls come 2 s apart): the clock still moves with real
 * time, so antd's own timers run, and testing-library's waitFor/findBy move it on as they try, which they do for
 * fake timers they take for Jest's (they look for a global `jest`). A poll's pause then passes in a fifth of the
 * time. The web setup file puts real timers back after each test.
 */
export function fakeClock(): void {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
}
