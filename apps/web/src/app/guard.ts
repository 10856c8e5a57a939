import type { Session } from '../features/auth/session';
import { PATHS } from '../shared/paths';

/** What the guard needs to know about a route. */
export interface GuardedRoute {
  loginRequired: boolean;
  skipActivationCheck: boolean;
}

export type GuardDecision =
  | { kind: 'wait' }
  | { kind: 'render' }
  /** Go elsewhere, remembering `path` so sign-in or activation can come back to it. */
  | { kind: 'redirect'; to: string; remember: string };

/**
 * The route guard of spec "Screens and routes". A login-required route without a user goes to login; a signed-in user who is
 * not ACTIVE goes to activation unless the route skips that check. Both remember the full path (`path` is
 * pathname + search). Until the session is known, only routes that depend on no user render.
 */
export function decideGuard(route: GuardedRoute, session: Session, path: string): GuardDecision {
  if (session.state === 'loading') {
    return route.loginRequired || !route.skipActivationCheck ? { kind: 'wait' } : { kind: 'render' };
  }
  if (session.state === 'signedOut') {
    return route.loginRequired ? { kind: 'redirect', to: PATHS.login, remember: path } : { kind: 'render' };
  }
  if (session.user.status !== 'ACTIVE' && !route.skipActivationCheck) {
    return { kind: 'redirect', to: PATHS.activate, remember: path };
  }
  return { kind: 'render' };
}
