import type { User } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';
import type { Session } from '../features/auth/session';
import { decideGuard, type GuardedRoute } from './guard';

const user = (status: User['status']): Session => ({
  state: 'signedIn',
  user: { userId: 'u1', username: 'ada', email: 'ada@example.com', avatarUrl: null, status },
});
const loading: Session = { state: 'loading' };
const signedOut: Session = { state: 'signedOut' };

const publicPage: GuardedRoute = { loginRequired: false, skipActivationCheck: false };
const openPage: GuardedRoute = { loginRequired: false, skipActivationCheck: true };
const privatePage: GuardedRoute = { loginRequired: true, skipActivationCheck: false };
const activationPage: GuardedRoute = { loginRequired: true, skipActivationCheck: true };

const path = '/dashboard/assets?sort=oldest';

describe('decideGuard', () => {
  it('waits for the session on every route that depends on the user', () => {
    expect(decideGuard(publicPage, loading, path)).toEqual({ kind: 'wait' });
    expect(decideGuard(privatePage, loading, path)).toEqual({ kind: 'wait' });
    expect(decideGuard(activationPage, loading, path)).toEqual({ kind: 'wait' });
  });

  it('renders a public route that skips the activation check without waiting', () => {
    expect(decideGuard(openPage, loading, path)).toEqual({ kind: 'render' });
  });

  it('sends a signed-out visitor of a login-required route to login, remembering the full path', () => {
    expect(decideGuard(privatePage, signedOut, path)).toEqual({ kind: 'redirect', to: '/account/login', remember: path });
    expect(decideGuard(activationPage, signedOut, '/account/activate')).toEqual({
      kind: 'redirect',
      to: '/account/login',
      remember: '/account/activate',
    });
  });

  it('lets a signed-out visitor see public routes', () => {
    expect(decideGuard(publicPage, signedOut, path)).toEqual({ kind: 'render' });
    expect(decideGuard(openPage, signedOut, path)).toEqual({ kind: 'render' });
  });

  it('sends an inactive user to activation, remembering the path, unless the route skips the check', () => {
    const activate = { kind: 'redirect', to: '/account/activate', remember: path };
    expect(decideGuard(privatePage, user('INACTIVE'), path)).toEqual(activate);
    expect(decideGuard(publicPage, user('INACTIVE'), path)).toEqual(activate);
    expect(decideGuard(activationPage, user('INACTIVE'), path)).toEqual({ kind: 'render' });
    expect(decideGuard(openPage, user('INACTIVE'), path)).toEqual({ kind: 'render' });
  });

  it('renders every route for an active user', () => {
    for (const route of [publicPage, openPage, privatePage, activationPage]) {
      expect(decideGuard(route, user('ACTIVE'), path)).toEqual({ kind: 'render' });
    }
  });
});
