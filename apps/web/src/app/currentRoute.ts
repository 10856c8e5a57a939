import { createContext, use } from 'react';
import type { PageRoute } from './routes';

export const CurrentRoute = createContext<PageRoute | null>(null);

/** The route table entry of the page being shown. */
export function useCurrentRoute(): PageRoute {
  const route = use(CurrentRoute);
  if (!route) throw new Error('useCurrentRoute is used outside a RouteFrame');
  return route;
}
