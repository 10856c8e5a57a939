import type { User } from '@reelsmith/contract';
import { configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers/AppProviders';
import { routeObjects } from '../app/router';
import { useSession } from '../features/auth/session';

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

export const userWith = (status: User['status']): User => ({
  userId: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  avatarUrl: null,
  status,
});

type Answer = { status?: number; body: unknown };
/** Stubs fetch with answers by API path (after /reelsmith/api), and records the calls. */
export function stubApi(answers: Record<string, Answer | (() => Answer)>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace('/reelsmith/api', '');
      calls.push(`${path}${url.search}`);
      const entry = answers[path];
      const answer =
        typeof entry === 'function' ? entry() : (entry ?? { status: 404, body: { code: 404, message: 'Not found.', data: null } });
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

export const ok = (data: unknown): Answer => ({ body: { code: 0, message: 'ok', data } });

/** Mounts the whole app at `path` with the given session. */
export function renderApp(path: string, user: User | null) {
  useSession.getState().setUser(user);
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  const view = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...view };
}
