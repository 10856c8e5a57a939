import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './app/global.css';
import { AppProviders } from './app/providers/AppProviders';
import { applyThemeColors } from './app/providers/theme';
import { router } from './app/router';
import { useSession } from './features/auth/session';
import { followSessionCredits } from './features/credits/credits';

applyThemeColors(document.documentElement);
// Listening before the first /users/me answer, so an active user's credits load as soon as it arrives (spec "States and transitions").
followSessionCredits();
// Who is signed in drives the guard; ask once, before the first page decides anything.
useSession.getState().loadUser();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
