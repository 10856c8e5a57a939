import type { User } from '@reelsmith/contract';
import { configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers/AppProviders';
import { routeObjects } from '../app/router';
import { useSession } from '../features/auth/session';
import { followSessionCredits } from '../features/credits/credits';

// The first mount of antd's styles in jsdom can take seconds; wait for the screen that long.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has neither matchMedia nor ResizeObserver; antd's responsive helpers and avatar ask them.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

// jsdom's getComputedStyle knows no pseudo-elements; antd's table and modal ask for the scrollbar's and would log "Not implemented".
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computedStyle(element);

export const userWith = (status: User['status']): User => ({
  userId: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  avatarUrl: null,
  status,
});

// As in main.tsx: an active user's credits load with the session.
followSessionCredits();

type Answer = { status?: number; body: unknown };
/**
 * Stubs fetch with answers by API path (after /reelsmith/api), and records the calls; a function answer gets the
 * JSON body sent and the query.
 */
export function stubApi(answers: Record<string, Answer | ((body: unknown, query: URLSearchParams) => Answer)>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace('/reelsmith/api', '');
      calls.push(`${path}${url.search}`);
      const entry = answers[path];
      const answer =
        typeof entry === 'function'
          ? entry(init?.body ? JSON.parse(String(init.body)) : undefined, url.searchParams)
          : (entry ?? { status: 404, body: { code: 404, message: 'Not found.', data: null } });
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

export const ok = (data: unknown): Answer => ({ body: { code: 0, message: 'ok', data } });

/** Mounts the whole app at `path` with the given session. */
export function renderApp(path: string, user: User | null) {
  // Signed out first, so whatever an earlier test left (the same user's credits) is forgotten.
  useSession.getState().setUser(null);
  useSession.getState().setUser(user);
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  const view = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...view };
}
