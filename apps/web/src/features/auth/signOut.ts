import { SHELL_ROUTES, type usersLogout } from '@reelsmith/contract';
import { apiRoute } from '../../shared/api/client';
import { i18n } from '../../shared/i18n/i18n';
import { toast } from '../../shared/ui/toast';

/** Ends the session, says so, then reloads so every piece of state starts over signed out (spec "States and transitions"). */
export async function signOut(): Promise<void> {
  await apiRoute<typeof usersLogout>(SHELL_ROUTES.usersLogout);
  await toast.success(i18n.t('auth:signOut.done'), 1);
  window.location.reload();
}
