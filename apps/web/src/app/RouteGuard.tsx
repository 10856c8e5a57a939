import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { rememberRedirect } from '../features/auth/redirect';
import { useSession } from '../features/auth/session';
import { Busy } from '../shared/ui/Busy';
import { decideGuard, type GuardedRoute } from './guard';

/** Applies decideGuard to the current address: shows the page, waits for the session, or redirects. */
export function RouteGuard({ route, children }: { route: GuardedRoute; children: ReactNode }) {
  const session = useSession((store) => store.session);
  const location = useLocation();
  const navigate = useNavigate();
  const decision = decideGuard(route, session, location.pathname + location.search);
  const to = decision.kind === 'redirect' ? decision.to : null;
  const remember = decision.kind === 'redirect' ? decision.remember : null;

  useEffect(() => {
    if (to === null || remember === null) return;
    rememberRedirect(remember);
    navigate(to, { replace: true });
  }, [to, remember, navigate]);

  return decision.kind === 'render' ? children : <Busy />;
}
