import { Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { lazyNamed } from '../shared/lazyNamed';
import { RouteFrame } from './RouteFrame';
import { isRedirect, ROUTES, type RouteEntry } from './routes';

const toRouteObject = (route: RouteEntry): RouteObject =>
  isRedirect(route)
    ? { path: route.path, element: <Navigate to={route.redirect} replace /> }
    : { path: route.path, element: <RouteFrame route={route} /> };

// Rarely shown, and antd's Result brings large illustrations: loaded only when a page fails (decision "First-load bundle split").
const RouteError = lazyNamed(() => import('./RouteError'), 'RouteError');

/** The route table as react-router routes; exported so tests can mount it in a memory router. */
export const routeObjects: RouteObject[] = [
  {
    errorElement: (
      <Suspense>
        <RouteError />
      </Suspense>
    ),
    children: ROUTES.map(toRouteObject),
  },
];

export const router = createBrowserRouter(routeObjects);
