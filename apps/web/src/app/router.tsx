import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RouteError } from './RouteError';
import { RouteFrame } from './RouteFrame';
import { isRedirect, ROUTES, type RouteEntry } from './routes';

const toRouteObject = (route: RouteEntry): RouteObject =>
  isRedirect(route)
    ? { path: route.path, element: <Navigate to={route.redirect} replace /> }
    : { path: route.path, element: <RouteFrame route={route} /> };

export const router = createBrowserRouter([{ errorElement: <RouteError />, children: ROUTES.map(toRouteObject) }]);
