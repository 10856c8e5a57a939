import { type PointsAccount, type pointsAccount, type pointsRefresh, SHELL_ROUTES } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRoute } from '../../shared/api/client';
import { callKey } from '../../shared/api/queries';
import { appQueryClient } from '../../shared/api/queryClient';
import { type Session, useSession } from '../auth';

// The credit balance of spec "Screens and routes"'s credit card is server data: it is held in the query cache, as
// all server data of the app is (decision "Server data in queries"). Only an ACTIVE user has one (spec "Roles and
// permissions").

const activeUserId = (session: Session): string | null =>
  session.state === 'signedIn' && session.user.status === 'ACTIVE' ? session.user.userId : null;

/**
 * The balance's key names the user it belongs to, so an answer for a user who has since signed out (or another who
 * signed in) is never shown; `callKey(SHELL_ROUTES.pointsAccount)` matches every user's.
 */
export const creditsKey = (userId: string) => [...callKey(SHELL_ROUTES.pointsAccount), userId] as const;

/**
 * The signed-in active user's points account, asked once when such a user is there (on start, or right after
 * activation, spec "States and transitions") and then only recounted by `refreshCredits`: it does not go stale by
 * itself. The shell's route, not the call: the header loads it on every page (decision "First-load bundle split").
 */
export function useCreditAccount(): { account: PointsAccount | null; loading: boolean } {
  const userId = useSession((store) => activeUserId(store.session));
  const query = useQuery({
    queryKey: creditsKey(userId ?? ''),
    queryFn: ({ signal }) => apiRoute<typeof pointsAccount>(SHELL_ROUTES.pointsAccount, { signal }),
    enabled: userId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { account: userId ? (query.data ?? null) : null, loading: query.isLoading };
}

/** Counts recounts, so one overtaken by a newer one does not land after it with an older balance. */
let latest = 0;

/**
 * Asks the service to recount the balance: tools call this after a charge, so the header shows what is left. A
 * read still under way is older than the recount and is dropped; a failed recount leaves the balance on screen (the
 * API client has shown why).
 */
export async function refreshCredits(): Promise<void> {
  const userId = activeUserId(useSession.getState().session);
  if (!userId) return;
  const queryClient = appQueryClient();
  const ticket = ++latest;
  await queryClient.cancelQueries({ queryKey: creditsKey(userId) });
  try {
    const account = await apiRoute<typeof pointsRefresh>(SHELL_ROUTES.pointsRefresh);
    if (ticket === latest) queryClient.setQueryData(creditsKey(userId), account);
  } catch {
    // The API client has shown why.
  }
}
