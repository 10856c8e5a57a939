import { type logCollect, SHELL_ROUTES } from '@reelsmith/contract';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './app/global.css';
import { AppProviders } from './app/providers/AppProviders';
import { applyThemeColors } from './app/providers/theme';
import { router } from './app/router';
import { useSession } from './features/auth/session';
import { apiRoute } from './shared/api/client';
import { i18nReady } from './shared/i18n/i18n';
import { startClientLogs } from './shared/logs/clientLog';

applyThemeColors(document.documentElement);
// Client errors and failed calls go to the log collection endpoint, batched; its own failures are ignored.
startClientLogs((entries) => apiRoute<typeof logCollect>(SHELL_ROUTES.logCollect, { body: { entries }, silent: true }));
// Who is signed in drives the guard; ask once, before the first page decides anything.
useSession.getState().loadUser();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
// The first screen waits for its language's texts (a few KB), so it never shows message keys.
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  ),
);
