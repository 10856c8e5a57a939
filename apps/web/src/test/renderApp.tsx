import { type CSSObject, StyleProvider, type Transformer } from '@ant-design/cssinjs';
import type { User } from '@reelsmith/contract';
import { configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers/AppProviders';
import { routeObjects } from '../app/router';
import { useSession } from '../features/auth/session';
import { freshQueryClient } from '../shared/api/queryClient';

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

// jsdom does not scroll: a tool's history asks to bring the record of a task just submitted into view.
Element.prototype.scrollIntoView ??= () => {};

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

/**
 * antd writes thousands of style rules, and jsdom weighs every one of them on each getComputedStyle, which
 * testing-library's role queries call for every element they look at: that made a component test take
 * seconds. Tests only need to know whether an element is shown, so only display and visibility are kept
 * (nested selectors still recurse through this filter; keyframes go).
 */
const KEPT_PROPERTIES = new Set(['display', 'visibility']);
const shownOnly: Transformer = {
  visit: (style: CSSObject): CSSObject => {
    const kept: CSSObject = {};
    for (const [key, value] of Object.entries(style)) {
      const nested = typeof value === 'object' && value !== null && !Array.isArray(value) && !('_keyframe' in value);
      if (KEPT_PROPERTIES.has(key) || nested) Object.assign(kept, { [key]: value });
    }
    return kept;
  },
};

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
  // Signed out first, so whatever an earlier test left is forgotten.
  useSession.getState().setUser(null);
  useSession.getState().setUser(user);
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  const view = render(
    <StyleProvider transformers={[shownOnly]}>
      <AppProviders queryClient={freshQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>
    </StyleProvider>,
  );
  return { router, ...view };
}
