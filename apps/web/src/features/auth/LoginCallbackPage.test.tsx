import { ERRORS } from '@reelsmith/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, stubApi } from '../../test/renderApp';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the return from Google sign-in', () => {
  it('says why a sign-in was refused when the person can act on it, and stays until they go back', async () => {
    stubApi({ '/auth/config': ok({ google: true, devLogin: false }) });
    const { router } = renderApp('/account/login-callback?status=error&reason=accountBlocked', null);
    expect(await screen.findByText(ERRORS.accountBlocked.en)).toBeTruthy();
    expect(screen.queryByText(ERRORS.loginFailed.en)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/login'));
  });

  it('says it for an unverified e-mail and an account that cannot be joined too', async () => {
    for (const reason of ['emailNotVerified', 'identityConflict'] as const) {
      renderApp(`/account/login-callback?status=error&reason=${reason}`, null);
      expect(await screen.findByText(ERRORS[reason].en)).toBeTruthy();
      cleanup();
    }
  });

  it('shows only the generic failure for a reason it does not know (a link cannot put any message there)', async () => {
    renderApp('/account/login-callback?status=error&reason=notEnoughCredits', null);
    expect(await screen.findByText(ERRORS.loginFailed.en)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Back to sign-in' })).toBeNull();
  });
});
