import type { User } from '@reelsmith/contract';
import { useCallback, useRef } from 'react';
import { useNavigate } from 'react-router';
import { PATHS } from '../../shared/paths';
import { takeRedirect } from './redirect';

/**
 * Where a user goes once signed in: an inactive user to activation (the remembered path waits for after
 * activation), an active one to the remembered path, else home. Runs once per page, so a re-render cannot
 * consume the remembered path twice.
 */
export function useAfterSignIn(): (user: User) => void {
  const navigate = useNavigate();
  const done = useRef(false);
  return useCallback(
    (user: User) => {
      if (done.current) return;
      done.current = true;
      if (user.status !== 'ACTIVE') navigate(PATHS.activate, { replace: true });
      else navigate(takeRedirect() ?? PATHS.home, { replace: true });
    },
    [navigate],
  );
}
