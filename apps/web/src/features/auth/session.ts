import { type authSession, SHELL_ROUTES, type User } from '@reelsmith/contract';
import { create } from 'zustand';
import { apiRoute } from '../../shared/api/client';

/** Who is using the app; `loading` until the session call has answered once. */
export type Session = { state: 'loading' } | { state: 'signedOut' } | { state: 'signedIn'; user: User };

interface SessionStore {
  session: Session;
  setUser: (user: User | null) => void;
  /** Asks the service who is signed in (null when nobody is); a failure (no network) counts as signed out. */
  loadUser: () => Promise<User | null>;
}

export const useSession = create<SessionStore>((set, get) => ({
  session: { state: 'loading' },
  setUser: (user) => set({ session: user ? { state: 'signedIn', user } : { state: 'signedOut' } }),
  loadUser: async () => {
    const user = await apiRoute<typeof authSession>(SHELL_ROUTES.authSession, { silent: true }).catch(() => null);
    get().setUser(user);
    return user;
  },
}));

/** The signed-in user, or null. */
export const useUser = (): User | null => useSession((store) => (store.session.state === 'signedIn' ? store.session.user : null));
