import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RouteError } from './RouteError';
import { RouteFrame } from './RouteFrame';
import { isRedirect, ROUTES, type RouteEntry } from './routes';

const toRouteObject = (route: RouteEntry): RouteObject =>
  isRedirect(route)
    ? { path: route.path, element: <Navigate to={route.redirect} replace /> }
    : { path: route.path, element: <RouteFrame route={route} /> };

/** The route table as react-router routes; exported so tests can mount it in a memory router. */
export const routeObjects: RouteObject[] = [{ errorElement: <RouteError />, children: ROUTES.map(toRouteObject) }];

export const router = createBrowserRouter(routeObjects);
