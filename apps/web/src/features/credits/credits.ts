import { type PointsAccount, type pointsAccount, type pointsRefresh, SHELL_ROUTES } from '@reelsmith/contract';
import { create } from 'zustand';
import { apiRoute } from '../../shared/api/client';
import { type Session, useSession } from '../auth';

export type CreditsStatus = 'idle' | 'loading' | 'ready' | 'failed';

interface CreditsStore {
  /** The signed-in active user's points account, once loaded. */
  account: PointsAccount | null;
  status: CreditsStatus;
}

/** The credit balance of spec "Screens and routes"'s credit card; only an ACTIVE user has one loaded (spec "Roles and permissions"). */
export const useCredits = create<CreditsStore>(() => ({ account: null, status: 'idle' }));

/**
 * Counts answers that must no longer land: an answer for a user who has since signed out, or one
 * overtaken by a newer request, would otherwise show a stale balance.
 */
let latest = 0;

// The shell's routes, not the calls: the header loads the balance on every page (decision "First-load bundle split").
async function fetchAccount(route: typeof SHELL_ROUTES.pointsAccount | typeof SHELL_ROUTES.pointsRefresh): Promise<void> {
  const ticket = ++latest;
  useCredits.setState((store) => ({ status: store.account ? store.status : 'loading' }));
  try {
    const account = await apiRoute<typeof pointsAccount | typeof pointsRefresh>(route);
    if (ticket === latest) useCredits.setState({ account, status: 'ready' });
  } catch {
    // The API client has shown why; a balance already on screen stays.
    if (ticket === latest) useCredits.setState((store) => ({ status: store.account ? 'ready' : 'failed' }));
  }
}

/** Reads the account as it stands. */
export const loadCredits = (): Promise<void> => fetchAccount(SHELL_ROUTES.pointsAccount);

/** Asks the service to recount the balance: tools call this after a charge, so the header shows what is left. */
export const refreshCredits = (): Promise<void> => fetchAccount(SHELL_ROUTES.pointsRefresh);

function forgetCredits(): void {
  latest++;
  useCredits.setState({ account: null, status: 'idle' });
}

const activeUserId = (session: Session): string | null =>
  session.state === 'signedIn' && session.user.status === 'ACTIVE' ? session.user.userId : null;

/**
 * Spec "States and transitions": when the user is ACTIVE (on start, or right after activation) the credit account is loaded;
 * when no active user remains it is forgotten. Returns the unsubscribe.
 */
export function followSessionCredits(): () => void {
  const follow = (session: Session, previous: Session | null) => {
    const userId = activeUserId(session);
    if (userId === (previous && activeUserId(previous))) return;
    if (userId) loadCredits();
    else forgetCredits();
  };
  follow(useSession.getState().session, null);
  return useSession.subscribe((store, before) => follow(store.session, before.session));
}
