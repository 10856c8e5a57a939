import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, stubApi, userWith } from '../../test/renderApp';
import { REFERRAL_STORAGE_KEY } from './referral';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

const codeField = () => screen.findByRole('textbox', { name: 'Invitation code' });

describe('a friend’s invite link carried through sign-in', () => {
  it('keeps the code of /account/login?ref=CODE', async () => {
    stubApi({ '/auth/config': ok({ google: false, devLogin: true }) });
    renderApp('/account/login?ref=%20ADA100%20', null);
    await screen.findByRole('textbox', { name: 'Email' });
    expect(localStorage.getItem(REFERRAL_STORAGE_KEY)).toBe('ADA100');
  });

  it('ignores a value that cannot be an invitation code', async () => {
    stubApi({ '/auth/config': ok({ google: false, devLogin: true }) });
    renderApp(`/account/login?ref=${'X'.repeat(65)}`, null);
    await screen.findByRole('textbox', { name: 'Email' });
    expect(localStorage.getItem(REFERRAL_STORAGE_KEY)).toBeNull();
  });

  it('fills the activation code with it, activates with it, then forgets it', async () => {
    let active = false;
    const calls = stubApi({
      '/users/activate': () => {
        active = true;
        return ok(true);
      },
      '/auth/session': () => ok(userWith(active ? 'ACTIVE' : 'INACTIVE')),
    });
    localStorage.setItem(REFERRAL_STORAGE_KEY, 'ADA100');
    const { router } = renderApp('/account/activate', userWith('INACTIVE'));
    expect(await codeField()).toHaveProperty('value', 'ADA100');
    fireEvent.click(screen.getByRole('button', { name: /get start/i }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/link-to-video'));
    expect(calls).toContain('/users/activate?inviteCode=ADA100');
    expect(localStorage.getItem(REFERRAL_STORAGE_KEY)).toBeNull();
  });

  it('leaves the field empty without a stored code, and keeps the code after a refused activation', async () => {
    stubApi({ '/users/activate': ok(false) });
    renderApp('/account/activate', userWith('INACTIVE'));
    expect(await codeField()).toHaveProperty('value', '');
    cleanup();

    localStorage.setItem(REFERRAL_STORAGE_KEY, 'ADA100');
    renderApp('/account/activate', userWith('INACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: /get start/i }));
    expect(await screen.findByText('Invalid invitation code')).toBeTruthy();
    expect(localStorage.getItem(REFERRAL_STORAGE_KEY)).toBe('ADA100');
  });
});
